import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRoster } from '../../src/inputs/roster.js';
import { ROSTER_PRIVATE_NOTICE } from '../../src/schemas/roster-file.js';

/** `--roster`: a folder of skill folders or a roster file, read; a defect names the file, the entry and the fix. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skilltrigger-roster-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const roster = (entries: unknown[]) => ({
  schema: 'skilltrigger/roster',
  schemaVersion: 1,
  private: ROSTER_PRIVATE_NOTICE,
  agent: 'claude',
  agentVersion: '2.1.328',
  entries,
});

describe('a roster', () => {
  it('a folder: every folder with a SKILL.md is a user skill, in name order; others are skipped', async () => {
    const crowd = path.join(dir, 'crowd');
    for (const name of ['b-two', 'a-one', 'empty']) await mkdir(path.join(crowd, name), { recursive: true });
    await writeFile(path.join(crowd, 'a-one', 'SKILL.md'), '---\ndescription: one\n---\n');
    await writeFile(path.join(crowd, 'b-two', 'SKILL.md'), '---\ndescription: two\n---\n');
    const got = await loadRoster(crowd);
    expect(got.from).toBe('folder');
    expect(got.entries.map((e) => [e.name, e.kind, e.source])).toEqual([
      ['a-one', 'skill', 'user'],
      ['b-two', 'skill', 'user'],
    ]);
    expect(got.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a file: entries with descriptions, or with their length alone as `x`s, and their use records', async () => {
    const file = path.join(dir, 'roster.json');
    await writeFile(
      file,
      JSON.stringify(
        roster([
          {
            kind: 'skill',
            source: 'user',
            name: 'pdf',
            description: 'PDF things',
            usage: { usageCount: 2, lastUsedAt: 5 },
          },
          { kind: 'command', source: 'project', name: 'deploy', chars: 4 },
        ]),
      ),
    );
    const got = await loadRoster(file);
    expect(got.agent).toBe('claude');
    expect(got.entries).toEqual([
      {
        kind: 'skill',
        source: 'user',
        name: 'pdf',
        description: 'PDF things',
        usage: { usageCount: 2, lastUsedAt: 5 },
      },
      { kind: 'command', source: 'project', name: 'deploy', description: 'xxxx' },
    ]);
  });

  it('refuses a bad roster, naming the file, the entry and the fix', async () => {
    const file = path.join(dir, 'bad.json');
    await writeFile(
      file,
      JSON.stringify(roster([{ kind: 'skill', source: 'user', name: '../etc', chars: 3 }])),
    );
    await expect(loadRoster(file)).rejects.toThrow(
      /bad\.json \(entries\.0\): the name "\.\.\/etc" is not a plain folder or file name\. Fix: /,
    );
    await writeFile(
      file,
      JSON.stringify(roster([{ kind: 'skill', source: 'elsewhere', name: 'a', chars: 3 }])),
    );
    await expect(loadRoster(file)).rejects.toThrow(
      /bad\.json \(entries\.0\.source\): not a skilltrigger roster/,
    );
    await writeFile(file, '{');
    await expect(loadRoster(file)).rejects.toThrow(
      /bad\.json: the roster is not valid JSON\. Fix: write it with/,
    );
    await expect(loadRoster(path.join(dir, 'missing'))).rejects.toThrow(/missing: no such file or folder/);
    await mkdir(path.join(dir, 'none'));
    await expect(loadRoster(path.join(dir, 'none'))).rejects.toThrow(
      /holds no skill folder with a SKILL\.md/,
    );
  });
});
