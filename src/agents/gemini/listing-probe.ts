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
import os from 'node:os';
import type { GeminiView } from '../../simulated/gemini-request.js';
import { startSimulatedModel } from '../../simulated/model.js';
import { GATE_QUERY } from '../../simulated/request.js';
import { spawnInGroup } from '../process/group.js';
import { awaitFirstRequest, layOutProbe, probeFailure } from '../process/probe.js';
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
    const { project, home, tmpDir, skillsDir } = await layOutProbe(base, 'home', options.skills);
    await writeGeminiHome(home);
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
    const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
    const { exit, timedOut } = await awaitFirstRequest(
      gemini,
      () => !!firstRequest(),
      timeoutMs,
      options.signal,
    );
    const view = firstRequest();
    if (view === undefined) {
      return {
        kind: 'failed',
        reason: probeFailure('gemini', exit, options.signal?.aborted === true, timedOut),
      };
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
