import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MatrixReport, matrixReportSchema } from '../../src/schemas/matrix.js';
import {
  GATE_QUERY,
  type Routes,
  routeScript,
  type Script,
  type SimulatedModel,
} from '../../src/simulated/model.js';
import { findListingLine, stubSkillName } from '../../src/simulated/request.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { liveProcessesIn, processesIn, projectUnder } from '../fakes/process-group.js';

/**
 * `skilltrigger matrix` end to end: the CLI process, the real claude binary, the simulated model
 * routing among the installed stubs by script. Every cell of the report is counted again from what
 * the model answered, run by run. Then the same skills on the real `codex` (`--agent codex`).
 * Real runs: 27 measured claudes (9 queries × 3), 9 measured codex runs and Codex's round-trip gate,
 * the first of those nine started before the gates and waiting through them.
 */
const CODEX_BIN = path.resolve('node_modules/.bin/codex');
const SKILLS = {
  alpha: { description: 'Write alpha reports for the weekly review', evals: true },
  beta: { description: 'Draw beta charts from a table of numbers', evals: true },
  gamma: { description: 'Translate gamma notes into plain English', evals: true },
  lonely: { description: 'Archive old lonely tickets in the tracker', evals: false },
} as const;
type Name = keyof typeof SKILLS;
/** Each skill's queries: two positives, one negative (query text → should_trigger). */
const EVALS: Record<string, Record<string, boolean>> = {
  alpha: {
    'mx alpha: write the weekly review': true,
    'mx alpha: report for the review': true,
    'mx alpha: water the plants': false,
  },
  beta: {
    'mx beta: chart these numbers': true,
    'mx beta: a bar chart please': true,
    'mx beta: what is the time': false,
  },
  gamma: {
    'mx gamma: translate my notes': true,
    'mx gamma: plain English please': true,
    'mx gamma: book a flight': false,
  },
};
const ROUTES: Routes = {
  'mx alpha: write the weekly review': { alpha: 0.6, beta: 0.3 },
  'mx alpha: report for the review': { beta: 0.7, alpha: 0.2 },
  'mx alpha: water the plants': { lonely: 0.4 },
  'mx beta: chart these numbers': { beta: 0.8, gamma: 0.1 },
  'mx beta: a bar chart please': { beta: 0.5, lonely: 0.3 },
  'mx beta: what is the time': { alpha: 0.2 },
  'mx gamma: translate my notes': { gamma: 0.9 },
  'mx gamma: plain English please': { gamma: 0.4, alpha: 0.4 },
  'mx gamma: book a flight': { 'some-builtin': 0.5 },
};
const RUNS = 3;

/**
 * At each round trip's request, the temp projects under the call's TMPDIR, other than the gate's own,
 * where a live Codex reads its prompt from stdin (argv ends `-- -`): the matrix's first run waiting.
 */
const gateWatch = { tmp: '', waiting: [] as string[][] };
const watchGate: Script = (req) => {
  if (req.query !== GATE_QUERY || gateWatch.tmp === '') return undefined;
  const gate = projectUnder(gateWatch.tmp, req.cwd);
  const onStdin = processesIn(gateWatch.tmp).filter((p) => p.argv.slice(-2).join(' ') === '-- -');
  const projects = new Set(onStdin.map((p) => projectUnder(gateWatch.tmp, p.cwd)));
  gateWatch.waiting.push([...projects].filter((p): p is string => p !== undefined && p !== gate));
  return undefined;
};
const routed = routeScript(ROUTES);

let world: CliWorld;
let work: string;
let model: SimulatedModel;
let claude: ClaudeEnv;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'matrix-e2e',
    model: { seed: 7, script: (req, ctx) => watchGate(req, ctx) ?? routed(req, ctx), recordBodies: true },
  });
  ({ work, model, claude } = world);
  for (const [name, s] of Object.entries(SKILLS)) {
    const dir = path.join(work, 'skills', name);
    await mkdir(path.join(dir, 'evals'), { recursive: true });
    await writeFile(
      path.join(dir, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${s.description}\n---\n\nBody.\n`,
    );
    if (s.evals)
      await writeFile(
        path.join(dir, 'evals', 'evals.json'),
        JSON.stringify(
          Object.entries(EVALS[name] ?? {}).map(([query, should_trigger]) => ({ query, should_trigger })),
        ),
      );
  }
});

afterAll(async () => {
  await world?.close();
});

async function readMatrix(
  out: string,
): Promise<{ report: MatrixReport; markdown: string; html: string; files: string[] }> {
  const files = (await readdir(out)).sort();
  const json = files.filter((f) => f.endsWith('-matrix.json'));
  expect(json).toHaveLength(1);
  const text = await readFile(path.join(out, json[0] ?? ''), 'utf8');
  const markdown = await readFile(path.join(out, (json[0] ?? '').replace(/\.json$/, '.md')), 'utf8');
  // The page is written beside the JSON, as for run and improve (docs/html-report.md).
  const html = await readFile(path.join(out, (json[0] ?? '').replace(/\.json$/, '.html')), 'utf8');
  return { report: matrixReportSchema.parse(JSON.parse(text)), markdown, html, files };
}

/** Where the model sent each first turn of our queries, counted per query (skill name or none/other). */
function modelDecisions(from: number): Map<string, Record<string, number>> {
  const counts = new Map<string, Record<string, number>>();
  for (const r of model.requests.slice(from)) {
    const query = r.view?.query;
    if (r.turn !== 1 || query === undefined || !Object.hasOwn(ROUTES, query)) continue;
    const b = r.behaviour as { kind: string; name?: string } | undefined;
    const skill = b?.kind === 'skill' && b.name !== undefined ? stubSkillName(b.name) : undefined;
    const to = skill !== undefined && Object.hasOwn(SKILLS, skill) ? skill : 'none/other';
    const row = counts.get(query) ?? {};
    row[to] = (row[to] ?? 0) + 1;
    counts.set(query, row);
  }
  return counts;
}

describe('skilltrigger matrix (real claude, scripted routes)', () => {
  it('every cell equals what the model decided; figures rendered; a skill with no eval set competes', async () => {
    const out = path.join(work, 'out');
    const from = model.requests.length;
    const r = await runCli(
      [
        'matrix',
        '--skills',
        path.join(work, 'skills'),
        '--runs',
        String(RUNS),
        '--out',
        out,
        '--claude',
        CLAUDE_BIN,
      ],
      { env: claude.env },
    );
    expect(r.stderr).toContain('lonely: no eval set; installed as a competitor only');
    expect(r.code, r.stderr).toBe(0);
    const { report, markdown, html } = await readMatrix(out);
    const decisions = modelDecisions(from);

    // Every query ran RUNS times, and each query's counts are the model's own decisions.
    expect(report.queries).toHaveLength(9);
    for (const q of report.queries) {
      expect(q.runs).toHaveLength(RUNS);
      const { 'none/other': noneOther = 0, ...loaded } = decisions.get(q.query) ?? {};
      expect(q.loaded, q.query).toEqual(loaded);
      expect(q.noneOther, q.query).toBe(noneOther);
    }
    // The cells: per owner × label, summed over the model's decisions.
    for (const row of report.rows) {
      const queries = Object.entries(EVALS[row.owner] ?? {}).filter(
        ([, pos]) => pos === (row.label === 'positive'),
      );
      for (const name of Object.keys(SKILLS)) {
        const expected = queries.reduce((n, [query]) => n + (decisions.get(query)?.[name] ?? 0), 0);
        expect(row.cells[name], `${row.owner} ${row.label} → ${name}`).toBe(expected);
      }
      expect(row.noneOther).toBe(
        queries.reduce((n, [query]) => n + (decisions.get(query)?.['none/other'] ?? 0), 0),
      );
    }
    // The scripted routes were exercised: some run went to a sibling, one to the skill with no eval set.
    expect(
      report.rows.some((row) => Object.entries(row.cells).some(([n, c]) => n !== row.owner && c > 0)),
    ).toBe(true);

    // Recall and precision from the cells, and in the Markdown.
    for (const f of report.figures) {
      const own = report.queries.filter((q) => q.owner === f.skill && q.shouldTrigger);
      expect(f.recall.hits).toBe(own.reduce((n, q) => n + (q.loaded[f.skill] ?? 0), 0));
      expect(f.recall.of).toBe(own.reduce((n, q) => n + q.measured, 0));
      expect(f.precision.of).toBe(report.queries.reduce((n, q) => n + (q.loaded[f.skill] ?? 0), 0));
    }
    expect(markdown).toContain('## Precision and recall');
    const alpha = report.figures.find((f) => f.skill === 'alpha');
    expect(markdown).toContain(`| alpha | ${alpha?.recall.hits}/${alpha?.recall.of} = `);
    expect(markdown).toContain('| lonely | no eval set (installed as a competitor) |');
    expect(markdown).toContain('```mermaid');
    expect(report.skills.find((s) => s.name === 'lonely')?.evalSet).toBeNull();

    // Privacy: no description text in the report, only bytes and hash.
    const json = JSON.stringify(report);
    for (const s of Object.values(SKILLS)) {
      expect(json).not.toContain(s.description);
      expect(markdown).not.toContain(s.description);
      expect(html).not.toContain(s.description);
    }
    expect(html).toContain('lonely');

    // Every run's listing held every skill, the one with no eval set included, as its SKILL.md reads.
    const firstTurns = model.requests
      .slice(from)
      .filter((q) => q.turn === 1 && Object.hasOwn(ROUTES, q.view?.query ?? ''));
    expect(firstTurns).toHaveLength(9 * RUNS);
    for (const req of firstTurns) {
      for (const [name, s] of Object.entries(SKILLS) as [Name, (typeof SKILLS)[Name]][]) {
        const listed = req.view?.stubs?.find((e) => stubSkillName(e.name) === name);
        expect(listed, `${name} listed for ${req.view?.query}`).toBeDefined();
        expect(findListingLine(req.body, listed?.name ?? '')?.description).toBe(s.description);
      }
    }
  }, 600_000);

  it('--agent codex, warm: each run is attributed to the skill whose SKILL.md Codex read, a miss to none/other', async () => {
    const out = path.join(work, 'out-codex');
    const from = model.requests.length;
    const { tmp, env } = await world.tmpEnv('codex');
    const realTmp = await realpath(tmp);
    Object.assign(gateWatch, { tmp: realTmp, waiting: [] });
    const r = await runCli(
      ['matrix', '--agent', 'codex', '--codex', CODEX_BIN, '--skills', path.join(work, 'skills')].concat([
        '--runs',
        '1',
        '--standby',
        '1',
        '--out',
        out,
      ]),
      { env: { ...env, OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: 'sk-test-codex' } },
    ).finally(() => {
      gateWatch.tmp = '';
    });
    expect(r.code, r.stderr).toBe(0);
    const { report } = await readMatrix(out);
    expect(report.agent).toBe('codex');
    expect(report.cli.version).toMatch(/^\d+\.\d+\.\d+/);
    // Codex's warm standbys serve the matrix as its run's: each waits for its prompt, so the nine
    // first turns below are all the model saw, and each run decides as a cold one (docs/codex.md).
    expect(report.settings.launch).toBe('standby');
    expect(r.stderr).not.toContain('always start cold');
    const decisions = modelDecisions(from);
    // The model's choices spread over the stub, a sibling and none/other, and each run's cell is its choice.
    const chosen = new Set([...decisions.values()].flatMap((row) => Object.keys(row)));
    expect(chosen).toContain('none/other');
    expect([...chosen].filter((c) => c !== 'none/other').length).toBeGreaterThan(1);
    expect(report.queries).toHaveLength(9);
    for (const q of report.queries) {
      expect(q.runs, q.query).toHaveLength(1);
      const { 'none/other': noneOther = 0, ...loaded } = decisions.get(q.query) ?? {};
      expect(q.loaded, q.query).toEqual(loaded);
      expect(q.noneOther, q.query).toBe(noneOther);
    }
    expect(
      report.rows.some((row) => Object.entries(row.cells).some(([n, c]) => n !== row.owner && c > 0)),
    ).toBe(true);
    // Every Codex request listed every skill of the matrix, the one with no eval set included.
    const firstTurns = model.requests
      .slice(from)
      .filter(
        (q) => q.path.endsWith('/responses') && q.turn === 1 && Object.hasOwn(ROUTES, q.view?.query ?? ''),
      );
    expect(firstTurns).toHaveLength(9);
    // The first run's Codex was started before the gates: while the round trip talked to the
    // model it already waited in a project of its own, and the first measured request came from there.
    expect(gateWatch.waiting).toHaveLength(1);
    expect(gateWatch.waiting[0]).toHaveLength(1);
    const first = [...firstTurns].sort((a, b) => a.at - b.at)[0];
    expect(projectUnder(realTmp, first?.view?.cwd)).toBe(gateWatch.waiting[0]?.[0]);
    expect(liveProcessesIn(realTmp)).toEqual([]);
    expect((await readdir(tmp)).filter((n) => n.startsWith('skilltrigger-'))).toEqual([]);
    for (const req of firstTurns)
      expect(
        (req.view?.listing ?? [])
          .map((e) => stubSkillName(e.name))
          .filter((n) => Object.hasOwn(SKILLS, n))
          .sort(),
      ).toEqual(Object.keys(SKILLS).sort());
  }, 300_000);
});
