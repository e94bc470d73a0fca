import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAndCheck, readListedTexts } from '../../../src/agents/claude/listed-text.js';
import { loadSkill } from '../../../src/inputs/files.js';
import type { Skill } from '../../../src/inputs/types.js';
import { CLAUDE_BIN } from '../../fakes/claude-env.js';
import { CASES } from '../listing-corpus.js';

/**
 * The listed texts and the stubs' checks in as few starts of the real CLI as is exact. The starts
 * are counted by a wrapper that logs each call and then runs the real binary.
 */
let root: string;
let counted: string;
let log: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-listed-'));
  log = path.join(root, 'starts.log');
  counted = path.join(root, 'claude');
  await writeFile(counted, `#!/bin/sh\necho start >> '${log}'\nexec '${CLAUDE_BIN}' "$@"\n`);
  await chmod(counted, 0o755);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  await writeFile(log, '');
});
const starts = async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean).length;

let made = 0;
async function skillOf(text: string): Promise<Skill> {
  const dir = path.join(root, `skill-${++made}`);
  await mkdir(dir);
  await writeFile(path.join(dir, 'SKILL.md'), text);
  return loadSkill(dir);
}
const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\nBody.\n`;
const probe = (model?: string) => ({ bin: counted, env: process.env, ...(model ? { model } : {}) });

describe('listAndCheck', () => {
  it('reads the skills and checks their stubs in one start when the emulation foresaw the listing', {
    timeout: 180_000,
  }, async () => {
    const skills = [
      await skillOf(md('alpha', 'Merge PDFs # not listed')),
      await skillOf(md('beta', "'It''s a PDF'")),
    ];
    const { listed, checked } = await listAndCheck(
      skills,
      (texts) => texts.map((t, i) => ({ text: t.text, label: `skill ${i}` })),
      'command',
      probe(),
    );
    expect(listed.map((l) => [l.source, l.text])).toEqual([
      ['probe', 'Merge PDFs'],
      ['probe', "It's a PDF"],
    ]);
    expect(checked.map((c) => c.skipped)).toEqual([undefined, undefined]);
    expect(await starts()).toBe(1);
  });

  it('checks in a second start the stubs of a text the emulation did not foresee', {
    timeout: 180_000,
  }, async () => {
    const skill = {
      ...(await skillOf(md('gamma', 'What Claude Code lists'))),
      emulatedListing: 'A wrong forecast',
    };
    const { listed, checked } = await listAndCheck(
      [skill],
      ([own]) => [
        { text: own?.text ?? '', label: 'the description' },
        { text: 'A baseline known before', label: 'the baseline description' },
      ],
      'skill',
      probe(),
    );
    expect(listed[0]).toMatchObject({ source: 'probe', text: 'What Claude Code lists' });
    expect(checked).toEqual([
      { text: 'What Claude Code lists', label: 'the description' },
      { text: 'A baseline known before', label: 'the baseline description' },
    ]);
    expect(await starts()).toBe(2);
  });

  it('a skill the CLI does not list is asked alone before it is called unlisted', {
    timeout: 180_000,
  }, async () => {
    const hidden = await skillOf(
      '---\nname: hidden\ndescription: Not for the model\ndisable-model-invocation: true\n---\n\nBody.\n',
    );
    const shown = await skillOf(md('shown', 'Listed as ever'));
    const { listed } = await listAndCheck([hidden, shown], () => [], 'command', probe());
    expect(listed.map((l) => [l.source, l.why])).toEqual([
      ['emulation', 'Claude Code did not list the skill'],
      ['probe', undefined],
    ]);
    expect(await starts()).toBe(2);
  });
});

describe('readListedTexts', () => {
  it('on a model with a small listing budget, asks alone each file the batch listed bare', {
    timeout: 240_000,
  }, async () => {
    // The corpus files skilltrigger loads (it refuses a few that the CLI reads anyway).
    const loaded: { skill: Skill; listed: string }[] = [];
    for (const c of CASES) {
      const skill = await skillOf(c.text).catch(() => undefined);
      if (skill) loaded.push({ skill, listed: c.listed });
    }
    expect(loaded.length).toBeGreaterThan(20);
    const listed = await readListedTexts(
      loaded.map((l) => l.skill),
      probe('claude-sonnet-4-5'),
    );
    expect(listed.map((l) => l.text)).toEqual(loaded.map((l) => l.listed));
    expect(listed.every((l) => l.source === 'probe')).toBe(true);
    // One start for all, and one more for each entry over the budget (at least one is).
    expect(await starts()).toBeGreaterThan(1);
    expect(await starts()).toBeLessThan(loaded.length);
  });
});
