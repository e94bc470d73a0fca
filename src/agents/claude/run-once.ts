import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Outcome } from '../../outcome.js';
import { createStubProject, type StubProject, type StubSpec } from '../process/stub-project.js';
import { type AgentRunResult, RunInterrupted, type RunPhases } from '../runs.js';
import type { ContextTurn } from '../transcript.js';
import { Decider } from './decision.js';
import { claudeArgs, standbyMessage } from './launch.js';
import { type ClaudeProcess, type SpawnOptions, spawnClaude } from './process.js';
import { EventReader, runLimits, watchRun } from './run-watch.js';
import { placeTranscript } from './transcript.js';
import { discardWaiting, projectEnv, startWaiting, type WaitingRun } from './waiting-run.js';

// How claude is launched lives in agents/claude/launch.ts; re-exported for the callers that import it from here.
export { claudeArgs, claudeEnvironment, RUN_PERMISSION_ARGS } from './launch.js';

/** Everything one run needs, already validated. */
export interface RunSpec {
  query: string;
  stub: StubSpec;
  model?: string;
  timeoutMs: number;
  claudeBin: string;
  /** The environment claude gets (built by `claudeEnvironment`). */
  env: Record<string, string>;
  /** `--late N`: after a miss, watch up to N more turns for a late load of the stub (0 = off). */
  lateTurns?: number;
  debug?: boolean;
  /**
   * How the prompt reaches claude: `cold` (default) spawns `claude -p <query>`; `standby` writes it
   * as a stream-json message to a claude started ahead (`RunOptions.standby`) or, when none is
   * ready, to one started now, so every run of a measurement sends the same request
   * (docs/speed.md, "A warm standby").
   */
  launch?: 'standby' | 'cold';
  /** The turns the run starts with in its history, resumed from a transcript (docs/context.md). */
  context?: readonly ContextTurn[];
}

export type { RunPhases } from '../runs.js';

/** How the loop speeds a run up without changing it. */
export interface RunOptions {
  /** A project made ahead of time (while the previous run ran) for this run's stub. */
  project?: Promise<StubProject>;
  /** A claude started ahead for this run's stub and model, waiting for its prompt (`launch: standby`). */
  standby?: Promise<WaitingRun>;
  /**
   * Takes the project's removal instead of awaiting it, so the next run can start while the folder
   * is deleted. The process group is gone before this is called: only files are left.
   */
  deferRemoval?: (removal: Promise<void>) => void;
  /**
   * Called once, at the CLI's `requesting` status (its request follows within ~40 ms), so what is
   * prepared for the next runs need not slow this run's own way to the model (docs/speed.md).
   */
  onAsked?: () => void;
}

/** Seams for tests and benchmarks; production uses the real adapters. */
export interface RunDeps {
  spawn: (options: SpawnOptions) => ClaudeProcess;
  createProject: (spec: StubSpec) => Promise<StubProject>;
  now: () => number;
}

export const realRunDeps: RunDeps = {
  spawn: spawnClaude,
  createProject: createStubProject,
  now: () => performance.now(),
};

/**
 * One run, start to finish: fresh stub project, one `claude -p`, the decision, the stop, and the
 * project removed whatever happens (decision, timeout, crash, interrupt).
 */
export async function runOnce(
  spec: RunSpec,
  signal?: AbortSignal,
  deps: RunDeps = realRunDeps,
  options: RunOptions = {},
): Promise<AgentRunResult> {
  if (signal?.aborted) {
    await discardPrepared(options);
    throw new RunInterrupted();
  }
  const started = deps.now();
  const opened = await openRun(spec, deps, options);
  const project = opened.project;
  let child = opened.child;
  const projectReady = deps.now();
  let killed = false;
  let phases: RunPhases | undefined;
  try {
    const decider = new Decider(project.stub, project.siblings);
    child = await launchRun(spec, project, child, deps, signal);
    const spawned = deps.now();
    const limits = runLimits(spec.timeoutMs, signal);
    const reader = new EventReader(child.lines, deps.now, options.onAsked);
    const watched = await watchRun(reader, decider, limits, project.stub, spec.lateTurns ?? 0);
    limits.clear();
    const decidedAt = deps.now();

    // Killed at once, not TERMed: a kill at the decision cannot corrupt the CLI's files (it
    // renames them into place), and kill() removes the session files a TERM would have removed.
    // Measured: ~20–100 ms from the kill to the group gone, against ~150–600 ms for TERM.
    await child.kill();
    killed = true;
    const gone = deps.now();
    phases = {
      started,
      projectReady,
      spawned,
      ...(reader.initAt === undefined ? {} : { init: reader.initAt }),
      ...(reader.askedAt === undefined ? {} : { asked: reader.askedAt }),
      decided: decidedAt,
      gone,
      cleaned: gone,
    };
    if (watched.first === 'aborted') throw new RunInterrupted();
    const ended = await endOf(watched.first, decider, child, gone - decidedAt);
    // Drain the reader so no stream is left dangling after the stop.
    await watched.read.catch(() => undefined);
    await reader.close();
    return runResult(ended, decider, { durationMs: gone - projectReady, late: watched.late, phases });
  } finally {
    if (child && !killed) await child.kill().catch(() => undefined);
    const removal = project.remove();
    if (options.deferRemoval) {
      options.deferRemoval(removal);
    } else {
      await removal;
      if (phases) phases.cleaned = deps.now();
    }
  }
}

/** An interrupt before the run began: what was prepared ahead for it is thrown away. */
async function discardPrepared(options: RunOptions): Promise<void> {
  if (options.project) await options.project.then((p) => p.remove()).catch(() => undefined);
  if (options.standby) await options.standby.then(discardWaiting).catch(() => undefined);
}

/** The run's stub project, and the claude already waiting in it when the run is a standby's. */
async function openRun(
  spec: RunSpec,
  deps: RunDeps,
  options: RunOptions,
): Promise<{ project: StubProject; child?: ClaudeProcess }> {
  if (spec.launch === 'standby' || options.standby) {
    const waiting = await usableStandby(options.standby, () => startWaiting(spec, deps));
    return { project: waiting.project, child: waiting.proc };
  }
  return { project: await preparedOrNew(options.project, () => deps.createProject(spec.stub)) };
}

/** Hands the prompt to the waiting claude, or spawns `claude -p` with it in the project. */
async function launchRun(
  spec: RunSpec,
  project: StubProject,
  waiting: ClaudeProcess | undefined,
  deps: RunDeps,
  signal: AbortSignal | undefined,
): Promise<ClaudeProcess> {
  if (waiting) {
    // The previous run's process group is gone (the loop awaits it), so this is the only claude
    // talking to the model from here on; an interrupt that came while it waited spends nothing.
    if (signal?.aborted) throw new RunInterrupted();
    await waiting.send(standbyMessage(spec.query));
    return waiting;
  }
  const env = projectEnv(spec.env, project);
  const resume = spec.context ? await placeTranscript(spec.context, env, project.dir) : undefined;
  return deps.spawn({
    bin: spec.claudeBin,
    args: claudeArgs(spec.query, spec.model, resume),
    cwd: project.dir,
    // The CLI's socket and file-watch probes go to the run's own TMPDIR, removed with the project.
    env,
    ...(spec.debug ? { inheritStderr: true } : {}),
  });
}

/** The run's outcome from how its watch ended, and the time from a decision to the group gone. */
async function endOf(
  first: Outcome | 'timeout' | undefined,
  decider: Decider,
  proc: ClaudeProcess,
  decisionToGoneMs: number,
): Promise<{ outcome: Outcome; decisionToExitMs?: number }> {
  if (first === 'timeout') return { outcome: { kind: 'timeout' } };
  if (first) return { outcome: first, decisionToExitMs: decisionToGoneMs };
  // stdout closed without a decision: classify by how the process ended.
  return { outcome: decider.finish(await proc.exited) };
}

/** The run's result: its outcome, what it spent and loaded, and its phases. */
function runResult(
  ended: { outcome: Outcome; decisionToExitMs?: number },
  decider: Decider,
  run: { durationMs: number; late: boolean; phases: RunPhases },
): AgentRunResult {
  const { outcome, decisionToExitMs } = ended;
  const model = decider.init?.model;
  const loaded =
    outcome.kind === 'triggered' || outcome.kind === 'not-triggered' ? decider.loaded : undefined;
  return {
    outcome,
    durationMs: run.durationMs,
    usage: decider.usage,
    ...(model === undefined ? {} : { model }),
    ...(decider.init ? { init: decider.init } : {}),
    ...(decisionToExitMs === undefined ? {} : { decisionToExitMs }),
    ...(run.late ? { late: true } : {}),
    ...(loaded === undefined ? {} : { loaded }),
    phases: run.phases,
  };
}

/**
 * A standby started ahead, if its claude still waits and its project is still whole; otherwise it
 * is discarded and one is started now, whose failure (no temp project) is the error to report. A
 * standby's death before its prompt is never a run's outcome.
 */
async function usableStandby(
  prepared: Promise<WaitingRun> | undefined,
  start: () => Promise<WaitingRun>,
): Promise<WaitingRun> {
  if (!prepared) return start();
  const waiting = await prepared.catch(() => undefined);
  if (waiting && !waiting.proc.hasExited() && (await isWhole(waiting.project))) return waiting;
  if (waiting) await discardWaiting(waiting);
  return start();
}

/** Whether a project made ahead still has its stub, its `.git` and its TMPDIR (a cleanup job may have removed them). */
async function isWhole(p: StubProject): Promise<boolean> {
  const present = [p.stub.filePath, path.join(p.dir, '.git'), p.tmpDir];
  const found = await Promise.all(
    present.map((file) =>
      access(file).then(
        () => true,
        () => false,
      ),
    ),
  );
  return found.every(Boolean);
}

/**
 * A project made ahead of time, if it is still whole (a cleanup job may have removed the temp
 * folder since: then a new one is made, and its failure is the error to report), else a new one.
 */
async function preparedOrNew(
  prepared: Promise<StubProject> | undefined,
  create: () => Promise<StubProject>,
): Promise<StubProject> {
  if (!prepared) return create();
  const project = await prepared.catch(() => undefined);
  if (project && (await isWhole(project))) return project;
  await project?.remove().catch(() => undefined);
  return create();
}
