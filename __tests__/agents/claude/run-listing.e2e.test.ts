import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedCatalogue } from '../../../src/agents/claude/installed-catalogue.js';
import { probeRunListing } from '../../../src/agents/claude/run-listing.js';
import type { StubSpec } from '../../../src/agents/process/stub-project.js';
import { CLAUDE_BIN } from '../../fakes/claude-env.js';
import { changes, tree } from '../../faults/home-tree.js';

/**
 * The listing a measured claude run sends, read by a probe of the same environment (the user's
 * HOME, read and never written): a crowd that pushes the stub bare, a smaller one that leaves it
 * whole, and a description over the entry cap, cut. Real 2.1.328 against the loopback model.
 */
const MODEL = 'claude-sonnet-4-5';
const STUB_TEXT =
  'Hand a task off to another engineer with a written summary of the state, risks and next steps.';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-run-listing-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A HOME holding user skills of `chars` characters each, and a `skillUsage` for one of them. */
async function homeWith(name: string, count: number, chars: number): Promise<string> {
  const home = path.join(root, name);
  await mkdir(home);
  for (let i = 1; i <= count; i++) {
    const dir = path.join(home, '.claude', 'skills', `z-fill-${String(i).padStart(2, '0')}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), `---\ndescription: ${'x'.repeat(chars)}\n---\nbody\n`);
  }
  await writeFile(
    path.join(home, '.claude.json'),
    JSON.stringify({ oauthAccount: { emailAddress: 'private' }, skillUsage: {} }),
  );
  return home;
}

async function listingIn(home: string, description = STUB_TEXT) {
  const env = { ...process.env, HOME: home };
  const stub: StubSpec = { layout: 'command', skillName: 'handoff', description };
  const before = await tree(home);
  const got = await probeRunListing(stub, {
    claudeBin: CLAUDE_BIN,
    env,
    model: MODEL,
    catalogue: await installedCatalogue(env),
    root,
  });
  expect(changes(before, await tree(home))).toEqual([]);
  if (got.kind !== 'read') throw new Error(got.reason);
  return got.picture;
}

describe("the listing of a measured claude run, read from the user's catalogue", () => {
  it('lists the stub bare when two 900-character user skills take the budget, and counts every entry', async () => {
    const picture = await listingIn(await homeWith('crowded', 2, 900));
    expect(picture.stub).toEqual({ state: 'bare', chars: 0 });
    expect(picture.budget).toBe(8000);
    expect(picture.unit).toBe('characters');
    expect(picture.used).toBeLessThanOrEqual(8000);
    const fills = picture.entries.filter((e) => e.name.startsWith('z-fill-'));
    expect(fills.map((e) => e.state)).toEqual(['whole', 'whole']);
    // The 11 bundled skills keep their text; the stub and security-review go bare, init still fits.
    const states = picture.entries.map((e) => e.state);
    expect(states.filter((s) => s === 'whole')).toHaveLength(14);
    expect(states.filter((s) => s === 'bare')).toHaveLength(1);
  }, 120_000);

  it('lists the stub whole beside one user skill', async () => {
    const picture = await listingIn(await homeWith('small', 1, 300));
    expect(picture.stub).toEqual({ state: 'whole', chars: STUB_TEXT.length });
    expect(picture.entries.every((e) => e.state === 'whole')).toBe(true);
  }, 120_000);

  it('lists a description over the cap of 1,536 characters cut, with its listed length', async () => {
    // The stub holds the listed text, already cut at the cap as the CLI cuts it.
    const long = `${'y'.repeat(1535)}\u2026`;
    const picture = await listingIn(await homeWith('empty', 0, 0), long);
    expect(picture.stub).toEqual({ state: 'cut', chars: 1536 });
  }, 120_000);
});
