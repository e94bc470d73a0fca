import { type ClaudeProcess, type SpawnOptions, spawnClaude } from '../adapters/claude.js';
import { createStubProject, type StubProject, type StubSpec } from '../adapters/stub-project.js';
import { Decider, type InitInfo } from '../decide/decision.js';
import { parseEvent } from '../decide/events.js';
import type { Outcome } from '../outcome.js';
import type { RunRecord } from '../verdict/rules.js';

/** Everything one run needs, already validated. */
export interface RunSpec {
  query: string;
  stub: StubSpec;
  model?: string;
  timeoutMs: number;
  claudeBin: string;
  /** The environment claude gets (built by `claudeEnvironment`). */
  env: Record<string, string>;
  debug?: boolean;
}

/** A finished run plus what only the harness sees (init info, latency). */
export interface RunResult extends RunRecord {
  init?: InitInfo;
  /** From the decisive event on stdout to the process group gone; absent for timeouts. */
  decisionToExitMs?: number;
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
 * How a measured run answers tool calls. The CLI runs the model's tool calls while the message is
 * still streaming, before skilltrigger can decide and stop it (claude-cli-facts.md §0.3), with the
 * API key in its environment; an eval query is untrusted text (in CI it comes from a pull request).
 * `dontAsk` turns every "would ask for approval" into a denial, and as a command-line flag it
 * overrides a `defaultMode` (bypassPermissions, acceptEdits, …) from the user's settings. It changes
 * nothing the model is sent: the request's tools, system prompt and listing stay byte-identical, so
 * the measurement is the same (docs/security.md, __tests__/faults/security.e2e.test.ts).
 */
export const RUN_PERMISSION_ARGS: readonly string[] = ['--permission-mode', 'dontAsk'];

/** The exact argv of one measured run (SPEC §2.2). The query goes after `--` so a leading `-` stays text. */
export function claudeArgs(query: string, model?: string): string[] {
  return [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    '--include-partial-messages',
    '--no-session-persistence',
    ...RUN_PERMISSION_ARGS,
    ...(model ? ['--model', model] : []),
    '--',
    query,
  ];
}

/** Thrown when the caller's signal aborts a run; the run is not recorded. */
export class RunInterrupted extends Error {}

/**
 * One run, start to finish: fresh stub project, one `claude -p`, the decision, the stop, and the
 * project removed whatever happens (decision, timeout, crash, interrupt).
 */
export async function runOnce(
  spec: RunSpec,
  signal?: AbortSignal,
  deps: RunDeps = realRunDeps,
): Promise<RunResult> {
  if (signal?.aborted) throw new RunInterrupted();
  const project = await deps.createProject(spec.stub);
  const started = deps.now();
  let child: ClaudeProcess | undefined;
  try {
    const decider = new Decider(project.stub);
    child = deps.spawn({
      bin: spec.claudeBin,
      args: claudeArgs(spec.query, spec.model),
      cwd: project.dir,
      env: spec.env,
      ...(spec.debug ? { inheritStderr: true } : {}),
    });
    const proc = child;

    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), spec.timeoutMs);
    });
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<'aborted'>((resolve) => {
      onAbort = () => resolve('aborted');
      // An abort while the project was being made has already fired: its listener would never run.
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    const read = (async (): Promise<Outcome | undefined> => {
      for await (const line of proc.lines) {
        const outcome = decider.feed(parseEvent(line));
        if (outcome) return outcome;
      }
      return undefined;
    })();

    const first = await Promise.race([read, timedOut, aborted]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    const decidedAt = deps.now();

    if (first === 'aborted') {
      await proc.stop();
      throw new RunInterrupted();
    }
    let outcome: Outcome;
    let decisionToExitMs: number | undefined;
    if (first === 'timeout') {
      outcome = { kind: 'timeout' };
      await proc.stop();
    } else if (first) {
      outcome = first;
      await proc.stop();
      decisionToExitMs = deps.now() - decidedAt;
    } else {
      // stdout closed without a decision: classify by how the process ended.
      outcome = decider.finish(await proc.exited);
      await proc.stop();
    }
    // Drain the reader so no stream is left dangling after the stop.
    await read.catch(() => undefined);
    const model = decider.init?.model;
    return {
      outcome,
      durationMs: deps.now() - started,
      usage: decider.usage,
      ...(model === undefined ? {} : { model }),
      ...(decider.init ? { init: decider.init } : {}),
      ...(decisionToExitMs === undefined ? {} : { decisionToExitMs }),
    };
  } finally {
    if (child) await child.stop().catch(() => undefined);
    await project.remove();
  }
}

/**
 * The environment claude runs with: the user's, minus `CLAUDECODE` (set inside a Claude Code
 * session; claude refuses to nest with it), with retries capped so API failures surface as errors
 * inside the per-run timeout instead of ~3 minutes of backoff (claude-cli-facts.md §3).
 */
export function claudeEnvironment(base: NodeJS.ProcessEnv, maxRetries: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined || key === 'CLAUDECODE' || key === 'CLAUDE_CODE_ENTRYPOINT') continue;
    env[key] = value;
  }
  env.CLAUDE_CODE_MAX_RETRIES = String(maxRetries);
  // No telemetry or reachability probes: they add requests and leave files, and change nothing the model sees.
  env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC = '1';
  return env;
}
