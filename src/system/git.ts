import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';

/**
 * The only module that runs `git` (the Action reads the base and head of a PR through it). Every
 * call passes argv, never a shell string; paths from the repository are data, not options (`--`
 * separates them, `rev:path` arguments cannot start with `-` because a sha leads them).
 *
 * Calls run with `reject: false` and are classified here: a missing commit or file is an answer
 * (`undefined`), anything else is a `GitError` quoting git's first stderr line.
 */

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    readonly exitCode: number | undefined,
  ) {
    const first = stderr.split('\n').find((line) => line.trim() !== '') ?? `exit code ${exitCode ?? 'none'}`;
    super(`git ${args.join(' ')} failed: ${first.trim()}`);
    this.name = 'GitError';
  }
}

/** One changed path between two commits, as `git diff --name-status` reports it. */
export type GitChange =
  | { status: 'added' | 'modified' | 'removed' | 'type-changed'; path: string }
  | { status: 'renamed' | 'copied'; path: string; previousPath: string; similarity: number };

interface GitRun {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
}

async function git(cwd: string, args: string[]): Promise<GitRun> {
  const result = await execa(
    'git',
    [
      // actions/checkout may leave the workspace owned by another uid (container jobs); reading it is
      // what this step is for, so git's ownership check is waived for this directory only.
      '-c',
      `safe.directory=${cwd}`,
      '-c',
      'core.quotepath=off',
      ...args,
    ],
    {
      cwd,
      reject: false,
      stdin: 'ignore',
      stripFinalNewline: false,
      env: { GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.failed && result.exitCode === undefined) {
    throw new GitError(
      args,
      result.stderr || String(result.message ?? 'git could not be started'),
      undefined,
    );
  }
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
}

async function gitOk(cwd: string, args: string[]): Promise<string> {
  const run = await git(cwd, args);
  if (run.exitCode !== 0) throw new GitError(args, run.stderr, run.exitCode);
  return run.stdout;
}

/** The top folder of the repository holding `cwd`. */
export async function repositoryRoot(cwd: string): Promise<string> {
  return (await gitOk(cwd, ['rev-parse', '--show-toplevel'])).trim();
}

/** The full sha `rev` names, or undefined when this clone does not have it. */
export async function resolveCommit(cwd: string, rev: string): Promise<string | undefined> {
  const run = await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  return run.exitCode === 0 ? run.stdout.trim() : undefined;
}

/**
 * Fetches one commit from `origin` (a shallow checkout lacks the PR's base). Returns whether it is
 * present afterwards; a failed fetch is not an error here, the caller says what to change.
 */
export async function fetchCommit(cwd: string, sha: string): Promise<boolean> {
  await git(cwd, ['fetch', '--no-tags', '--no-recurse-submodules', '--depth=1', 'origin', sha]);
  return (await resolveCommit(cwd, sha)) !== undefined;
}

/** Splits `-z` output into its NUL-separated fields. */
function fields(stdout: string): string[] {
  const parts = stdout.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}

/** The paths that differ between two commits, renames detected (`git diff --name-status -M`). */
export async function changedPaths(cwd: string, base: string, head: string): Promise<GitChange[]> {
  const out = await gitOk(cwd, [
    'diff',
    '--name-status',
    '-z',
    '--find-renames',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    base,
    head,
    '--',
  ]);
  const parts = fields(out);
  const changes: GitChange[] = [];
  for (let i = 0; i < parts.length; ) {
    const code = parts[i++] ?? '';
    const letter = code.charAt(0);
    if (letter === 'R' || letter === 'C') {
      const previousPath = parts[i++] ?? '';
      const path = parts[i++] ?? '';
      changes.push({
        status: letter === 'R' ? 'renamed' : 'copied',
        path,
        previousPath,
        similarity: Number(code.slice(1)) || 0,
      });
      continue;
    }
    const path = parts[i++] ?? '';
    const status =
      letter === 'A' ? 'added' : letter === 'D' ? 'removed' : letter === 'T' ? 'type-changed' : 'modified';
    changes.push({ status, path });
  }
  return changes;
}

/** Every file path in a commit's tree. */
export async function listFiles(cwd: string, rev: string): Promise<string[]> {
  return fields(await gitOk(cwd, ['ls-tree', '-r', '--name-only', '-z', '--full-tree', rev]));
}

/** A file's text at a commit (`git show <rev>:<path>`), or undefined when the commit has no such file. */
export async function showFile(cwd: string, rev: string, path: string): Promise<string | undefined> {
  const spec = `${rev}:${path}`;
  const exists = await git(cwd, ['cat-file', '-e', spec]);
  if (exists.exitCode !== 0) return undefined;
  return gitOk(cwd, ['show', '--no-textconv', spec]);
}

/**
 * What `git init` writes that git itself needs to call a folder a repository (`HEAD` naming a
 * branch, `objects/`, `refs/`) plus the `config` it writes on Linux, laid out by hand: a temp
 * project gets no git process of its own on the way to its run. Claude Code's requests are
 * byte-identical to those in a `git init`ed folder (its gitStatus block included; checked, see
 * docs/speed.md), and the folder is a repository root, so the CLI reads no `.claude/` from above it
 * (__tests__/adapters/stub-project.e2e.test.ts). The branch is always `master`, whatever the user's
 * `init.defaultBranch`, so the request does not vary with the machine's git config.
 */
const EMPTY_REPOSITORY: ReadonlyArray<readonly [string, string | undefined]> = [
  ['objects', undefined],
  ['refs', undefined],
  ['refs/heads', undefined],
  ['refs/tags', undefined],
  ['HEAD', 'ref: refs/heads/master\n'],
  [
    'config',
    '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n',
  ],
];

/** An empty repository in an empty folder: a project root, so `claude` reads no `.claude/` from above it. */
export async function initRepository(dir: string): Promise<void> {
  const gitDir = path.join(dir, '.git');
  // Not recursive: a folder that vanished meanwhile (a cleanup job) is an error, not re-created.
  await mkdir(gitDir);
  for (const [name, text] of EMPTY_REPOSITORY) {
    const target = path.join(gitDir, name);
    if (text === undefined) await mkdir(target);
    else await writeFile(target, text, { flag: 'wx' });
  }
}
