/**
 * A measured run's claude started as a standby (src/agents/claude/standby.ts): its project made, the
 * CLI spawned with the run's flags and no prompt, waiting for it on stdin. The prompt is written
 * by `runOnce`, once the previous run's process group is gone.
 */

import type { StubProject, StubSpec } from '../process/stub-project.js';
import type { ContextTurn } from '../transcript.js';
import { standbyArgs } from './launch.js';
import type { ClaudeProcess, SpawnOptions } from './process.js';
import { placeTranscript } from './transcript.js';

/** A claude waiting for its prompt in its own project. */
export interface WaitingRun {
  project: StubProject;
  proc: ClaudeProcess;
}

/** What a standby is started with: fixed at spawn, so a standby serves only runs that share them. */
export interface WaitingSpec {
  stub: StubSpec;
  model?: string;
  claudeBin: string;
  env: Record<string, string>;
  debug?: boolean;
  /** The turns the run starts with in its history, placed before the spawn (docs/context.md). */
  context?: readonly ContextTurn[];
}

/** The part of a run's seams (`RunDeps`) a standby is started with. */
export interface WaitingDeps {
  spawn: (options: SpawnOptions) => ClaudeProcess;
  createProject: (spec: StubSpec) => Promise<StubProject>;
}

/**
 * A run's environment in its project: the run's own TMPDIR, and its own HOME when the project has
 * one (`run --roster`, roster-home.ts).
 */
export function projectEnv(env: Record<string, string>, project: StubProject): Record<string, string> {
  return { ...env, TMPDIR: project.tmpDir, ...(project.home ? { HOME: project.home } : {}) };
}

/** Makes the project and spawns the waiting claude; a failure leaves nothing behind. */
export async function startWaiting(spec: WaitingSpec, deps: WaitingDeps): Promise<WaitingRun> {
  const project = await deps.createProject(spec.stub);
  try {
    const env = projectEnv(spec.env, project);
    const resume = spec.context ? await placeTranscript(spec.context, env, project.dir) : undefined;
    const proc = deps.spawn({
      bin: spec.claudeBin,
      args: standbyArgs(spec.model, resume),
      cwd: project.dir,
      env,
      promptOnStdin: true,
      ...(spec.debug ? { inheritStderr: true } : {}),
    });
    return { project, proc };
  } catch (error) {
    await project.remove().catch(() => undefined);
    throw error;
  }
}

/**
 * Kills a standby's process group through the same `kill()` as a measured run (so what the CLI
 * leaves in HOME is removed the same way) and removes its project. Never throws.
 */
export async function discardWaiting(waiting: WaitingRun): Promise<void> {
  await waiting.proc.kill().catch(() => undefined);
  await waiting.project.remove().catch(() => undefined);
}
