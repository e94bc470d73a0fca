import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { type Routes, routeScript } from '../../src/simulated/model.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { changes, tree } from '../faults/home-tree.js';

/**
 * Gemini CLI as the third agent, reached only through the registry: `run --agent claude,gemini`
 * interleaves the real `claude` and the real `gemini` against the same simulated model, with a
 * sibling installed as each agent lists it; a Gemini measurement leaves the user's HOME (with a
 * `~/.gemini` of their own) and TMPDIR as it found them (docs/home.md). Its matrix:
 * matrix-gemini.e2e.test.ts.
 * One world for the file. Model calls: 2 round-trip gates + 3 queries × 2 agents, then 1 gate + 2 runs.
 */

// A block-scalar description: Gemini lists it as YAML parses it (its last line break kept), Claude
// Code as skilltrigger reads it.
const FILES: Record<string, string> = {
  'skills/handoff/SKILL.md':
    '---\nname: handoff\ndescription: |\n  Write HANDOFF.md\n  summarising the session\n---\n\nBody.\n',
  'skills/xlsx/SKILL.md': '---\nname: xlsx\ndescription: Edit spreadsheets and workbooks\n---\n\nBody.\n',
};
const ROUTES: Routes = {
  'g: write the handoff note': { handoff: 1 },
  'g: fix the formula in my workbook': { xlsx: 1 },
};

let world: CliWorld;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'gemini-run-e2e',
    model: { script: routeScript(ROUTES, () => ({ kind: 'text' })) },
  });
  for (const [file, text] of Object.entries(FILES)) await world.write(file, text);
});

afterAll(async () => {
  await world?.close();
});

const env = () => world.agentEnv('gemini');

async function readReport(out: string): Promise<Report> {
  const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
  return reportSchema.parse(JSON.parse(await readFile(path.join(out, json ?? ''), 'utf8')));
}

describe('run --agent claude,gemini', () => {
  it('measures every query on both agents, each listing the stub and the sibling its own way', async () => {
    const evalFile = await world.write(
      'g.json',
      JSON.stringify([
        { query: 'g: write the handoff note', should_trigger: true },
        { query: 'g: fix the formula in my workbook', should_trigger: false },
        { query: 'g: what is a monad', should_trigger: false },
      ]),
    );
    const out = path.join(world.work, 'out-g');
    const from = world.model.requests.length;
    const r = await runCli(
      [
        'run',
        '--agent',
        'claude,gemini',
        '--runs',
        '1',
        '--skill',
        path.join(world.work, 'skills', 'handoff'),
        '--eval',
        evalFile,
        '--siblings',
        path.join(world.work, 'skills'),
        '--out',
        out,
      ],
      { env: env() },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^ok {4}gemini round-trip/m);
    expect(r.stderr).not.toContain('gemini-test-key-0123456789');

    const report = await readReport(out);
    expect(report.agents.map((a) => a.name)).toEqual(['claude', 'gemini']);
    expect(report.agents[1]?.version).toBe('0.61.0');
    // Each query once per agent, the agents' runs told apart, the sibling recorded as taking its query.
    const hits = (agent: string) => report.candidate.queries.map((q) => q.byAgent?.[agent]?.hits);
    for (const agent of ['claude', 'gemini']) {
      expect(hits(agent)).toEqual([1, 0, 0]);
      expect(report.candidate.byAgent?.[agent]?.totals.positives).toEqual({ triggered: 1, runs: 1 });
      expect(report.candidate.byAgent?.[agent]?.totals.negatives).toEqual({ fired: 0, runs: 2 });
    }
    expect(report.candidate.queries[1]?.siblingHits).toEqual({ xlsx: 2 });

    // Gemini's own requests: the named model, the stub listed as YAML parsed the SKILL.md, the
    // sibling beside it.
    const gemini = world.model.requests
      .slice(from)
      .filter((q) => q.path.includes(':streamGenerateContent') && q.view?.query.startsWith('g: '));
    expect(gemini).toHaveLength(3);
    for (const request of gemini) {
      expect(request.view?.model).toBe('gemini-2.5-pro');
      const listing = request.view?.listing ?? [];
      const byName = (name: string) => listing.find((e) => e.name.startsWith(`${name}-stub-`));
      expect(byName('handoff')?.description).toBe('Write HANDOFF.md\nsummarising the session\n');
      expect(byName('xlsx')?.description).toBe('Edit spreadsheets and workbooks');
    }
    // Priced from the joined table: Gemini reports its tokens in the final event, which a run
    // stopped at a text answer reaches.
    expect(report.candidate.cost?.byModel['gemini-2.5-pro']).toBeGreaterThan(0);
    expect(report.candidate.cost?.unknownModels).toEqual([]);
  });

  it('a context on Gemini is refused with the fix, before anything runs: --context-fill, or an entry of its own', async () => {
    const from = world.model.requests.length;
    const skill = path.join(world.work, 'skills', 'handoff');
    const plain = await world.write(
      'g-plain.json',
      JSON.stringify([
        { query: 'g: plain', should_trigger: true },
        { query: 'g: other', should_trigger: false },
      ]),
    );
    const fill = await runCli(
      ['run', '--agent', 'claude,gemini', '--skill', skill, '--eval', plain, '--context-fill', '2000'],
      { env: env() },
    );
    expect(fill.code).toBe(1);
    expect(fill.stderr).toContain('--context-fill: Gemini CLI cannot be measured with a context yet');
    const evalFile = await world.write(
      'g-context.json',
      JSON.stringify([
        {
          query: 'g: write the handoff note',
          should_trigger: true,
          context: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'hello' },
          ],
        },
        { query: 'g: what is a monad', should_trigger: false },
      ]),
    );
    const entry = await runCli(['run', '--agent', 'gemini', '--skill', skill, '--eval', evalFile], {
      env: env(),
    });
    expect(entry.code).toBe(1);
    expect(entry.stderr).toContain(
      "g-context.json: an entry's context: Gemini CLI cannot be measured with a context yet",
    );
    expect(world.model.requests.length).toBe(from);
  });

  it('leaves HOME, with a ~/.gemini of the user, and TMPDIR as it found them', async () => {
    const { tmp, env: tmpEnv } = await world.tmpEnv('gemini-home');
    const home = world.claude.home;
    await mkdir(path.join(home, '.gemini'), { recursive: true });
    await writeFile(path.join(home, '.gemini', 'settings.json'), '{"ui":{"theme":"Dracula"}}\n');
    await writeFile(path.join(home, '.gemini', 'GEMINI.md'), '# My own notes\n');
    const evalFile = await world.write(
      'g-home.json',
      JSON.stringify([
        { query: 'g: write the handoff note', should_trigger: true },
        { query: 'g: what is a monad', should_trigger: false },
      ]),
    );
    const before = { home: await tree(home), tmp: await tree(tmp) };
    const r = await runCli(
      [
        'run',
        '--agent',
        'gemini',
        '--runs',
        '1',
        '--skill',
        path.join(world.work, 'skills', 'handoff'),
        '--eval',
        evalFile,
        '--out',
        path.join(world.work, 'out-g-home'),
      ],
      { env: { ...env(), TMPDIR: tmpEnv.TMPDIR } },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(changes(before.home, await tree(home))).toEqual([]);
    expect(changes(before.tmp, await tree(tmp))).toEqual([]);
  });
});
