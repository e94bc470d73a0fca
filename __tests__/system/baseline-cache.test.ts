import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, onTestFailed, test, vi } from 'vitest';
import {
  baselineCacheDir,
  baselineKey,
  baselineKeyPrefix,
  CACHE_FOLDER,
  cachePathOf,
  cliInstallKey,
  cliInstallPrefix,
  defaultCacheDir,
  restoreBaseline,
  restoreCliInstall,
  restoreKeys,
  saveBaseline,
  saveCliInstall,
} from '../../src/system/baseline-cache.js';
import { type CacheServiceFake, startCacheService } from '../fakes/cache-service.js';

// The real @actions/cache 6 against the loopback fake of the v2 service; system tar + zstd.

const SHA_A = 'a'.repeat(40);
const SHA_B = 'b'.repeat(40);
const SHA_C = 'c'.repeat(40);

let fake: CacheServiceFake;
let work: string;
let dir: string;
let savedEnv: NodeJS.ProcessEnv;
/** What @actions/core printed (it writes workflow commands straight to stdout). */
let log: string[];

function restoreEnv(snapshot: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) {
    if (!(name in snapshot)) delete process.env[name];
  }
  Object.assign(process.env, snapshot);
}

async function writeReport(name: string, content: string): Promise<string> {
  const path = join(work, 'reports', name);
  await mkdir(join(work, 'reports'), { recursive: true });
  await writeFile(path, content);
  return path;
}

beforeAll(async () => {
  savedEnv = { ...process.env };
  fake = await startCacheService();
  work = await mkdtemp(join(tmpdir(), 'skilltrigger-cache-test-'));
  await mkdir(join(work, 'workspace'));
  // A loopback GITHUB_SERVER_URL would look like GHES and switch the client to the v1 protocol.
  delete process.env.GITHUB_SERVER_URL;
  delete process.env.ACTIONS_CACHE_URL;
  delete process.env.ACTIONS_CACHE_MODE;
  Object.assign(process.env, fake.env(), {
    RUNNER_TEMP: join(work, 'runner-temp'),
    GITHUB_WORKSPACE: join(work, 'workspace'),
  });
});

afterAll(async () => {
  restoreEnv(savedEnv);
  await fake.close();
  await rm(work, { recursive: true, force: true });
});

beforeEach(async () => {
  dir = await mkdtemp(join(work, 'cache-dir-'));
  log = [];
  const write = process.stdout.write.bind(process.stdout);
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    log.push(String(chunk));
    return true;
  });
  onTestFailed(() => {
    write(`--- @actions/cache log ---\n${log.join('')}`);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('baseline', () => {
  test('save then restore by the exact base sha', async () => {
    const reportPath = await writeReport('exact.json', '{"report":"exact"}');
    const saved = await saveBaseline({ skill: 'pdf-tools', sha: SHA_A, os: 'Linux', reportPath, dir });
    expect(saved).toEqual({
      saved: true,
      key: `skilltrigger-baseline-linux-pdf-tools-${SHA_A}`,
      entryId: expect.any(Number),
    });
    expect(fake.entries.map((e) => e.key)).toContain(saved.key);

    const restored = await restoreBaseline({ skill: 'pdf-tools', baseSha: SHA_A, os: 'linux', dir });
    expect(restored).toMatchObject({ hit: 'exact', matchedKey: saved.key });
    if (restored.hit === 'miss') throw new Error(restored.reason);
    expect(restored.reportPath).toBe(join(baselineCacheDir(dir, 'pdf-tools'), 'report.json'));
    expect(await readFile(restored.reportPath, 'utf8')).toBe('{"report":"exact"}');
  });

  test('an unknown base sha restores the newest baseline under the prefix', async () => {
    await saveBaseline({
      skill: 'newest',
      sha: SHA_A,
      os: 'linux',
      dir,
      reportPath: await writeReport('a.json', 'A'),
    });
    await saveBaseline({
      skill: 'newest',
      sha: SHA_B,
      os: 'linux',
      dir,
      reportPath: await writeReport('b.json', 'B'),
    });

    const restored = await restoreBaseline({ skill: 'newest', baseSha: SHA_C, os: 'linux', dir });
    expect(restored).toMatchObject({ hit: 'prefix', matchedKey: baselineKey('linux', 'newest', SHA_B) });
    if (restored.hit === 'miss') throw new Error(restored.reason);
    expect(await readFile(restored.reportPath, 'utf8')).toBe('B');
    expect(log.join('')).toContain(`Cache hit for restore-key: ${baselineKey('linux', 'newest', SHA_B)}`);
  });

  test('a refresh of a commit (a drift run’s) is preferred to its push’s entry, and `latest` takes the newest', async () => {
    const save = async (sha: string, content: string, tag?: string) =>
      saveBaseline({
        skill: 'refreshed',
        sha,
        os: 'linux',
        dir,
        reportPath: await writeReport(`${content}.json`, content),
        ...(tag === undefined ? {} : { tag }),
      });
    expect(await save(SHA_A, 'push-a')).toMatchObject({ saved: true });
    expect(await save(SHA_A, 'drift-a', 'drift-9-1')).toMatchObject({
      saved: true,
      key: `${baselineKey('linux', 'refreshed', SHA_A)}-drift-9-1`,
    });
    expect(await save(SHA_B, 'push-b')).toMatchObject({ saved: true });

    const byBase = await restoreBaseline({ skill: 'refreshed', baseSha: SHA_A, os: 'linux', dir });
    expect(byBase).toMatchObject({
      hit: 'exact',
      matchedKey: `${baselineKey('linux', 'refreshed', SHA_A)}-drift-9-1`,
    });
    if (byBase.hit === 'miss') throw new Error(byBase.reason);
    expect(await readFile(byBase.reportPath, 'utf8')).toBe('drift-a');

    const latest = await restoreBaseline({ skill: 'refreshed', baseSha: 'latest', os: 'linux', dir });
    expect(latest).toMatchObject({ hit: 'prefix', matchedKey: baselineKey('linux', 'refreshed', SHA_B) });
    expect(restoreKeys('linux', 'refreshed', 'latest')).toEqual([baselineKeyPrefix('linux', 'refreshed')]);
  });

  test('the prefix of one skill never restores another skill whose name extends it', async () => {
    const reportPath = await writeReport('foo-bar.json', 'foo-bar');
    expect((await saveBaseline({ skill: 'foo-bar', sha: SHA_A, os: 'linux', dir, reportPath })).saved).toBe(
      true,
    );
    // `…-foo-` is a prefix of `…-foo-bar-<sha>`, but the path (and so the version) differs.
    expect(baselineKey('linux', 'foo-bar', SHA_A).startsWith(baselineKeyPrefix('linux', 'foo'))).toBe(true);
    const restored = await restoreBaseline({ skill: 'foo', baseSha: SHA_B, os: 'linux', dir });
    expect(restored.hit).toBe('miss');
  });

  test('an entry that already exists is not saved again, and nothing is uploaded', async () => {
    const reportPath = await writeReport('dup.json', 'first');
    expect((await saveBaseline({ skill: 'dup', sha: SHA_A, os: 'linux', dir, reportPath })).saved).toBe(true);
    const before = fake.requests.length;

    const again = await saveBaseline({ skill: 'dup', sha: SHA_A, os: 'linux', dir, reportPath });
    expect(again).toMatchObject({ saved: false, code: 'exists', key: baselineKey('linux', 'dup', SHA_A) });
    expect(fake.requests.slice(before).map((r) => r.route)).toEqual(['GetCacheEntryDownloadURL']);
  });

  test('409 (the key is being saved by another job) is "not saved", not a throw', async () => {
    await saveBaseline({
      skill: 'race',
      sha: SHA_A,
      os: 'linux',
      dir,
      reportPath: await writeReport('r.json', 'r'),
    });
    const version = fake.entries.find((e) => e.key === baselineKey('linux', 'race', SHA_A))?.version;
    expect(version).toBeDefined();
    fake.reserve(baselineKey('linux', 'race', SHA_B), version ?? '');

    const result = await saveBaseline({
      skill: 'race',
      sha: SHA_B,
      os: 'linux',
      dir,
      reportPath: await writeReport('r2.json', 'r2'),
    });
    expect(result).toMatchObject({ saved: false, code: 'rejected' });
    expect(fake.requests.at(-1)).toMatchObject({ route: 'CreateCacheEntry', status: 409 });
    expect(log.join('')).toContain('another job may be creating this cache');
  });

  test('a read-only token is "not saved"', async () => {
    fake.setReadOnly(true);
    try {
      const result = await saveBaseline({
        skill: 'readonly',
        sha: SHA_A,
        os: 'linux',
        dir,
        reportPath: await writeReport('ro.json', 'ro'),
      });
      expect(result).toMatchObject({ saved: false, code: 'rejected' });
      expect(fake.entries.some((e) => e.key.includes('readonly'))).toBe(false);
      expect(log.join('')).toContain('cache write denied');
    } finally {
      fake.setReadOnly(false);
    }
  });

  test('nothing cached is a miss with a reason', async () => {
    const restored = await restoreBaseline({ skill: 'never-saved', baseSha: SHA_A, os: 'linux', dir });
    expect(restored).toMatchObject({ hit: 'miss', key: baselineKey('linux', 'never-saved', SHA_A) });
    if (restored.hit !== 'miss') throw new Error('expected a miss');
    expect(restored.reason).toContain(baselineKeyPrefix('linux', 'never-saved'));
  });

  test('a storage 500 on download is a miss with a reason, not a throw', async () => {
    const reportPath = await writeReport('dl.json', 'dl');
    await saveBaseline({ skill: 'download-fails', sha: SHA_A, os: 'linux', dir, reportPath });
    // The download GET is retried only on 502/503/504, so a 500 fails at once.
    fake.failNext('download', { status: 500 });
    const restored = await restoreBaseline({ skill: 'download-fails', baseSha: SHA_A, os: 'linux', dir });
    expect(restored.hit).toBe('miss');
    expect(log.join('')).toContain('::warning::Failed to restore');
  });

  test('a non-retryable twirp error is a miss', async () => {
    fake.failNext('GetCacheEntryDownloadURL', { status: 400 });
    const restored = await restoreBaseline({ skill: 'twirp-400', baseSha: SHA_A, os: 'linux', dir });
    expect(restored.hit).toBe('miss');
    expect(log.join('')).toContain('Received non-retryable error: Failed request: (400)');
  });

  test('a denied read is a miss', async () => {
    fake.setReadDenied(true);
    try {
      const restored = await restoreBaseline({ skill: 'read-denied', baseSha: SHA_A, os: 'linux', dir });
      expect(restored.hit).toBe('miss');
      expect(log.join('')).toContain('cache read denied');
    } finally {
      fake.setReadDenied(false);
    }
  });

  // Costs one client back-off (3 s): the only test that waits.
  test('a twirp 500 is retried by the client and then succeeds', async () => {
    const reportPath = await writeReport('retry.json', 'retry');
    await saveBaseline({ skill: 'retried', sha: SHA_A, os: 'linux', dir, reportPath });
    fake.failNext('GetCacheEntryDownloadURL', { status: 500 });
    const restored = await restoreBaseline({ skill: 'retried', baseSha: SHA_A, os: 'linux', dir });
    expect(restored.hit).toBe('exact');
    expect(log.join('')).toContain('Attempt 1 of 5 failed');
  });

  test('without the cache service variables nothing is attempted', async () => {
    const url = process.env.ACTIONS_RESULTS_URL;
    delete process.env.ACTIONS_RESULTS_URL;
    const before = fake.requests.length;
    try {
      const reportPath = await writeReport('none.json', 'none');
      expect(await saveBaseline({ skill: 'x', sha: SHA_A, os: 'linux', dir, reportPath })).toMatchObject({
        saved: false,
        code: 'unavailable',
      });
      expect(await restoreBaseline({ skill: 'x', baseSha: SHA_A, os: 'linux', dir })).toMatchObject({
        hit: 'miss',
      });
      expect(fake.requests.length).toBe(before);
    } finally {
      process.env.ACTIONS_RESULTS_URL = url;
    }
  });

  test('bad input is "not saved" with a reason', async () => {
    const reportPath = await writeReport('bad.json', 'bad');
    expect(await saveBaseline({ skill: 's', sha: 'main', os: 'linux', dir, reportPath })).toMatchObject({
      saved: false,
      code: 'invalid',
    });
    expect(
      await saveBaseline({
        skill: 's',
        sha: SHA_A,
        os: 'linux',
        dir,
        reportPath: join(work, 'missing.json'),
      }),
    ).toMatchObject({ saved: false, code: 'invalid' });
  });

  test('awkward skill names make valid, distinct keys that round-trip', async () => {
    const skill = `weird, name/with spaces ${'x'.repeat(600)}`;
    const key = baselineKey('linux', skill, SHA_A);
    expect(key.length).toBeLessThanOrEqual(512);
    expect(key).not.toContain(',');
    expect(baselineKey('linux', 'a b', SHA_A)).not.toBe(baselineKey('linux', 'a_b', SHA_A));
    expect(baselineKeyPrefix('linux', '..')).not.toContain('-..-');

    const reportPath = await writeReport('weird.json', 'weird');
    expect(await saveBaseline({ skill, sha: SHA_A, os: 'linux', dir, reportPath })).toMatchObject({
      saved: true,
    });
    expect(await restoreBaseline({ skill, baseSha: SHA_A, os: 'linux', dir })).toMatchObject({
      hit: 'exact',
    });
  });
});

describe('CLI install', () => {
  test('save then restore the install prefix by version, OS and arch', async () => {
    const prefix = join(dir, 'claude-prefix');
    await mkdir(join(prefix, 'bin'), { recursive: true });
    await writeFile(join(prefix, 'bin', 'claude'), '#!/bin/sh\necho 2.1.328\n');

    const saved = await saveCliInstall({ version: '2.1.328', os: 'Linux', arch: 'X64', prefix });
    expect(saved).toMatchObject({ saved: true, key: 'skilltrigger-claude-2.1.328-linux-x64' });
    expect(await saveCliInstall({ version: '2.1.328', os: 'linux', arch: 'x64', prefix })).toMatchObject({
      saved: false,
      code: 'exists',
    });

    await rm(prefix, { recursive: true });
    const restored = await restoreCliInstall({ version: '2.1.328', os: 'linux', arch: 'x64', prefix });
    expect(restored).toMatchObject({ hit: 'exact', matchedKey: cliInstallKey('2.1.328', 'linux', 'x64') });
    expect(await readFile(join(prefix, 'bin', 'claude'), 'utf8')).toContain('2.1.328');

    // Another version is a miss, never a prefix match.
    expect(await restoreCliInstall({ version: '2.1.3', os: 'linux', arch: 'x64', prefix })).toMatchObject({
      hit: 'miss',
    });
  });

  test('an empty prefix is not saved', async () => {
    expect(
      await saveCliInstall({ version: '1.0.0', os: 'linux', arch: 'x64', prefix: join(dir, 'nope') }),
    ).toMatchObject({ saved: false, code: 'invalid' });
  });
});

describe('cache paths that survive the runner', () => {
  test('inside the workspace, with the step running there: relative, so every runner computes one cache version', async () => {
    const workspace = join(work, 'workspace');
    const cwd = process.cwd();
    process.chdir(workspace);
    try {
      expect(defaultCacheDir()).toBe(join(workspace, CACHE_FOLDER));
      expect(cachePathOf(baselineCacheDir(defaultCacheDir(), 'pdf-tools'))).toBe(
        '.skilltrigger-cache/baseline/pdf-tools',
      );
      expect(cachePathOf(cliInstallPrefix('2.1.328'))).toBe('.skilltrigger-cache/claude-code/2.1.328');
      // Outside the workspace there is no relative form @actions/glob accepts (it refuses `..`).
      expect(cachePathOf(join(work, 'elsewhere'))).toBe(join(work, 'elsewhere'));
    } finally {
      process.chdir(cwd);
    }
    // A step run elsewhere: the relative form would name another folder, so the path stays absolute.
    expect(cachePathOf(join(workspace, CACHE_FOLDER, 'x'))).toBe(join(workspace, CACHE_FOLDER, 'x'));
  });

  test('the workspace cache folder ignores itself in git', async () => {
    const reportPath = await writeReport('ignored.json', '{}');
    const saved = await saveBaseline({ skill: 'ignored', sha: SHA_A, os: 'linux', reportPath });
    expect(saved.saved).toBe(true);
    expect(await readFile(join(defaultCacheDir(), '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });
});
