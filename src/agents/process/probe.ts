/**
 * What the listing probes of Codex and Gemini CLI share: the probe's project laid out as a measured
 * run's (a git-rooted project holding `.agents/skills/<folder>/SKILL.md`, a home and a TMPDIR
 * beside it), and the wait for the first request the capture server reads, bounded by a timeout
 * and an interrupt.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { initRepository } from '../../system/git.js';
import type { GroupExit, GroupProcess } from './group.js';

/** One skill folder to install, its SKILL.md byte for byte. */
export interface ProbeSkill {
  folder: string;
  text: string | Uint8Array;
}

/** The probe's folders, all inside its temp folder. */
export interface ProbeFolders {
  project: string;
  /** The agent's home (`CODEX_HOME`, or the HOME Gemini CLI reads). */
  home: string;
  tmpDir: string;
  /** The project's `.agents/skills`, holding the probed skills. */
  skillsDir: string;
}

/** Makes the project (a git repository), the agent's home (named `homeName`) and the TMPDIR, and installs the skills. */
export async function layOutProbe(
  base: string,
  homeName: string,
  skills: readonly ProbeSkill[],
): Promise<ProbeFolders> {
  const project = path.join(base, 'project');
  const home = path.join(base, homeName);
  const tmpDir = path.join(base, 'tmp');
  for (const folder of [project, home, tmpDir]) await mkdir(folder);
  await initRepository(project);
  const skillsDir = path.join(project, '.agents', 'skills');
  await mkdir(skillsDir, { recursive: true });
  for (const skill of skills) {
    await mkdir(path.join(skillsDir, skill.folder));
    await writeFile(path.join(skillsDir, skill.folder, 'SKILL.md'), skill.text);
  }
  return { project, home, tmpDir, skillsDir };
}

/**
 * Reads the probe's output until `captured` says its first request came, its time is up or it is
 * interrupted; the process group is killed whichever came first. The capture server answers the
 * gate query with text, which ends the agent's turn and run.
 */
export async function awaitFirstRequest(
  proc: GroupProcess,
  captured: () => boolean,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<{ exit: GroupExit; timedOut: boolean }> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void proc.kill();
  }, timeoutMs);
  const onAbort = (): void => void proc.kill();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const _line of proc.lines) if (captured()) break;
    await proc.kill();
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  return { exit: await proc.exited, timedOut };
}

/** Why a probe read no request, its agent named by its command (`codex`, `gemini`). */
export function probeFailure(command: string, exit: GroupExit, aborted: boolean, timedOut: boolean): string {
  return exit.spawnFailed
    ? `${command} could not be started`
    : aborted
      ? 'interrupted'
      : timedOut
        ? `${command} sent no request in time`
        : `${command} exited with code ${exit.exitCode ?? exit.signal ?? '?'} before sending a request`;
}
