/**
 * The Codex listing probe: what the real `codex` lists in its request for a set of SKILL.md files,
 * read through a loopback capture server (the simulated model), so no model is called and nothing
 * leaves the machine. It lays out a run's folders as a measured run does (a git-rooted project
 * holding `.agents/skills/<folder>/SKILL.md`, a throwaway CODEX_HOME and a sibling TMPDIR, all in
 * one `skilltrigger-*` folder), starts `codex exec` against the capture server with a dummy key,
 * and reads the `<skills_instructions>` of the first request: every listed skill, the stub's
 * competitors included (the system skills, the user's `~/.agents/skills`). It serves the roster
 * gate (a probe with no skill: what every measured run lists besides the stub) and the listing
 * parity checks (docs/codex.md "Listing parity").
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startSimulatedModel } from '../../simulated/model.js';
import { GATE_QUERY } from '../../simulated/request.js';
import { type ResponsesView, skillsInstructionsOf } from '../../simulated/responses-request.js';
import { awaitFirstRequest, layOutProbe, probeFailure } from '../process/probe.js';
import { createTempFolder, removeTempFolder } from '../process/stub-project.js';
import { writeCodexConfig } from './config-file.js';
import { codexArgs, codexEnv } from './launch.js';
import { killProcessesNaming } from './leftovers.js';
import { spawnCodex } from './process.js';

/** One skill folder to install in the probe's project, its SKILL.md byte for byte. */
export interface CodexProbeSkill {
  folder: string;
  text: string | Uint8Array;
}

export interface CodexProbeOptions {
  bin: string;
  /** The user's environment: HOME stays, so `~/.agents/skills` is listed as in a measured run. */
  env: NodeJS.ProcessEnv;
  skills: readonly CodexProbeSkill[];
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Where the temp folder goes; default the OS temp dir. */
  root?: string;
  /** The model the request names (`-m`); default Codex's own. */
  model?: string;
  /** Extra `-c key=value` overrides (`model_context_window=…`), to see what moves the listing budget. */
  config?: readonly string[];
  /** Skill folders for `$HOME/.agents/skills`: the probe then runs with a throwaway HOME holding them. */
  userSkills?: readonly CodexProbeSkill[];
  /** Read each listed skill's SKILL.md (`CodexListedSkill.text`) before the probe's folders go. */
  readTexts?: boolean;
}

/** One line of Codex's skill listing. */
export interface CodexListedSkill {
  name: string;
  description: string;
  /** The SKILL.md the line points at, its alias root expanded. */
  file: string;
  /** That file's text, with `readTexts` (absent when it could not be read). */
  text?: string;
}

export type CodexProbeResult =
  | {
      kind: 'listed';
      /** Every listed skill, in the listing's order. */
      skills: CodexListedSkill[];
      /** The probe project's skills folder, to tell its skills from the rest. */
      projectSkills: string;
      /** The developer message holding `<skills_instructions>`, exactly as sent ('' without one). */
      instructions: string;
    }
  | { kind: 'failed'; reason: string };

const PROBE_TIMEOUT_MS = 60_000;

/** The argv with `-c` overrides put before its `--`. */
function withConfig(args: string[], config: readonly string[]): string[] {
  const at = args.indexOf('--');
  return [...args.slice(0, at), ...config.flatMap((c) => ['-c', c]), ...args.slice(at)];
}

/** Runs the probe once; never throws for a Codex failure: a failed probe says why. */
export async function probeCodexListing(options: CodexProbeOptions): Promise<CodexProbeResult> {
  const base = await createTempFolder(options.root ?? os.tmpdir());
  const model = await startSimulatedModel({ isStub: () => false, chunkDelayMs: 0, recordBodies: true });
  try {
    const {
      project,
      home: codexHome,
      tmpDir,
      skillsDir,
    } = await layOutProbe(base, 'codex-home', options.skills);
    const env =
      options.userSkills === undefined
        ? options.env
        : await withUserSkills(base, options.env, options.userSkills);
    const provider = {
      baseUrl: `${model.url}/v1`,
      apiKey: 'skilltrigger-probe',
      ...(options.model ? { model: options.model } : {}),
    };
    await writeCodexConfig(codexHome, provider);
    const codex = spawnCodex({
      bin: options.bin,
      args: withConfig(codexArgs(GATE_QUERY, provider, { ephemeral: true }), options.config ?? []),
      cwd: project,
      env: codexEnv(env, { codexHome, tmpDir }, provider),
    });
    const firstRequest = (): ResponsesView | undefined =>
      model.requests.find((r) => r.path === '/v1/responses' && r.view !== undefined)?.view as
        | ResponsesView
        | undefined;
    const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
    const { exit, timedOut } = await awaitFirstRequest(
      codex,
      () => !!firstRequest(),
      timeoutMs,
      options.signal,
    );
    const view = firstRequest();
    if (view === undefined) {
      return {
        kind: 'failed',
        reason: probeFailure('codex', exit, options.signal?.aborted === true, timedOut),
      };
    }
    const body = model.requests.find((r) => r.path === '/v1/responses' && r.body !== undefined)?.body;
    return {
      kind: 'listed',
      skills: await listedSkills(view, options.readTexts === true),
      projectSkills: skillsDir,
      instructions: skillsInstructionsOf(body) ?? '',
    };
  } finally {
    await model.close();
    await killProcessesNaming(base);
    await removeTempFolder(base);
  }
}

/** The environment with a throwaway HOME whose `.agents/skills` holds the user skills given. */
async function withUserSkills(
  base: string,
  env: NodeJS.ProcessEnv,
  userSkills: readonly CodexProbeSkill[],
): Promise<NodeJS.ProcessEnv> {
  const home = path.join(base, 'home');
  for (const skill of userSkills) {
    await mkdir(path.join(home, '.agents', 'skills', skill.folder), { recursive: true });
    await writeFile(path.join(home, '.agents', 'skills', skill.folder, 'SKILL.md'), skill.text);
  }
  return { ...env, HOME: home };
}

/** Each listed skill with the file its line points at, and that file's text with `readTexts`. */
async function listedSkills(view: ResponsesView, readTexts: boolean): Promise<CodexListedSkill[]> {
  const skills: CodexListedSkill[] = [];
  for (const entry of view.listing) {
    const file = view.skillFiles.get(entry.name) ?? '';
    const text = readTexts && file !== '' ? await readFile(file, 'utf8').catch(() => undefined) : undefined;
    skills.push({
      name: entry.name,
      description: entry.description,
      file,
      ...(text === undefined ? {} : { text }),
    });
  }
  return skills;
}
