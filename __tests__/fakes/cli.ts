import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type Script,
  type SimulatedModel,
  type SimulatedModelOptions,
  startSimulatedModel,
} from '../../src/simulated/model.js';
import { CLAUDE_BIN, type ClaudeEnv, makeClaudeEnv } from './claude-env.js';

/** The CLI as a user runs it: `node bin/skilltrigger.js …` (lib/ is built by the global setup). */
export const SKILLTRIGGER_BIN = fileURLToPath(new URL('../../bin/skilltrigger.js', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The pinned executables of the agents but claude. */
export const CODEX_BIN = path.resolve(REPO_ROOT, 'node_modules/.bin/codex');
export const GEMINI_BIN = path.resolve(REPO_ROOT, 'node_modules/.bin/gemini');

/**
 * Each agent but claude pointed at the model's `url` with a test key: Codex's Responses API (its
 * executable given by `--codex`), Gemini's API (its executable by its variable).
 */
const AGENT_ENV = {
  codex: (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-test-codex' }),
  gemini: (url: string) => ({
    SKILLTRIGGER_GEMINI: GEMINI_BIN,
    GOOGLE_GEMINI_BASE_URL: url,
    GEMINI_API_KEY: 'gemini-test-key-0123456789',
  }),
} as const;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI to completion. `onStart` gets the child, e.g. to send it SIGINT mid-run. */
export function runCli(
  args: string[],
  options: {
    env: NodeJS.ProcessEnv;
    cwd?: string;
    /** The node binary to run the CLI with (default: this process's). */
    node?: string;
    /** Its own process group (`child.pid` is the group id), as a shell job is: for signals to the group. */
    detached?: boolean;
    /** A command that starts the CLI (`['unshare', '-m', …]`): it gets `node bin/skilltrigger.js …` as its arguments. */
    launcher?: string[];
    onStart?: (child: ChildProcess, stderr: () => string) => void;
  },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [command, ...prefix] = [...(options.launcher ?? []), options.node ?? process.execPath];
    const child = spawn(command ?? process.execPath, [...prefix, SKILLTRIGGER_BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.detached ? { detached: true } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    options.onStart?.(child, () => stderr);
  });
}

/**
 * An `onStart` for runCli that polls `ready` (given stderr so far) every `everyMs` while the CLI
 * runs and, the first time it holds, does `act` to the child once (a signal, a file made in its
 * way); `done()` says whether it did.
 */
export function actWhen(
  ready: (stderr: string) => boolean | Promise<boolean>,
  act: (child: ChildProcess) => void,
  everyMs = 100,
): { onStart: (child: ChildProcess, stderr: () => string) => void; done: () => boolean } {
  let done = false;
  return {
    done: () => done,
    onStart(child, stderr) {
      const timer = setInterval(async () => {
        if (done || !(await ready(stderr())) || done) return;
        done = true;
        clearInterval(timer);
        act(child);
      }, everyMs);
      child.on('close', () => clearInterval(timer));
    },
  };
}

/** `skilltrigger run` of a skill on an eval set into `out`, with the pinned claude; then `extra`. */
export function runArgs(skill: string, evals: string, out: string, ...extra: string[]): string[] {
  return ['run', '--skill', skill, '--eval', evals, '--out', out, '--claude', CLAUDE_BIN, ...extra];
}

/**
 * What every CLI end-to-end test file sets up once: a scratch folder, the simulated model the real
 * `claude` talks to, and claude's environment pointed at it (a throwaway HOME). The scenario's own
 * files (its skill, its eval sets) are written into `work` by the test file.
 */
export interface CliWorld {
  /** The scratch folder (`skilltrigger-<name>-…`), removed by `close`. */
  work: string;
  model: SimulatedModel;
  claude: ClaudeEnv;
  /** Writes `text` at `work/<relative>` (its folders made) and returns that path. */
  write(relative: string, text: string): Promise<string>;
  /** Makes the folder `work/<relative>` (and its parents) and returns its path. */
  dir(relative: string): Promise<string>;
  /**
   * A case's own TMPDIR (`work/tmp-<name>`) and claude's environment with it, so what a case leaves
   * in its temp folder is told apart from what the others leave.
   */
  tmpEnv(name: string): Promise<{ tmp: string; env: NodeJS.ProcessEnv }>;
  /** claude's environment with each of `agents` pointed at the world's model too, with a test key. */
  agentEnv(...agents: (keyof typeof AGENT_ENV)[]): NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export interface CliWorldOptions {
  /** Names the scratch folder (`skilltrigger-<name>-…`). */
  name: string;
  model: SimulatedModelOptions;
  /** claude's environment beyond makeClaudeEnv's (a canary API key). */
  env?: Record<string, string>;
}

export async function startCliWorld(opts: CliWorldOptions): Promise<CliWorld> {
  const work = await mkdtemp(path.join(tmpdir(), `skilltrigger-${opts.name}-`));
  const model = await startSimulatedModel(opts.model);
  const claude = await makeClaudeEnv(model, opts.env);
  const dir = async (relative: string) => {
    const folder = path.join(work, relative);
    await mkdir(folder, { recursive: true });
    return folder;
  };
  return {
    work,
    model,
    claude,
    async write(relative, text) {
      const file = path.join(work, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      return file;
    },
    dir,
    async tmpEnv(name) {
      const tmp = await dir(`tmp-${name}`);
      return { tmp, env: { ...claude.env, TMPDIR: tmp } };
    },
    agentEnv: (...agents) => Object.assign({ ...claude.env }, ...agents.map((a) => AGENT_ENV[a](model.url))),
    async close() {
      await model.close();
      await claude.cleanup();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/** One script per query prefix: a query is answered by the first script whose prefix it starts with. */
export function byQueryPrefix(scripts: ReadonlyMap<string, Script>): Script {
  return (req, ctx) => {
    for (const [prefix, script] of scripts) if (req.query.startsWith(prefix)) return script(req, ctx);
    return undefined;
  };
}
