/**
 * One Gemini measurement end to end: the temp project with its stub and throwaway home, `gemini
 * --output-format stream-json` started in it, its events fed to the Gemini decision, the process
 * group killed at the decision (or at the timeout, or on abort), and the temp folder (project,
 * GEMINI_CLI_HOME, TMPDIR) removed. This is what the agent seam will call for Gemini
 * (docs/gemini.md "Wiring").
 */

import type { Outcome, Usage } from '../../outcome.js';
import { type GroupExit, spawnInGroup } from '../process/group.js';
import type { LoadedEntry } from '../runs.js';
import { GeminiDecider } from './decision.js';
import { parseGeminiEvent } from './events.js';
import { type GeminiProvider, geminiArgs, geminiEnv, parseGeminiVersion } from './launch.js';
import { createGeminiStubProject, type GeminiStubSpec } from './stub.js';

export interface GeminiRunOptions {
  /** The `gemini` executable (default `gemini` on PATH). */
  bin?: string;
  query: string;
  stub: GeminiStubSpec;
  provider: GeminiProvider;
  /** Wall-clock limit of the run; past it the run is a `timeout`. */
  timeoutMs: number;
  /** Aborting kills the run and removes its files; the promise then rejects with the reason. */
  signal?: AbortSignal;
  /** The environment the run was handed (the user's, or the Action's): the child's starts from it. */
  baseEnv: NodeJS.ProcessEnv;
  /** Tests: called with the process group's id once it started. */
  onStart?: (pid: number | undefined, base: string) => void;
}

export interface GeminiRunResult {
  outcome: Outcome;
  /** What the deciding response loaded (stub, sibling, another skill, none), when it decided. */
  loaded?: LoadedEntry;
  /** Tokens as far as Gemini reported them (a run killed at its decision has none). */
  usage: Usage;
  /** Gemini's session id (the init event's). */
  sessionId?: string;
  /** The model the init event named. */
  model?: string;
  durationMs: number;
}

export class GeminiRunAborted extends Error {
  constructor(readonly reason: unknown) {
    super('the Gemini run was interrupted');
  }
}

export async function runGeminiMeasurement(options: GeminiRunOptions): Promise<GeminiRunResult> {
  options.signal?.throwIfAborted();
  const started = Date.now();
  const project = await createGeminiStubProject(options.stub);
  try {
    const decider = new GeminiDecider(project.stub, project.dir, project.siblings);
    const gemini = spawnInGroup({
      bin: options.bin ?? 'gemini',
      args: geminiArgs(options.query, options.provider),
      cwd: project.dir,
      env: geminiEnv(options.baseEnv, project, options.provider),
    });
    options.onStart?.(gemini.pid, project.base);
    let stop: 'timeout' | 'abort' | undefined;
    const halt = (why: 'timeout' | 'abort'): void => {
      stop ??= why;
      void gemini.kill();
    };
    const timer = setTimeout(() => halt('timeout'), options.timeoutMs);
    const onAbort = (): void => halt('abort');
    // An abort while the project was being made has already fired: its listener would never run.
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    let outcome: Outcome | undefined;
    let exit: GroupExit | undefined;
    try {
      for await (const line of gemini.lines) {
        outcome = decider.feed(parseGeminiEvent(line));
        if (outcome) break;
      }
      // The decision is made: the rest of the run (the tools, a follow-up request) is not needed.
      await gemini.kill();
      exit = await gemini.exited;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
    if (stop === 'abort' && outcome === undefined) throw new GeminiRunAborted(options.signal?.reason);
    if (outcome === undefined) outcome = stop === 'timeout' ? { kind: 'timeout' } : decider.finish(exit);
    return {
      outcome,
      ...(decider.loaded === undefined ? {} : { loaded: decider.loaded }),
      usage: decider.usage,
      ...(decider.sessionId === undefined ? {} : { sessionId: decider.sessionId }),
      ...(decider.model === undefined ? {} : { model: decider.model }),
      durationMs: Date.now() - started,
    };
  } finally {
    await project.remove();
  }
}

/**
 * `gemini --version` for the version gate, with a throwaway home (the user's `~/.gemini` is never
 * written), started from the environment it is handed, as a run is. Undefined when the executable
 * is missing or prints no version.
 */
export async function readGeminiVersion(
  bin: string,
  baseEnv: NodeJS.ProcessEnv,
  root?: string,
): Promise<string | undefined> {
  const project = await createGeminiStubProject({
    skillName: 'version',
    description: 'version',
    ...(root ? { root } : {}),
  });
  try {
    const gemini = spawnInGroup({
      bin,
      args: ['--version'],
      cwd: project.dir,
      env: geminiEnv(baseEnv, project, { apiKey: 'unused', baseUrl: 'http://127.0.0.1:9' }),
    });
    const lines: string[] = [];
    for await (const line of gemini.lines) lines.push(line);
    await gemini.kill();
    return parseGeminiVersion(lines.join('\n'));
  } finally {
    await project.remove();
  }
}
