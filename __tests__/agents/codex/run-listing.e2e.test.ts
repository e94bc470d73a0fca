/**
 * The listing a measured Codex run sends (real codex 0.169.0 against the loopback model): each
 * run's stub state read from its own rollout, and the probe of the same environment (the user's
 * `~/.agents/skills`, read in place) for the budget and every entry. A crowd that takes every
 * description makes the stub bare, a crowd over the budget cuts it, a small one leaves it whole,
 * and a description over Codex's cap of 1,024 characters is cut.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCodexMeasurement } from '../../../src/agents/codex/run.js';
import { probeCodexRunListing } from '../../../src/agents/codex/run-listing.js';
import { type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';
import { changes, tree } from '../../faults/home-tree.js';

const CODEX_BIN = path.resolve('node_modules/.bin/codex');
const DESCRIPTION = `Extract text and tables from PDF files. ${'y'.repeat(260)}`;

let root: string;
let model: SimulatedModel;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-codex-run-listing-'));
  model = await startSimulatedModel({ chunkDelayMs: 0 });
});
afterAll(async () => {
  await model.close();
  await rm(root, { recursive: true, force: true });
});

/** A HOME whose `~/.agents/skills` holds `count` skills of `chars` characters. */
async function homeWith(name: string, count: number, chars: number): Promise<string> {
  const home = path.join(root, name);
  await mkdir(home);
  for (let i = 0; i < count; i++) {
    const folder = `u-${String(i).padStart(3, '0')}`;
    await mkdir(path.join(home, '.agents', 'skills', folder), { recursive: true });
    await writeFile(
      path.join(home, '.agents', 'skills', folder, 'SKILL.md'),
      `---\nname: ${folder}\ndescription: ${'x'.repeat(chars)}\n---\nbody\n`,
    );
  }
  return home;
}

async function listingIn(home: string, description = DESCRIPTION) {
  const before = await tree(home);
  const got = await probeCodexRunListing(
    { skillName: 'pdf', description, root },
    { bin: CODEX_BIN, env: { ...process.env, HOME: home } },
  );
  expect(changes(before, await tree(home))).toEqual([]);
  if (got.kind !== 'read') throw new Error(got.reason);
  return got.picture;
}

describe('the listing of a measured Codex run', () => {
  it('lists the stub bare when 600 user skills leave no room for any description', async () => {
    const picture = await listingIn(await homeWith('crowded', 600, 100));
    expect(picture.stub).toEqual({ state: 'bare', chars: 0 });
    expect(picture.budget).toBe(21_760);
    expect(picture.unit).toBe('bytes');
    expect(picture.used).toBeLessThanOrEqual(21_760);
    expect(picture.entries.every((e) => e.state === 'bare')).toBe(true);
  }, 180_000);

  it('cuts the stub with 80 user skills of 300 characters, and reads the same state from the run', async () => {
    const home = await homeWith('over', 80, 300);
    const picture = await listingIn(home);
    expect(picture.stub.state).toBe('cut');
    expect(picture.stub.chars).toBeLessThan(DESCRIPTION.length);
    expect(picture.entries.filter((e) => e.name.startsWith('u-')).every((e) => e.state === 'cut')).toBe(true);
    const run = await runCodexMeasurement({
      bin: CODEX_BIN,
      query: 'extract the tables from this PDF',
      stub: { skillName: 'pdf', description: DESCRIPTION, root },
      provider: { baseUrl: `${model.url}/v1`, apiKey: 'sk-test-codex' },
      timeoutMs: 60_000,
      baseEnv: { ...process.env, HOME: home },
    });
    expect(run.listing).toEqual(picture.stub);
  }, 180_000);

  it('lists the stub whole beside five user skills', async () => {
    const picture = await listingIn(await homeWith('small', 5, 300));
    expect(picture.stub).toEqual({ state: 'whole', chars: DESCRIPTION.length });
    expect(picture.entries.every((e) => e.state === 'whole')).toBe(true);
  }, 120_000);

  it('cuts a description over the cap of 1,024 characters', async () => {
    const picture = await listingIn(await homeWith('empty', 0, 0), 'z'.repeat(1100));
    expect(picture.stub).toEqual({ state: 'cut', chars: 1024 });
  }, 120_000);
});
