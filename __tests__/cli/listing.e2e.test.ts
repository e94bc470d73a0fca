import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_ONLY } from '../../src/report/listing-text.js';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * `run` on a HOME whose catalogue takes the listing's budget, through the real `claude` against the
 * simulated model: the probe of the runs' environment finds the stub listed name-only, `run` says so
 * before the runs and at the top of its results and of the Markdown, and the report records `bare`
 * for every run, with the budget and the entries counted. With the crowd gone the stub is whole.
 */
let world: CliWorld;
let skill: string;
let evalFile: string;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'listing-e2e',
    model: { script: (view) => (view.query.startsWith('hit') ? { kind: 'skill' } : { kind: 'text' }) },
  });
  skill = path.dirname(
    await world.write(
      'skills/handoff/SKILL.md',
      '---\nname: handoff\ndescription: Write HANDOFF.md for the next session\n---\n\nBody.\n',
    ),
  );
  evalFile = await world.write(
    'evals.json',
    JSON.stringify([
      { query: 'hit: write the handoff note now', should_trigger: true },
      { query: 'what does this regex match', should_trigger: false },
    ]),
  );
});

afterAll(async () => {
  await world?.close();
});

const crowd = path.join('.claude', 'skills');

async function crowdHome(count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const dir = path.join(world.claude.home, crowd, `z-fill-${i}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), `---\ndescription: ${'x'.repeat(920)}\n---\nbody\n`);
  }
}

async function run(out: string) {
  const r = await runCli(
    [
      'run',
      ...['--skill', skill, '--eval', evalFile, '--runs', '2', '--claude', CLAUDE_BIN],
      ...['--model', 'claude-sonnet-4-5', '--out', out],
    ],
    { env: world.claude.env },
  );
  const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
  const [md] = (await readdir(out)).filter((f) => f.endsWith('.md'));
  const report: Report = reportSchema.parse(JSON.parse(await readFile(path.join(out, json ?? ''), 'utf8')));
  return { ...r, report, markdown: await readFile(path.join(out, md ?? ''), 'utf8') };
}

describe('run in a crowded HOME', () => {
  it('says the stub is listed name-only before and after the runs, and records bare for every run', async () => {
    await crowdHome(2);
    const r = await run(path.join(world.work, 'out-crowded'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`listing: ${NAME_ONLY} \\(budget 8,000 characters`));
    const first = r.stdout.split('\n').find((l) => !l.startsWith('SIMULATED'));
    expect(first).toMatch(new RegExp(`^${NAME_ONLY} \\(budget 8,000 characters`));
    expect(r.markdown.split('\n')[2]).toContain(NAME_ONLY);
    const listing = r.report.candidate.listing?.claude;
    expect(listing?.stub).toEqual({ state: 'bare', chars: 0 });
    expect(listing?.budget).toBe(8000);
    expect(listing?.entries).toEqual({ whole: 13, cut: 0, bare: 3, omitted: 0 });
    expect(listing?.runs).toEqual({ whole: 0, cut: 0, bare: 4, fromRequest: 0 });
    expect(r.report.candidate.queries.map((q) => q.listing)).toEqual([
      ['bare', 'bare'],
      ['bare', 'bare'],
    ]);
    expect(JSON.stringify(r.report)).not.toContain('z-fill');
  }, 300_000);

  it('with the crowd gone, lists the stub whole and warns of nothing', async () => {
    await rm(path.join(world.claude.home, crowd), { recursive: true, force: true });
    const r = await run(path.join(world.work, 'out-clean'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('listing: listed whole (budget 8,000 characters');
    expect(r.stdout).not.toContain(NAME_ONLY);
    expect(r.report.candidate.listing?.claude?.stub.state).toBe('whole');
    expect(r.report.candidate.listing?.claude?.runs.whole).toBe(4);
  }, 300_000);
});
