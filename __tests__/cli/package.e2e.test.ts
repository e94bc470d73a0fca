import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../fakes/cli.js';

/**
 * The package as a user gets it: `npm pack` (lib/ is built by the global setup, so scripts are
 * skipped and nothing rebuilds lib/ under the other test files), installed from the tarball into
 * an empty folder (`--prefer-offline`: dependencies come from the npm cache where it has them),
 * then `npx skilltrigger` from there.
 */
const run = promisify(execFile);
const PACKAGE = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  version: string;
};

let work: string;
let tarball: string;
let files: { path: string; size: number }[];
let size: number;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-pack-'));
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: REPO_ROOT,
    timeout: 120_000,
  });
  const [packed] = JSON.parse(stdout) as { filename: string; size: number; files: typeof files }[];
  if (!packed) throw new Error(`npm pack printed no package: ${stdout}`);
  tarball = path.join(work, packed.filename);
  files = packed.files;
  size = packed.size;
}, 180_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('ships bin, lib, schema, README and LICENSE only, with no source map, no src and no Action bundle', () => {
    const tops = [...new Set(files.map((f) => f.path.split('/')[0]))].sort();
    expect(tops).toEqual(['LICENSE', 'README.md', 'bin', 'lib', 'package.json', 'schema']);
    expect(files.filter((f) => f.path.endsWith('.map'))).toEqual([]);
    expect(files.map((f) => f.path)).toContain('schema/report.schema.json');
    // The CLI ships as its one bundle (scripts/build.js); lib/'s compiled modules stay home.
    expect(files.map((f) => f.path).filter((f) => f.startsWith('lib/'))).toEqual(['lib/cli.bundle.js']);
    console.log(`npm pack: ${files.length} files, ${(size / 1024).toFixed(0)} kB packed`);
    expect(size).toBeLessThan(1024 * 1024);
  });

  it('installs into an empty folder without @actions, @azure or @octokit, and npx skilltrigger works there', async () => {
    const dir = path.join(work, 'user');
    await mkdir(dir, { recursive: true });
    await run('npm', ['init', '-y'], { cwd: dir });
    await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      timeout: 300_000,
    });
    const installed = await readdir(path.join(dir, 'node_modules'));
    for (const scope of ['@actions', '@azure', '@octokit', '@anthropic-ai'])
      expect(installed).not.toContain(scope);
    // No file of the installed package imports an Action-only dependency.
    const lib = path.join(dir, 'node_modules', 'skilltrigger', 'lib');
    for (const file of await readdir(lib, { recursive: true })) {
      if (!file.endsWith('.js')) continue;
      expect(await readFile(path.join(lib, file), 'utf8'), file).not.toMatch(/from ['"]@actions\//);
    }
    const npx = (args: string[]) => run('npx', ['skilltrigger', ...args], { cwd: dir, timeout: 60_000 });
    expect((await npx(['--version'])).stdout).toBe(`${PACKAGE.version}\n`);
    const check = await npx([
      'check',
      '--skill',
      path.join(REPO_ROOT, 'examples', 'handoff'),
      '--eval',
      path.join(REPO_ROOT, 'examples', 'handoff', 'evals.json'),
    ]);
    expect(check.stdout).toMatch(/^ok {4}.*SKILL\.md: skill "handoff"/m);
    expect(check.stdout).toMatch(/^clean: 0 defects/m);
  }, 400_000);
});
