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

async function crowdHome(count: number, prefix = 'z-fill', chars = 920): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const dir = path.join(world.claude.home, crowd, `${prefix}-${i}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), `---\ndescription: ${'x'.repeat(chars)}\n---\nbody\n`);
  }
}

const runArgs = (out: string, extra: string[]) => [
  'run',
  ...['--skill', skill, '--eval', evalFile, '--runs', '2', '--claude', CLAUDE_BIN],
  ...['--model', 'claude-sonnet-4-5', '--out', out, ...extra],
];

async function run(out: string, extra: string[] = []) {
  const r = await runCli(runArgs(out, extra), { env: world.claude.env });
  const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
  const [md] = (await readdir(out)).filter((f) => f.endsWith('.md'));
  const report: Report = reportSchema.parse(JSON.parse(await readFile(path.join(out, json ?? ''), 'utf8')));
  return { ...r, report, markdown: await readFile(path.join(out, md ?? ''), 'utf8') };
}

describe('run in a crowded HOME', () => {
  it('refuses (exit 2, nothing measured) a stub listed name-only where the skill itself would be whole', async () => {
    // The crowd sorts after `handoff` in ~/.claude/skills: the skill itself there gets its room
    // first, the stub (a project command) is handed what is left.
    await crowdHome(2);
    const asked = world.model.requests.length;
    const r = await runCli(runArgs(path.join(world.work, 'out-refused'), []), { env: world.claude.env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      "skilltrigger: listing: Claude Code would list the stub name-only, where the skill itself, installed in the user's skills folder, would be listed whole",
    );
    expect(r.stderr).toContain('pass --allow-bare to measure it as listed');
    const measured = world.model.requests.slice(asked).filter((q) => q.view?.query.startsWith('hit'));
    expect(measured).toEqual([]);
  }, 300_000);

  it('says the stub is listed name-only before and after the runs, and records bare for every run', async () => {
    const r = await run(path.join(world.work, 'out-crowded'), ['--allow-bare']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`listing: ${NAME_ONLY} \\(budget 8,000 characters`));
    const first = r.stdout.split('\n').find((l) => !l.startsWith('SIMULATED'));
    expect(first).toMatch(new RegExp(`^${NAME_ONLY} \\(budget 8,000 characters`));
    expect(r.markdown.split('\n')[2]).toContain(NAME_ONLY);
    const listing = r.report.candidate.listing?.claude;
    expect(listing?.stub).toEqual({ state: 'bare', chars: 0, text: 37 });
    expect(listing?.budget).toBe(8000);
    expect(listing?.entries).toEqual({ whole: 13, cut: 0, bare: 3, omitted: 0 });
    expect(listing?.runs).toEqual({ whole: 0, cut: 0, bare: 4, fromRequest: 0 });
    expect(r.report.candidate.queries.map((q) => q.listing)).toEqual([
      ['bare', 'bare'],
      ['bare', 'bare'],
    ]);
    expect(JSON.stringify(r.report)).not.toContain('z-fill');
  }, 300_000);

  it('measures without --allow-bare when the skill itself would be name-only too', async () => {
    // 80 short skills sorting before `handoff` take every bit of room: the skill itself is name-only too.
    await rm(path.join(world.claude.home, crowd), { recursive: true, force: true });
    await crowdHome(80, 'a-fill', 30);
    const r = await run(path.join(world.work, 'out-crowded-too'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.candidate.listing?.claude?.stub.state).toBe('bare');
    expect(r.stdout).toContain(NAME_ONLY);
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
