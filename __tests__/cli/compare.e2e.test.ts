import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalItem } from '../../src/inputs/types.js';
import { hash12 } from '../../src/schemas/privacy.js';
import type { Report } from '../../src/schemas/report.js';
import { runCli } from '../fakes/cli.js';
import { modelRun, modelsReport } from '../fakes/models-report.js';
import { fixtureMeasurement, pairedReportFixture, reportFixture } from '../fakes/report-fixture.js';

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

  it('--fail-on-regression exits 2 on a regression, 0 on noise, and prints the verdict first either way', async () => {
    const set = (outcomes: readonly ('triggered' | 'not-triggered')[]) =>
      fixtureMeasurement([
        ...Array.from({ length: 10 }, (_, i) => ({
          query: `write the handoff ${i}`,
          shouldTrigger: true,
          outcomes: [...outcomes],
        })),
        { query: 'what time is it', shouldTrigger: false, outcomes: ['not-triggered', 'not-triggered'] },
      ]);
    const before = await save('before.json', reportFixture({ candidate: set(['triggered', 'triggered']) }));
    const after = await save(
      'after.json',
      reportFixture({ candidate: set(['not-triggered', 'not-triggered']) }),
    );
    const gated = await runCli(['compare', before, after, '--fail-on-regression'], { env });
    expect(gated.code).toBe(2);
    expect(gated.stdout.split('\n')[0]).toBe('Overall: regression');
    expect((await runCli(['compare', before, after], { env })).code).toBe(0);
    const same = await runCli(['compare', before, before, '--fail-on-regression'], { env });
    expect(same.code).toBe(0);
    expect(same.stdout.split('\n')[0]).toBe('Overall: noise');
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

  it('nothing compared is exit 1 whatever the cause: no model in common names both sets', async () => {
    const items: EvalItem[] = [
      { id: 'p1', query: 'write the handoff', shouldTrigger: true, extra: {} },
      { id: 'n1', query: 'rename a variable', shouldTrigger: false, extra: {} },
    ];
    const of = (models: string[]) =>
      modelsReport({
        items,
        models,
        runsPerQuery: 1,
        records: items.map(() => models.map((m) => modelRun(m, 'triggered'))),
      });
    const a = await save('haiku-sonnet.json', of(['claude-haiku-4-5', 'claude-sonnet-4-5']));
    const b = await save('opus-fable.json', of(['claude-opus-5-5', 'claude-fable-5-1']));
    for (const json of [[], ['--json']]) {
      const r = await runCli(['compare', a, b, ...json], { env });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        'haiku-sonnet.json and opus-fable.json have no model in common (haiku-sonnet.json: claude-haiku-4-5, claude-sonnet-4-5; opus-fable.json: claude-opus-5-5, claude-fable-5-1), so there is nothing to compare',
      );
    }
    // One model in common is a comparison (exit 0), with the difference in the sets as a warning.
    const c = await save('haiku-opus.json', of(['claude-haiku-4-5', 'claude-opus-5-5']));
    const shared = await runCli(['compare', a, c], { env });
    expect(shared.code, shared.stderr).toBe(0);
    expect(shared.stdout).toContain('== model claude-haiku-4-5 ==');
  });

  it('comparing a report with itself says both arguments are the same file', async () => {
    const file = await save('self.json', reportFixture());
    const r = await runCli(['compare', file, path.join(work, '.', 'self.json')], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: both arguments are the same file (self.json)');
    // A copy is two files: compared without the warning.
    const copy = await save('copy.json', reportFixture());
    const two = await runCli(['compare', file, copy], { env });
    expect(two.stderr).not.toContain('same file');
  });
});
