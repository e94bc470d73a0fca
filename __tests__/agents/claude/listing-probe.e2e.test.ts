import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeListings } from '../../../src/agents/claude/listing-probe.js';
import { CLAUDE_BIN } from '../../fakes/claude-env.js';
import { CASES } from '../listing-corpus.js';

/**
 * Several files in one start of the real CLI (docs/listing-parity.md, "Several files in one start"):
 * each entry is listed as it is alone (the corpus' pinned readings), and two files whose frontmatter
 * names agree are told apart by their folders.
 */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-probe-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const options = () => ({ claudeBin: CLAUDE_BIN, env: process.env, root });

describe('probeListings', () => {
  it('lists every corpus file, all in one start, as each is listed alone', { timeout: 180_000 }, async () => {
    const results = await probeListings(
      CASES.map((c) => ({ layout: 'skill' as const, text: c.text })),
      options(),
    );
    expect(results.map((r) => (r.kind === 'listed' ? r.description : r.kind))).toEqual(
      CASES.map((c) => c.listed),
    );
  });

  it('keeps two files of one frontmatter name apart, a skill and a command alike', {
    timeout: 180_000,
  }, async () => {
    const md = (d: string) => `---\nname: pdf\ndescription: ${d}\n---\n\nBody.\n`;
    const results = await probeListings(
      [
        { layout: 'skill', text: md('first one') },
        { layout: 'skill', text: md('second one') },
        { layout: 'command', text: md('third one') },
      ],
      options(),
    );
    expect(results.map((r) => (r.kind === 'listed' ? r.description : r.kind))).toEqual([
      'first one',
      'second one',
      'third one',
    ]);
  });

  it('a start that cannot run fails every file, saying why', async () => {
    const results = await probeListings(
      [
        { layout: 'skill', text: CASES[0]?.text ?? '' },
        { layout: 'skill', text: CASES[1]?.text ?? '' },
      ],
      { ...options(), claudeBin: path.join(root, 'no-such-claude') },
    );
    expect(results).toHaveLength(2);
    for (const r of results)
      expect(r).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/could not be started/) });
  });
});
