/**
 * The Gemini listing probe: what the real `gemini` lists in its request for a set of SKILL.md
 * files, read through a loopback capture server (the simulated model), so no model is called and
 * nothing leaves the machine. It lays out a run's folders as a measured run does (a git-rooted
 * project holding `.agents/skills/<folder>/SKILL.md`, a throwaway GEMINI_CLI_HOME with the run's
 * settings and policy, a TMPDIR, all in one `skilltrigger-*` folder), starts `gemini` against the
 * capture server with a dummy key, and reads the `<available_skills>` of the first request: every
 * listed skill, the built-in ones included. It serves the roster and conflict gates (a probe with
 * no skill: what every measured run lists besides the stub) and the listing parity checks
 * (docs/gemini.md "Listing parity").
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GeminiView } from '../../simulated/gemini-request.js';
import { startSimulatedModel } from '../../simulated/model.js';
import { GATE_QUERY } from '../../simulated/request.js';
import { initRepository } from '../../system/git.js';
import { spawnInGroup } from '../process/group.js';
import { createTempFolder, removeTempFolder } from '../process/stub-project.js';
import { geminiArgs, geminiEnv } from './launch.js';
import { writeGeminiHome } from './stub.js';

/** One skill folder to install in the probe's project, its SKILL.md byte for byte. */
export interface GeminiProbeSkill {
  folder: string;
  text: string | Uint8Array;
}

export interface GeminiProbeOptions {
  bin: string;
  /** The user's environment (Gemini's own variables are dropped, as for a measured run). */
  env: NodeJS.ProcessEnv;
  skills: readonly GeminiProbeSkill[];
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Where the temp folder goes; default the OS temp dir. */
  root?: string;
}

/** One entry of Gemini's skill listing. */
export interface GeminiListedSkill {
  name: string;
  description: string;
  /** The SKILL.md its `<location>` gives. */
  file: string;
}

export type GeminiProbeResult =
  | {
      kind: 'listed';
      /** Every listed skill, in the listing's order. */
      skills: GeminiListedSkill[];
      /** The probe project's skills folder, to tell its skills from the rest. */
      projectSkills: string;
    }
  | { kind: 'failed'; reason: string };

const PROBE_TIMEOUT_MS = 60_000;

/** Runs the probe once; never throws for a Gemini failure: a failed probe says why. */
export async function probeGeminiListing(options: GeminiProbeOptions): Promise<GeminiProbeResult> {
  const base = await createTempFolder(options.root ?? os.tmpdir());
  const model = await startSimulatedModel({ isStub: () => false, chunkDelayMs: 0 });
  try {
    const project = path.join(base, 'project');
    const home = path.join(base, 'home');
    const tmpDir = path.join(base, 'tmp');
    for (const folder of [project, home, tmpDir]) await mkdir(folder);
    await writeGeminiHome(home);
    await initRepository(project);
    const skillsDir = path.join(project, '.agents', 'skills');
    await mkdir(skillsDir, { recursive: true });
    for (const skill of options.skills) {
      await mkdir(path.join(skillsDir, skill.folder));
      await writeFile(path.join(skillsDir, skill.folder, 'SKILL.md'), skill.text);
    }
    const provider = { baseUrl: model.url, apiKey: 'skilltrigger-probe', model: 'skilltrigger-probe' };
    const gemini = spawnInGroup({
      bin: options.bin,
      args: geminiArgs(GATE_QUERY, provider),
      cwd: project,
      env: geminiEnv(options.env, { home, tmpDir }, provider),
    });
    const firstRequest = (): GeminiView | undefined =>
      model.requests.find((r) => r.path.startsWith('/v1beta/models/') && r.view !== undefined)?.view as
        | GeminiView
        | undefined;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void gemini.kill();
    }, options.timeoutMs ?? PROBE_TIMEOUT_MS);
    const onAbort = (): void => void gemini.kill();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      // The simulated model answers the gate query with text, which ends the run.
      for await (const _line of gemini.lines) if (firstRequest()) break;
      await gemini.kill();
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
    const exit = await gemini.exited;
    const view = firstRequest();
    if (view === undefined) {
      const reason = exit.spawnFailed
        ? 'gemini could not be started'
        : options.signal?.aborted
          ? 'interrupted'
          : timedOut
            ? 'gemini sent no request in time'
            : `gemini exited with code ${exit.exitCode ?? exit.signal ?? '?'} before sending a request`;
      return { kind: 'failed', reason };
    }
    const skills = view.listing.map((entry) => ({
      name: entry.name,
      description: entry.description,
      file: view.skillFiles.get(entry.name) ?? '',
    }));
    return { kind: 'listed', skills, projectSkills: skillsDir };
  } finally {
    await model.close();
    await removeTempFolder(base);
  }
}
