/**
 * The Gemini gates through the REAL `gemini` (pinned) against the simulated model: the version,
 * the key (a Google sign-in alone refused with the fix), the round trip, the conflict scan of the
 * built-in skills and the user's folders and extensions, and the roster.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiGates } from '../../../src/agents/gemini/gates.js';
import { type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';

const GEMINI_BIN = resolve('node_modules/.bin/gemini');
let model: SimulatedModel;
let root = '';
let home = '';

async function skill(folder: string, name: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'SKILL.md'),
    `---\nname: ${name}\ndescription: The user's own ${name}.\n---\n`,
  );
}

beforeAll(async () => {
  model = await startSimulatedModel({ chunkDelayMs: 0 });
  root = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-gemini-gates-')));
  home = join(root, 'home');
  await skill(join(home, '.gemini', 'skills', 'pdf'), 'pdf');
  await skill(join(home, '.gemini', 'extensions', 'office', 'skills', 'xlsx'), 'xlsx');
  await writeFile(join(home, '.gemini', 'oauth_creds.json'), '{}');
});

afterAll(async () => {
  await model?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

const env = (extra: Record<string, string>) => ({ PATH: process.env.PATH, HOME: home, ...extra });
const summary = (gates: Array<{ gate: string; status: string }>) => gates.map((g) => `${g.gate}:${g.status}`);

describe('the Gemini gates', () => {
  it('pass with a key, and warn about a same-named skill in the user’s own folders and extensions', async () => {
    const base = { GEMINI_API_KEY: 'gemini-test-key', GOOGLE_GEMINI_BASE_URL: model.url };
    const result = await geminiGates({
      geminiBin: GEMINI_BIN,
      env: env(base),
      model: 'gemini-sim',
      skillName: 'pdf',
      skillNames: ['xlsx'],
      allowConflict: false,
      root,
    });
    expect(summary(result.gates)).toEqual([
      'cli:ok',
      'auth:ok',
      'round-trip:ok',
      'conflict:warn',
      'roster:ok',
    ]);
    expect(result.version).toBe('0.61.0');
    expect(result.gates.every((g) => g.agent === 'gemini')).toBe(true);
    expect(result.gates[3]?.reason).toContain('~/.gemini/skills/pdf');
    expect(result.roster).toEqual({ builtIn: ['skill-creator', 'antigravity-support'], other: [] });
    // The user's home was only read.
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(join(home, '.gemini'))).sort()).toEqual([
      'extensions',
      'oauth_creds.json',
      'skills',
    ]);
  }, 180_000);

  it('fail a skill named as a built-in one, and refuse a Google sign-in without a key', async () => {
    const result = await geminiGates({
      geminiBin: GEMINI_BIN,
      env: env({}),
      skillName: 'skill-creator',
      allowConflict: false,
      root,
    });
    expect(summary(result.gates)).toEqual([
      'cli:ok',
      'auth:fail',
      'round-trip:skip',
      'conflict:fail',
      'roster:ok',
    ]);
    expect(result.gates[1]?.reason).toContain('Google sign-in');
    expect(result.gates[1]?.fix).toContain('GEMINI_API_KEY');
  }, 180_000);

  it('fail the version gate for a missing executable', async () => {
    const result = await geminiGates({
      geminiBin: join(root, 'no-gemini'),
      env: env({}),
      allowConflict: false,
      root,
    });
    expect(summary(result.gates)).toEqual([
      'cli:fail',
      'auth:skip',
      'round-trip:skip',
      'conflict:skip',
      'roster:skip',
    ]);
  });
});
