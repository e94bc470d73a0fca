import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROSTER_PRIVATE_NOTICE } from '../../src/schemas/roster-file.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { runCli } from '../fakes/cli.js';
import { writeCodexRoster } from '../fakes/roster-file.js';

/**
 * `check --roster` through the real `claude` (the catalogue probe against the loopback model, no
 * model call): a crowd that takes the budget makes the skill name-only, with the room it needs; a
 * smaller one leaves it whole with its share of the budget; a bad roster is refused (exit 1).
 */
let dir: string;
let skill: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skilltrigger-roster-check-'));
  skill = path.join(dir, 'handoff');
  await mkdir(skill);
  await writeFile(
    path.join(skill, 'SKILL.md'),
    '---\nname: handoff\ndescription: Write HANDOFF.md for the next session: what was done, what is left, and where each piece of the work lives now\n---\n\nBody.\n',
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const CODEX_BIN = path.resolve('node_modules/.bin/codex');

const check = (roster: string, extra: string[] = ['--model', 'claude-sonnet-4-5']) =>
  runCli(
    ['check', '--skill', skill, '--roster', roster, '--claude', CLAUDE_BIN, '--codex', CODEX_BIN, ...extra],
    {
      env: { PATH: process.env.PATH ?? '', HOME: dir },
    },
  );

const codexRoster = writeCodexRoster;

describe('check --roster', () => {
  it('a folder crowd that takes the budget: name-only, with the room it would need', async () => {
    const crowd = path.join(dir, 'crowd');
    for (const name of ['a-one', 'a-two']) {
      await mkdir(path.join(crowd, name), { recursive: true });
      await writeFile(
        path.join(crowd, name, 'SKILL.md'),
        `---\ndescription: ${'x'.repeat(920)}\n---\nbody\n`,
      );
    }
    const r = await check(crowd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /warn {2}\S+SKILL\.md: Claude Code would list it name-only under the roster: its 110 characters do not fit, 1% of the 8,000-character budget; it needs \d+ more characters of room to be listed whole \(the crowd leaves \d+\)/,
    );
  }, 120_000);

  it('a roster file with a smaller crowd: listed whole, with its share of the budget', async () => {
    const file = path.join(dir, 'roster.json');
    await writeFile(
      file,
      JSON.stringify({
        schema: 'skilltrigger/roster',
        schemaVersion: 1,
        private: ROSTER_PRIVATE_NOTICE,
        agent: 'claude',
        agentVersion: '2.1.328',
        entries: [{ kind: 'skill', source: 'user', name: 'pdf', chars: 300 }],
      }),
    );
    const r = await check(file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /ok {4}\S+SKILL\.md: Claude Code lists it whole under the roster \(110 characters, 1% of the 8,000-character budget\)/,
    );
  }, 120_000);

  it("a Codex roster file is checked on Codex's listing: 600 skills leave no room, five leave it whole", async () => {
    const crowded = await check(await codexRoster(path.join(dir, 'codex-600.json'), 600, 100), []);
    expect(crowded.code, crowded.stderr).toBe(0);
    expect(crowded.stdout).toMatch(
      /warn {2}\S+SKILL\.md: Codex would list it name-only under the roster: its 110 bytes do not fit, 1% of the 21,760-byte budget\n/,
    );
    const few = await check(await codexRoster(path.join(dir, 'codex-5.json'), 5, 100), []);
    expect(few.stdout).toMatch(
      /ok {4}\S+SKILL\.md: Codex lists it whole under the roster \(110 bytes, 1% of the 21,760-byte budget\)/,
    );
    // A Codex roster checked on Claude Code's listing when asked.
    const onClaude = await check(path.join(dir, 'codex-5.json'), [
      '--agent',
      'claude',
      '--model',
      'claude-sonnet-4-5',
    ]);
    expect(onClaude.stdout).toContain('Claude Code lists it whole under the roster');
  }, 180_000);

  it('a bad roster is refused with exit 1, naming the entry', async () => {
    const file = path.join(dir, 'bad.json');
    await writeFile(file, '{"schema":"skilltrigger/roster"}');
    const r = await check(file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.json \(schemaVersion\): not a skilltrigger roster/);
  }, 60_000);
});
