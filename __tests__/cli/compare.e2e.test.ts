import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hash12 } from '../../src/report/privacy.js';
import type { Report } from '../../src/shapes/report.js';
import { runCli } from '../fakes/cli.js';
import { pairedReportFixture, reportFixture } from '../fakes/report-fixture.js';

/** `skilltrigger compare` as a user runs it, on report files (no model needed). */
let work: string;
const env = { PATH: process.env.PATH ?? '' };

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-compare-e2e-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function save(name: string, report: Report | string): Promise<string> {
  const file = path.join(work, name);
  await writeFile(file, typeof report === 'string' ? report : JSON.stringify(report));
  return file;
}

describe('skilltrigger compare', () => {
  it('warns on model, CLI version and roster members before any number', async () => {
    const a = reportFixture();
    const roster = a.roster ?? { slashCommands: 0, skills: 0, members: [] };
    const b = reportFixture({
      cli: { version: '2.1.400' },
      model: { requested: 'opus', reported: { 'claude-opus-5-5': 20 } },
      roster: {
        ...roster,
        members: [...roster.members.slice(1), hash12('new-skill-a'), hash12('new-skill-b')].sort(),
      },
    });
    const r = await runCli(['compare', await save('a.json', a), await save('b.json', b)], { env });
    expect(r.code).toBe(0);
    const out = r.stdout;
    const firstNumber = out.search(/\d+\/\d+/);
    for (const pattern of [/model/i, /CLI version/i, /roster/i]) {
      const at = out.search(pattern);
      expect(at, String(pattern)).toBeGreaterThanOrEqual(0);
      expect(at, String(pattern)).toBeLessThan(firstNumber);
    }
    expect(out).toMatch(/2 added/);
    expect(out).toMatch(/1 removed/);
  });

  it('renders a paired report alone, and --json gives the stable shape', async () => {
    const file = await save('paired.json', pairedReportFixture());
    const text = await runCli(['compare', file], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/noise|improvement|regression/);
    const json = await runCli(['compare', file, '--json'], { env });
    expect(json.code).toBe(0);
    const parsed: unknown = JSON.parse(json.stdout);
    expect(parsed).toMatchObject({ schema: 'skilltrigger/comparison', schemaVersion: 2, mode: 'paired' });
  });

  it('refuses a file that is not a skilltrigger report, naming it (exit 1)', async () => {
    const good = await save('good.json', reportFixture());
    const foreign = await save('foreign.json', JSON.stringify({ skill_name: 'x', results: [] }));
    const r = await runCli(['compare', good, foreign], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('foreign.json');
    expect(r.stderr).toMatch(/not a skilltrigger report/);
  });
});
