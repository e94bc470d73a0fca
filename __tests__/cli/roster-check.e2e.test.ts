import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROSTER_PRIVATE_NOTICE } from '../../src/schemas/roster-file.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { runCli } from '../fakes/cli.js';

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

const check = (roster: string) =>
  runCli(
    ['check', '--skill', skill, '--roster', roster, '--model', 'claude-sonnet-4-5', '--claude', CLAUDE_BIN],
    { env: { PATH: process.env.PATH ?? '', HOME: dir } },
  );

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
      /warn {2}\S+SKILL\.md: would be listed name-only under the roster: its 110 characters do not fit, 1% of the 8,000-character budget; it needs \d+ more characters of room to be listed whole \(the crowd leaves \d+\)/,
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
      /ok {4}\S+SKILL\.md: listed whole under the roster \(110 characters, 1% of the 8,000-character budget\)/,
    );
  }, 120_000);

  it('a bad roster is refused with exit 1, naming the entry', async () => {
    const file = path.join(dir, 'bad.json');
    await writeFile(file, '{"schema":"skilltrigger/roster"}');
    const r = await check(file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.json \(schemaVersion\): not a skilltrigger roster/);
  }, 60_000);
});
