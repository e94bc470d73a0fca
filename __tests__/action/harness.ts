import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Running the bundled Action as the runner runs it: `node dist/index.js` in the workspace, with
 * `INPUT_*` variables (hyphens kept, as the runner does), the event payload in a file, and the
 * output, summary and state files the runner provides. Plus the pieces a scenario needs: a real
 * git repository with commits, and real-shaped `push` / `pull_request` payloads.
 */

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const ACTION_ENTRY = path.join(REPO_ROOT, 'dist', 'index.js');

export interface ActionResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** `::error …::` / `::warning …::` / `::notice …::` lines. */
  annotations: { level: string; properties: Record<string, string>; message: string }[];
  /** The first line of the failure (setFailed's `::error::`, without properties). */
  failure?: string;
  durationMs: number;
}

export interface ActionRunOptions {
  /** The node to run dist/index.js with (default: this process's). */
  node?: string;
  /** Node's own options, before dist/index.js (a `--require` probe, a V8 trace flag). */
  nodeArgs?: string[];
  cwd: string;
  inputs: Record<string, string>;
  env: Record<string, string>;
  eventName: string;
  payload: unknown;
  /** Sends `signal` to the step once its stdout matches `when` (a job cancelled mid-run). */
  interrupt?: { signal: NodeJS.Signals; when: RegExp };
  /** Told the step's process once it is spawned (a test that signals it from elsewhere). */
  onStart?: (child: ChildProcess) => void;
}

/** Parses the `GITHUB_OUTPUT` file written by @actions/core (`name<<delimiter … delimiter`). */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const pattern = /^([^\n<]+)<<(ghadelimiter_[0-9a-f-]+)\n([\s\S]*?)\n?\2$/gm;
  for (const match of text.matchAll(pattern)) {
    const [, name, , value] = match;
    if (name !== undefined) outputs[name] = value ?? '';
  }
  return outputs;
}

/** Undoes the workflow-command escaping of messages and properties. */
function decodeCommandText(text: string): string {
  return text
    .replaceAll('%0D', '\r')
    .replaceAll('%0A', '\n')
    .replaceAll('%3A', ':')
    .replaceAll('%2C', ',')
    .replaceAll('%25', '%');
}

export function parseAnnotations(stdout: string): ActionResult['annotations'] {
  const out: ActionResult['annotations'] = [];
  for (const line of stdout.split('\n')) {
    const m = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!m) continue;
    const properties: Record<string, string> = {};
    for (const pair of (m[2] ?? '').split(',').filter(Boolean)) {
      const eq = pair.indexOf('=');
      properties[pair.slice(0, eq)] = decodeCommandText(pair.slice(eq + 1));
    }
    out.push({ level: m[1] ?? '', properties, message: decodeCommandText(m[3] ?? '') });
  }
  return out;
}

let runCounter = 0;

/**
 * What the runner gives a step, made for one run: the event, output and summary files, and the
 * environment (the inputs as `INPUT_*`). `finish` reads what the step wrote and removes the files.
 * Shared by `runAction` and the in-process entry (in-process.ts).
 */
export async function prepareActionRun(
  opts: Omit<ActionRunOptions, 'node' | 'nodeArgs' | 'interrupt'>,
): Promise<{
  env: Record<string, string>;
  finish(run: {
    code: number | null;
    stdout: string;
    stderr: string;
    durationMs: number;
  }): Promise<ActionResult>;
}> {
  runCounter += 1;
  const files = await mkdtemp(path.join(tmpdir(), `skilltrigger-action-run-${runCounter}-`));
  const eventPath = path.join(files, 'event.json');
  const outputPath = path.join(files, 'output');
  const summaryPath = path.join(files, 'summary.md');
  await writeFile(eventPath, JSON.stringify(opts.payload, null, 2));
  await writeFile(outputPath, '');
  await writeFile(summaryPath, '');
  const env: Record<string, string> = {
    ...opts.env,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: opts.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_WORKSPACE: opts.cwd,
  };
  for (const [name, value] of Object.entries(opts.inputs)) {
    // The runner upper-cases the name and keeps hyphens (`INPUT_ANTHROPIC-API-KEY`).
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  return {
    env,
    async finish({ code, stdout, stderr, durationMs }) {
      const outputs = parseOutputFile(await readFile(outputPath, 'utf8'));
      const summary = await readFile(summaryPath, 'utf8');
      await rm(files, { recursive: true, force: true });
      const annotations = parseAnnotations(stdout);
      // setFailed's `::error::` carries no properties; annotations (a gate's, a file's) carry a title or a file.
      const failure = annotations.find(
        (a) => a.level === 'error' && Object.keys(a.properties).length === 0,
      )?.message;
      return {
        code,
        stdout,
        stderr,
        outputs,
        summary,
        annotations,
        ...(failure === undefined ? {} : { failure: failure.split('\n')[0] ?? '' }),
        durationMs,
      };
    },
  };
}

/** Runs dist/index.js once to its end. */
export async function runAction(opts: ActionRunOptions): Promise<ActionResult> {
  const { env, finish } = await prepareActionRun(opts);
  const started = Date.now();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(opts.node ?? process.execPath, [...(opts.nodeArgs ?? []), ACTION_ENTRY], {
        cwd: opts.cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      opts.onStart?.(child);
      let out = '';
      let err = '';
      let interrupted = false;
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (opts.interrupt && !interrupted && opts.interrupt.when.test(out)) {
          interrupted = true;
          child.kill(opts.interrupt.signal);
        }
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        err += d;
      });
      child.on('error', reject);
      child.on('close', (exitCode) => resolve({ code: exitCode, stdout: out, stderr: err }));
    },
  );
  return finish({ code, stdout, stderr, durationMs: Date.now() - started });
}

/** A real git repository the scenarios commit to. */
export class GitRepo {
  constructor(readonly dir: string) {}

  static async create(dir: string): Promise<GitRepo> {
    await mkdir(dir, { recursive: true });
    const repo = new GitRepo(dir);
    repo.git('init', '-q', '-b', 'main');
    repo.git('config', 'user.name', 'Test Author');
    repo.git('config', 'user.email', 'author@example.com');
    repo.git('config', 'commit.gpgsign', 'false');
    return repo;
  }

  git(...args: string[]): string {
    return execFileSync('git', args, {
      cwd: this.dir,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    }).trim();
  }

  async write(files: Record<string, string | null>): Promise<void> {
    for (const [file, content] of Object.entries(files)) {
      const full = path.join(this.dir, file);
      if (content === null) {
        await rm(full, { force: true });
      } else {
        await mkdir(path.dirname(full), { recursive: true });
        await writeFile(full, content);
      }
    }
  }

  /** Writes (null deletes) the files and commits everything; returns the new sha. */
  async commit(message: string, files: Record<string, string | null>): Promise<string> {
    await this.write(files);
    this.git('add', '-A', '--', '.', ':!skilltrigger-results');
    this.git('commit', '-q', '-m', message);
    return this.git('rev-parse', 'HEAD');
  }

  checkout(rev: string): void {
    this.git('checkout', '-q', '--detach', rev);
  }
}

/** A SKILL.md with the given frontmatter and a body. */
export function skillFile(name: string, description: string, body = 'Do the thing.'): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${name}\n\n${body}\n`;
}

export function evalsJson(items: { query: string; should_trigger: boolean }[]): string {
  return `${JSON.stringify(items, null, 2)}\n`;
}

const OWNER = 'octo-org';
const REPO = 'skills';

function repository(fullName = `${OWNER}/${REPO}`, fork = false) {
  const [owner = OWNER, name = REPO] = fullName.split('/');
  return {
    id: fork ? 990001 : 123456789,
    node_id: 'R_kgDOExample',
    name,
    full_name: fullName,
    private: false,
    owner: { login: owner, id: fork ? 77 : 11, type: fork ? 'User' : 'Organization' },
    html_url: `https://github.com/${fullName}`,
    fork,
    url: `https://api.github.com/repos/${fullName}`,
    default_branch: 'main',
    visibility: 'public',
  };
}

/** A `pull_request` event payload shaped like GitHub's (the fields the Action reads, and their neighbours). */
export function pullRequestPayload(opts: {
  number: number;
  action?: 'opened' | 'synchronize' | 'reopened';
  baseSha: string;
  headSha: string;
  headRef: string;
  fromFork?: boolean;
}) {
  const base = repository();
  const head = opts.fromFork ? repository('someone-else/skills', true) : base;
  return {
    action: opts.action ?? 'opened',
    number: opts.number,
    pull_request: {
      url: `https://api.github.com/repos/${OWNER}/${REPO}/pulls/${opts.number}`,
      id: 1_000_000 + opts.number,
      node_id: `PR_kwDO${opts.number}`,
      html_url: `https://github.com/${OWNER}/${REPO}/pull/${opts.number}`,
      number: opts.number,
      state: 'open',
      locked: false,
      title: 'Sharpen a skill description',
      user: { login: opts.fromFork ? 'someone-else' : 'alice', id: 42, type: 'User' },
      body: 'Rewrites the description.',
      draft: false,
      merged: false,
      head: {
        label: `${head.owner.login}:${opts.headRef}`,
        ref: opts.headRef,
        sha: opts.headSha,
        user: head.owner,
        repo: head,
      },
      base: {
        label: `${OWNER}:main`,
        ref: 'main',
        sha: opts.baseSha,
        user: base.owner,
        repo: base,
      },
      author_association: opts.fromFork ? 'CONTRIBUTOR' : 'MEMBER',
    },
    repository: base,
    sender: { login: opts.fromFork ? 'someone-else' : 'alice', id: 42, type: 'User' },
  };
}

/** A `push` event payload shaped like GitHub's. */
export function pushPayload(opts: { before: string; after: string; ref?: string }) {
  const repo = repository();
  return {
    ref: opts.ref ?? 'refs/heads/main',
    before: opts.before,
    after: opts.after,
    created: false,
    deleted: false,
    forced: false,
    base_ref: null,
    compare: `https://github.com/${OWNER}/${REPO}/compare/${opts.before.slice(0, 12)}...${opts.after.slice(0, 12)}`,
    commits: [{ id: opts.after, message: 'Update skills', distinct: true }],
    head_commit: { id: opts.after, message: 'Update skills' },
    repository: { ...repo, master_branch: 'main' },
    pusher: { name: 'alice', email: 'alice@example.com' },
    sender: { login: 'alice', id: 42, type: 'User' },
  };
}

/**
 * A Node 24 binary from the npm package `node@24`, installed once into node_modules/.cache (the
 * npm cache makes later installs offline). GitHub runs the Action on node24 (`runs.using`).
 */
export function node24(): string {
  const bin = installNode24();
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  if (!version.startsWith('v24.')) throw new Error(`expected a Node 24 binary at ${bin}, it says ${version}`);
  return bin;
}

/**
 * Installs `node@24` once (the global setup calls this before any test file runs, so parallel
 * files never install into one prefix at the same time — seen to hang npm). Each install goes to a
 * folder of its own and is renamed into place; npm gets a bounded time.
 */
export function installNode24(): string {
  return installNode(24);
}

/**
 * A real Node binary of that major version from the npm package `node@<major>` (as installNode24),
 * in node_modules/.cache, or under $SKILLTRIGGER_NODE_CACHE when set (a worktree whose
 * node_modules is shared with another checkout keeps its installs to itself).
 */
export function installNode(major: number): string {
  const root = process.env.SKILLTRIGGER_NODE_CACHE || path.join(REPO_ROOT, 'node_modules', '.cache');
  const prefix = path.join(root, `skilltrigger-node${major}`);
  const bin = path.join(prefix, 'node_modules', '.bin', 'node');
  if (existsSync(bin)) return bin;
  const staging = `${prefix}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      staging,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      `node@${major}`,
    ],
    { stdio: 'ignore', timeout: 300_000 },
  );
  try {
    renameSync(staging, prefix);
  } catch {
    // Another process put its install in place first: use that one.
    rmSync(staging, { recursive: true, force: true });
  }
  return bin;
}
