/**
 * One Codex measurement end to end: the temp project with its stub, `codex exec --json` started
 * in it, its session rollout read as it grows and fed to the Codex decision (stdout kept for how a
 * run without a rollout ended), the process group killed at the decision (or at the timeout, or on
 * abort), and the temp folder (project, CODEX_HOME, TMPDIR) removed. This is what the agent seam
 * calls for Codex (docs/codex.md "Wiring").
 */
import path from 'node:path';
import type { Outcome, Usage } from '../../outcome.js';
import type { StubListing } from '../listing.js';
import type { LoadedEntry } from '../runs.js';
import type { ContextTurn } from '../transcript.js';
import { writeCodexConfig } from './config-file.js';
import { CodexDecider } from './decision.js';
import { parseCodexEvent } from './events.js';
import { type CodexProvider, codexEnv, codexSpawnPlan, parseCodexVersion } from './launch.js';
import { killProcessesNaming } from './leftovers.js';
import { type CodexExit, type CodexProcess, spawnCodex } from './process.js';
import { placeRollout } from './resume.js';
import { parseRolloutLine } from './rollout.js';
import { type PlacedRollout, tailRollout } from './rollout-tail.js';
import { codexStubListing } from './run-listing.js';
import { type CodexStandby, discardCodexStandby, promptCodexStandby } from './standby.js';
import { type CodexStubProject, type CodexStubSpec, createCodexStubProject } from './stub.js';

export interface CodexRunOptions {
  /** The `codex` executable (default `codex` on PATH). */
  bin?: string;
  query: string;
  stub: CodexStubSpec;
  provider: CodexProvider;
  /** Wall-clock limit of the run; past it the run is a `timeout`. */
  timeoutMs: number;
  /** Aborting kills the run and removes its files; the promise then rejects with the reason. */
  signal?: AbortSignal;
  /** The environment the run was handed (the user's, or the Action's): the child's starts from it. */
  baseEnv: NodeJS.ProcessEnv;
  /** The turns the run starts with in its history, resumed from a rollout (docs/context.md). */
  context?: readonly ContextTurn[];
  /**
   * A Codex started ahead for this run's stub, model and context, waiting for its prompt on
   * stdin (docs/codex.md, "A warm standby"); the run writes the query to it. Absent: a cold start.
   */
  standby?: Promise<CodexStandby>;
}

export interface CodexRunResult {
  outcome: Outcome;
  /** What the deciding response loaded (stub, sibling, another skill, none), when it decided. */
  loaded?: LoadedEntry;
  /** Tokens as far as Codex reported them (a run killed at its decision has none). */
  usage: Usage;
  /** Codex's session id (`thread_id`): the session a retry re-sends, counted once. */
  threadId?: string;
  /** The stub's entry in the listing of this run's request (its rollout), when the rollout held it. */
  listing?: StubListing;
  durationMs: number;
}

export class CodexRunAborted extends Error {
  constructor(readonly reason: unknown) {
    super('the Codex run was interrupted');
  }
}

/** A run's process and its project, started cold or taken from a standby. */
interface Launched {
  project: CodexStubProject;
  codex: CodexProcess;
  resume?: { threadId: string } & PlacedRollout;
}

/** A cold start: the project made, its config written, the context placed, `codex exec <query>` spawned. */
async function launchCold(options: CodexRunOptions): Promise<Launched> {
  const project = await createCodexStubProject(options.stub);
  try {
    await writeCodexConfig(project.codexHome, options.provider);
    const resume = options.context
      ? await placeRollout(options.context, project.codexHome, project.dir)
      : undefined;
    const { provider, baseEnv } = options;
    const codex = spawnCodex({
      bin: options.bin ?? 'codex',
      ...codexSpawnPlan(
        options.query,
        { provider, baseEnv, ...(resume === undefined ? {} : { resume: resume.threadId }) },
        project,
      ),
    });
    return { project, codex, ...(resume === undefined ? {} : { resume }) };
  } catch (error) {
    await killProcessesNaming(project.base);
    await project.remove();
    throw error;
  }
}

/**
 * The run's Codex: the standby it was handed, prompted now (the previous run's process group is
 * gone: the loop awaits each run), else a cold start. An abort that came while it waited spends nothing.
 */
async function launch(options: CodexRunOptions): Promise<Launched> {
  if (options.standby === undefined) return launchCold(options);
  const standby = await options.standby.catch(() => undefined);
  if (options.signal?.aborted) {
    if (standby) await discardCodexStandby(standby);
    throw new CodexRunAborted(options.signal.reason);
  }
  const prompted = standby && (await promptCodexStandby(standby, options.query));
  if (prompted === undefined) return launchCold(options);
  return {
    project: prompted.project,
    codex: prompted.codex,
    ...(prompted.resume === undefined ? {} : { resume: prompted.resume }),
  };
}

export async function runCodexMeasurement(options: CodexRunOptions): Promise<CodexRunResult> {
  if (options.signal?.aborted && options.standby)
    await options.standby.then(discardCodexStandby, () => undefined);
  options.signal?.throwIfAborted();
  const started = Date.now();
  const { project, codex, resume } = await launch(options);
  try {
    const decider = new CodexDecider(project.stub, project.siblings);
    let stop: 'timeout' | 'abort' | undefined;
    const halt = (why: 'timeout' | 'abort'): void => {
      stop ??= why;
      void codex.kill();
    };
    const timer = setTimeout(() => halt('timeout'), options.timeoutMs);
    const onAbort = (): void => halt('abort');
    // An abort while the project was being made has already fired: its listener would never run.
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    let outcome: Outcome | undefined;
    let exit: CodexExit | undefined;
    let listing: StubListing | undefined;
    // stdout is drained all along (a full pipe would stall Codex); it only says how a run ended.
    const stdout = (async () => {
      for await (const line of codex.lines) decider.noteStdout(parseCodexEvent(line));
    })();
    const rollout = tailRollout(path.join(project.codexHome, 'sessions'), undefined, resume);
    void codex.exited.then(() => rollout.end());
    try {
      for await (const line of rollout.lines) {
        const entry = parseRolloutLine(line);
        // The listing this run's own request sent: the stub's state is read from it, run by run.
        if (entry.kind === 'listing')
          listing ??= codexStubListing(entry.text, project.stub.name, options.stub.description);
        outcome = decider.feed(entry);
        if (outcome) break;
      }
      // The decision is made: the rest of the run (a follow-up response, more commands) is not needed.
      await codex.kill();
      exit = await codex.exited;
      await stdout;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
    if (stop === 'abort' && outcome === undefined) throw new CodexRunAborted(options.signal?.reason);
    if (outcome === undefined) outcome = stop === 'timeout' ? { kind: 'timeout' } : decider.finish(exit);
    return {
      outcome,
      ...(decider.loaded === undefined ? {} : { loaded: decider.loaded }),
      usage: decider.usage,
      ...(decider.threadId === undefined ? {} : { threadId: decider.threadId }),
      ...(listing === undefined ? {} : { listing }),
      durationMs: Date.now() - started,
    };
  } finally {
    // The sandbox helper runs in a session of its own, out of the group's reach.
    await killProcessesNaming(project.base);
    await project.remove();
  }
}

/**
 * `codex --version` for the version gate, in a throwaway CODEX_HOME: with the default one even
 * `--version` writes helper links under `~/.codex/tmp` (docs/codex.md "What a run writes").
 * Started from the environment it is handed, as a run is. Undefined when the executable is
 * missing or prints no version.
 */
export async function readCodexVersion(
  bin: string,
  baseEnv: NodeJS.ProcessEnv,
  root?: string,
): Promise<string | undefined> {
  const project = await createCodexStubProject({
    skillName: 'version',
    description: 'version',
    ...(root ? { root } : {}),
  });
  try {
    const codex = spawnCodex({
      bin,
      args: ['--version'],
      cwd: project.dir,
      env: codexEnv(baseEnv, project, { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'unused' }),
    });
    const lines: string[] = [];
    for await (const line of codex.lines) lines.push(line);
    await codex.kill();
    return parseCodexVersion(lines.join('\n'));
  } finally {
    await killProcessesNaming(project.base);
    await project.remove();
  }
}
