import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startSimulatedModel } from '../../simulated/model.js';
import { findListingLine } from '../../simulated/request.js';
import { initRepository } from '../../system/git.js';
import { createTempFolder, removeTempFolder } from '../process/stub-project.js';
import { runClaudeCommand } from './command.js';
import { probeArgs, probeEnvironment } from './launch.js';

/**
 * The listing probe: how Claude Code itself lists a command or skill file. It runs the user's own
 * `claude -p` once, in a `git init`ed temp project holding only that file, with a throwaway HOME
 * and `ANTHROPIC_BASE_URL` pointing at the loopback simulated model, and reads the file's line of
 * the skill listing from the first request body. No model is called and nothing leaves the machine:
 * the key it is given is a dummy, and the user's own key and settings never reach it. Claude Code
 * reads frontmatter with its own splitter and Bun's YAML parser (not the `yaml` package), so this is
 * the only exact reading; `src/inputs/listing.ts` is the documented emulation for when it cannot run.
 */

/** The file to list: a skill folder's SKILL.md, or a command file. */
export interface ProbeFile {
  layout: 'skill' | 'command';
  /** The file's text, byte for byte as it will be installed. */
  text: string;
  /** The folder (skill) or file stem (command) name; default a random `probe-<hex>`. */
  name?: string;
}

export interface ProbeOptions {
  claudeBin: string;
  /** The user's environment: only PATH, TMPDIR, LANG and the locale reach the probe's claude. */
  env: NodeJS.ProcessEnv;
  /** Model id for the request (the listing line is the same in both listing formats). */
  model?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Where the temp folder goes; default the OS temp dir. */
  root?: string;
}

/** What the probe read. */
export type ProbeResult =
  | {
      kind: 'listed';
      /** The entry's name as listed (the frontmatter `name`, else the folder or file name). */
      name: string;
      /** The text after `- name: `, exactly; '' when Claude Code lists the entry with no description. */
      description: string;
      /** The CLI version from the request's user-agent, when it said. */
      cliVersion?: string;
    }
  /** Claude Code sent a request, but this file is not in its listing (e.g. `disable-model-invocation`). */
  | { kind: 'unlisted' }
  /** No listing could be read: the binary is missing, or it never reached the simulated model. */
  | { kind: 'failed'; reason: string };

/** List one file through the real CLI. Never throws for a CLI failure; a failed probe says why. */
export async function probeListing(file: ProbeFile, options: ProbeOptions): Promise<ProbeResult> {
  const [result] = await probeListings([file], options);
  return result ?? { kind: 'failed', reason: 'no listing' };
}

/**
 * List several files in one start of the real CLI, one result per file in order. Each file gets its
 * own folder (or file stem), so two files whose frontmatter names agree are still told apart. The
 * whole listing shares one size budget, and the CLI drops an entry whose name another entry
 * already has: a file that is missing or listed bare here may be listed in full alone, so the caller
 * decides what a batch may answer (docs/listing-parity.md, "Several files in one start").
 */
export async function probeListings(
  files: readonly ProbeFile[],
  options: ProbeOptions,
): Promise<ProbeResult[]> {
  if (files.length === 0) return [];
  const base = await createTempFolder(options.root ?? os.tmpdir());
  const model = await startSimulatedModel({ isStub: () => false, chunkDelayMs: 0, recordBodies: true });
  try {
    const home = path.join(base, 'home');
    const project = path.join(base, 'project');
    await mkdir(home);
    await mkdir(project);
    await initRepository(project);
    const names: string[] = [];
    for (const file of files) {
      const name = file.name ?? `probe-${randomBytes(4).toString('hex')}`;
      if (names.includes(name)) throw new Error(`listing probe: two files named ${name}`);
      names.push(name);
      const target =
        file.layout === 'skill'
          ? path.join(project, '.claude', 'skills', name, 'SKILL.md')
          : path.join(project, '.claude', 'commands', `${name}.md`);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.text);
    }

    const env = probeEnvironment(options.env, home, model.url);
    // The probe runs in its temp project: a relative path (`./node_modules/.bin/claude`) is the user's.
    const bin = options.claudeBin.includes('/') ? path.resolve(options.claudeBin) : options.claudeBin;
    const command = await runClaudeCommand(bin, probeArgs(options.model), {
      env,
      cwd: project,
      timeoutMs: options.timeoutMs ?? 60_000,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const first = model.requests.find((r) => r.method === 'POST' && r.path === '/v1/messages' && r.body);
    if (first === undefined) {
      const why = command.spawnFailed
        ? `the Claude CLI could not be started (${command.spawnError ?? 'not found'})`
        : command.aborted
          ? 'interrupted'
          : command.timedOut
            ? 'claude sent no request in time'
            : `claude exited with code ${command.exitCode ?? command.signal ?? '?'} before sending a request`;
      return names.map(() => ({ kind: 'failed', reason: why }));
    }
    return names.map((name): ProbeResult => {
      const line = findListingLine(first.body, name);
      if (line === undefined) return { kind: 'unlisted' };
      return { kind: 'listed', name: line.name, description: line.description };
    });
  } finally {
    await model.close();
    await removeTempFolder(base);
  }
}
