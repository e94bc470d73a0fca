import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CompetitionListing } from '../../src/action/listed.js';
import { loadSkill } from '../../src/inputs/files.js';
import { composeListing } from '../../src/inputs/listing.js';
import type { Skill } from '../../src/inputs/types.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';

/**
 * The Action's listing of the competition (src/action/listed.ts) through the real `claude`: every
 * sibling read by the listing probe when it can run; when it cannot, all of them emulated, and the
 * log says which. A skill Claude Code does not list is left out of the siblings (it cannot compete).
 */

let work: string;
let log: string[];
const skills: Record<string, Skill> = {};

async function skill(name: string, frontmatter: string): Promise<Skill> {
  const dir = path.join(work, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'SKILL.md'), `---\nname: ${name}\n${frontmatter}\n---\n\nBody.\n`);
  return loadSkill(dir);
}

const probe = (bin: string) => ({ bin, env: { PATH: process.env.PATH ?? '' } });

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-listed-'));
  skills.beta = await skill(
    'beta',
    'description: Write beta changelog entries.\nwhen_to_use: For beta changelogs.',
  );
  skills.gamma = await skill('gamma', 'description: "Summarise gamma: history, releases"');
  skills.hidden = await skill(
    'hidden',
    'description: Never offered to the model.\ndisable-model-invocation: true',
  );
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

beforeEach(() => {
  log = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    log.push(String(chunk));
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const pick = (...names: string[]) => names.map((n) => skills[n] as Skill);

describe('CompetitionListing', () => {
  it('reads every sibling with the probe, as Claude Code lists it, and says so', async () => {
    const listing = new CompetitionListing('command', probe(CLAUDE_BIN));
    const got = await listing.list(pick('beta', 'gamma'), 'the siblings of alpha', { dropUnlisted: true });
    expect(got.source).toBe('probe');
    expect(got.unlisted).toEqual([]);
    expect(got.listed.map((l) => [l.skill.name, l.text])).toEqual([
      ['beta', 'Write beta changelog entries. - For beta changelogs.'],
      ['gamma', 'Summarise gamma: history, releases'],
    ]);
    expect(log.join('')).toContain(
      'listing: the siblings of alpha: all 2 read from Claude Code (the listing probe)',
    );
  }, 120_000);

  it('leaves out a sibling Claude Code does not list; the matrix keeps it, emulated, without giving up the probe', async () => {
    const listing = new CompetitionListing('command', probe(CLAUDE_BIN));
    const siblings = await listing.list(pick('beta', 'hidden'), 'the siblings of alpha', {
      dropUnlisted: true,
    });
    expect(siblings.unlisted).toEqual(['hidden']);
    expect(siblings.listed.map((l) => l.skill.name)).toEqual(['beta']);
    expect(siblings.source).toBe('probe');
    expect(log.join('')).toContain('listing: hidden is not listed by Claude Code');

    const matrix = await listing.list(pick('beta', 'hidden'), 'the routing matrix', { dropUnlisted: false });
    expect(matrix.source).toBe('probe');
    expect(matrix.listed.map((l) => [l.skill.name, l.text])).toEqual([
      ['beta', 'Write beta changelog entries. - For beta changelogs.'],
      ['hidden', 'Never offered to the model.'],
    ]);
  }, 120_000);

  it('when the probe cannot read one sibling, all of them are emulated, not only that one', async () => {
    const listing = new CompetitionListing('command', probe(CLAUDE_BIN));
    // A skill whose file text is not at hand cannot be probed (the probe lists the real file).
    const { fileText: _dropped, ...unreadable } = skills.gamma as Skill;
    const got = await listing.list([skills.beta as Skill, unreadable], 'the siblings of alpha', {
      dropUnlisted: true,
    });
    expect(got.source).toBe('emulation');
    expect(got.listed.map((l) => l.skill.name)).toEqual(['beta', 'gamma']);
    expect(log.join('')).toContain(
      'listing: the siblings of alpha: all 2 emulated, not read from Claude Code (gamma: the SKILL.md text is not at hand)',
    );
    // beta alone is read by the probe, so the fallback above is the set's, not beta's own.
    const alone = await listing.list(pick('beta'), 'the siblings of delta', { dropUnlisted: true });
    expect(alone.source).toBe('probe');
  }, 120_000);

  it('when the probe cannot run, every sibling is emulated, and the log names why', async () => {
    const listing = new CompetitionListing('command', probe(path.join(work, 'no-such-claude')));
    const got = await listing.list(pick('beta', 'gamma'), 'the siblings of alpha', { dropUnlisted: true });
    expect(got.source).toBe('emulation');
    expect(got.listed.map((l) => l.text)).toEqual(
      pick('beta', 'gamma').map((s) => s.emulatedListing ?? composeListing(s.description, s.whenToUse)),
    );
    expect(log.join('')).toMatch(
      /listing: the siblings of alpha: all 2 emulated, not read from Claude Code \(beta: the Claude CLI could not be started/,
    );
  }, 120_000);
});
