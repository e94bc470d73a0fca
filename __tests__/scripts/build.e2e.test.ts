import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libIsCurrent } from '../../scripts/lib-fresh.js';
import { REPO_ROOT } from '../fakes/cli.js';

/**
 * scripts/build.js on a copy of the checkout (its src/, configs, scripts and bin, node_modules
 * linked, lib/ holding the current bundle), so the checkout's own lib/, which other test files
 * run, is never touched. The build writes beside lib/ and renames: killed midway it leaves lib/
 * as it was, and a reader polling lib/ during a whole build never finds it missing.
 */
let root: string;
const version = (
  JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** `skilltrigger --version` from the copy, as a user runs it. */
const cliVersion = () =>
  spawnSync(process.execPath, [path.join(root, 'bin', 'skilltrigger.js'), '--version'], { encoding: 'utf8' });
/** The build's leftovers and staging folders in the copy's root. */
const staging = async () => (await readdir(root)).filter((n) => n.startsWith('.lib-'));

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-build-'));
  for (const f of ['src', 'bin', 'tsconfig.json', 'tsconfig.build.json', 'package.json'])
    await cp(path.join(REPO_ROOT, f), path.join(root, f), { recursive: true });
  await mkdir(path.join(root, 'scripts'));
  for (const f of ['build.js', 'bundle-cli.js', 'lib-fresh.js'])
    await cp(path.join(REPO_ROOT, 'scripts', f), path.join(root, 'scripts', f));
  await symlink(path.join(REPO_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  await mkdir(path.join(root, 'lib'));
  await cp(path.join(REPO_ROOT, 'lib', 'cli.bundle.js'), path.join(root, 'lib', 'cli.bundle.js'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('scripts/build.js', () => {
  it('killed midway, leaves the previous lib/ whole and working', async () => {
    const before = await readFile(path.join(root, 'lib', 'cli.bundle.js'));
    const build = spawn(process.execPath, ['scripts/build.js'], {
      cwd: root,
      stdio: 'ignore',
      detached: true,
    });
    const exited = new Promise((resolve) => build.on('exit', resolve));
    // Midway: the build has started writing (its staging folder exists), or has removed lib/.
    const deadline = Date.now() + 60_000;
    while ((await staging()).length === 0 && existsSync(path.join(root, 'lib')) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    process.kill(-(build.pid ?? 0), 'SIGKILL');
    await exited;
    expect(await readFile(path.join(root, 'lib', 'cli.bundle.js'))).toEqual(before);
    const run = cliVersion();
    expect(run.stdout, run.stderr).toBe(`${version}\n`);
  });

  it('completes into lib/ while the CLI keeps answering from a whole lib/, and clears a killed build', async () => {
    expect((await staging()).length).toBeGreaterThan(0); // the killed build's folder, from the test above
    const build = spawn(process.execPath, ['scripts/build.js'], { cwd: root, stdio: 'inherit' });
    let done = false;
    const code = new Promise((resolve) =>
      build.on('exit', (c) => {
        done = true;
        resolve(c);
      }),
    );
    // A demo or a test started during the build: the CLI, run again and again until the build ends.
    const answers: string[] = [];
    while (!done) {
      const run = await new Promise<string>((resolve) => {
        const cli = spawn(process.execPath, [path.join(root, 'bin', 'skilltrigger.js'), '--version']);
        let out = '';
        cli.stdout.on('data', (d) => {
          out += d;
        });
        cli.stderr.on('data', (d) => {
          out += d;
        });
        cli.on('close', () => resolve(out));
      });
      answers.push(run);
    }
    expect(await code).toBe(0);
    expect(answers.length).toBeGreaterThan(1);
    expect(answers.filter((a) => a !== `${version}\n`)).toEqual([]);
    expect(await staging()).toEqual([]);
    expect(existsSync(path.join(root, 'lib', 'cli.js'))).toBe(true);
    expect(cliVersion().stdout).toBe(`${version}\n`);
  }, 300_000);

  it('--if-stale builds nothing while lib/ is newer than every source, and sees an edit after it', async () => {
    expect(libIsCurrent(root)).toBe(true);
    const bundle = path.join(root, 'lib', 'cli.bundle.js');
    const built = (await stat(bundle)).mtimeMs;
    const run = spawnSync(process.execPath, ['scripts/build.js', '--if-stale'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    expect((await stat(bundle)).mtimeMs).toBe(built);
    const later = new Date(built + 5_000);
    await utimes(path.join(root, 'src', 'version.ts'), later, later);
    expect(libIsCurrent(root)).toBe(false);
  });
});
