/**
 * Codex's warm standby (docs/codex.md, "A warm standby"): `codex exec --json … -- -` started ahead
 * in its own prepared project (stub, config, throwaway CODEX_HOME and TMPDIR) with stdin a pipe.
 * Reading its prompt from stdin, it finishes its start-up and waits, sending nothing to the model
 * until stdin closes; the run writes the query and closes it, then decides exactly as a cold run.
 * A run with a context has its rollout placed before the start, resumed the same way (`exec …
 * resume <id> -` reads its prompt from stdin too).
 */
import os from 'node:os';
import type { ContextTurn } from '../transcript.js';
import { writeCodexConfig } from './config-file.js';
import { type CodexProvider, codexSpawnPlan } from './launch.js';
import { killProcessesNaming } from './leftovers.js';
import { type CodexProcess, spawnCodex } from './process.js';
import { placeRollout } from './resume.js';
import type { PlacedRollout } from './rollout-tail.js';
import { type CodexStubProject, type CodexStubSpec, createCodexStubProject } from './stub.js';

/**
 * What one waiting Codex holds resident: ~100 MB measured here (the npm launcher's node ~44 MB and
 * the native binary ~58 MB, VmRSS of its processes 4 s after the start; docs/codex.md, "A warm standby").
 */
export const CODEX_STANDBY_MEMORY_BYTES = 100 * 1024 * 1024;

/**
 * The default number of Codex standbys: one, which hides the start-up whenever a run lasts longer
 * than a start-up, when the memory free holds it beside the running Codex; else none.
 */
export function defaultCodexStandbyCount(freeBytes: number): number {
  return freeBytes >= 2 * CODEX_STANDBY_MEMORY_BYTES ? 1 : 0;
}

let machineDefault: number | undefined;

/** This machine's default, decided once a process, so every loop of it reads the same count. */
export function machineCodexStandbyCount(): number {
  machineDefault ??= defaultCodexStandbyCount(os.freemem());
  return machineDefault;
}

/** The query argument that makes `codex exec` read its prompt from stdin. */
export const STDIN_QUERY = '-';

/** What a standby is started with: everything of a run but its query. */
export interface CodexStandbySpec {
  bin: string;
  stub: CodexStubSpec;
  provider: CodexProvider;
  /** The turns its run starts with, placed as a rollout it resumes (`exec … resume <id> -`). */
  context?: readonly ContextTurn[];
  /** The environment its run was handed (the user's, or the Action's): the child's starts from it. */
  baseEnv: NodeJS.ProcessEnv;
}

/** A Codex started ahead, waiting for its prompt on stdin. */
export interface CodexStandby {
  project: CodexStubProject;
  codex: CodexProcess;
  /** The context's rollout it resumes, whose tail the run reads past. */
  resume?: { threadId: string } & PlacedRollout;
  /** Whether the process has exited already (it died while it waited, or never started). */
  hasExited(): boolean;
}

export async function startCodexStandby(spec: CodexStandbySpec): Promise<CodexStandby> {
  const project = await createCodexStubProject(spec.stub);
  try {
    await writeCodexConfig(project.codexHome, spec.provider);
    const resume = spec.context
      ? await placeRollout(spec.context, project.codexHome, project.dir)
      : undefined;
    const { provider, baseEnv } = spec;
    const codex = spawnCodex({
      bin: spec.bin,
      ...codexSpawnPlan(
        STDIN_QUERY,
        { provider, baseEnv, ...(resume === undefined ? {} : { resume: resume.threadId }) },
        project,
      ),
      stdin: 'pipe',
    });
    let exited = false;
    void codex.exited.then(() => {
      exited = true;
    });
    return { project, codex, ...(resume === undefined ? {} : { resume }), hasExited: () => exited };
  } catch (error) {
    await project.remove();
    throw error;
  }
}

/** Kills a standby's process group and what its sandbox left outside it, then removes its folder. Never throws. */
export async function discardCodexStandby(standby: CodexStandby): Promise<void> {
  await standby.codex.kill().catch(() => undefined);
  await killProcessesNaming(standby.project.base).catch(() => undefined);
  await standby.project.remove().catch(() => undefined);
}

/**
 * A standby ready for its prompt: still waiting, its prompt written and stdin closed. Undefined
 * (the standby discarded) when it died while it waited or the prompt could not be written: the run
 * then starts cold, so a standby's death before its prompt is never a run's outcome.
 */
export async function promptCodexStandby(
  standby: CodexStandby,
  query: string,
): Promise<CodexStandby | undefined> {
  if (!standby.hasExited()) {
    const written = await standby.codex.prompt(query).then(
      () => true,
      () => false,
    );
    if (written) return standby;
  }
  await discardCodexStandby(standby);
  return undefined;
}
