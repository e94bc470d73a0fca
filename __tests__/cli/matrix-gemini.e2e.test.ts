import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatrixReport } from '../../src/schemas/matrix.js';
import { type Routes, routeScript } from '../../src/simulated/model.js';
import { stubSkillName } from '../../src/simulated/request.js';
import { type CliResult, type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { writtenMatrix } from '../fakes/matrix-report.js';

/**
 * `matrix --agent gemini` end to end: the CLI process and the real `gemini` against the simulated
 * Gemini API, every skill of the matrix installed in every run as Gemini lists it, each run's cell
 * the skill its `activate_skill` named. One matrix for the file, its runs shared by the assertions.
 * Model calls: Gemini's round-trip gate, then 4 queries × 1 run.
 */
const GEMINI_BIN = path.resolve('node_modules/.bin/gemini');
const FILES: Record<string, string> = {
  // A block scalar: Gemini lists it as YAML parses it, its last line break kept.
  'skills/alpha/SKILL.md':
    '---\nname: alpha\ndescription: |\n  Write alpha reports\n  for the weekly review\n---\n\nBody.\n',
  'skills/beta/SKILL.md':
    '---\nname: beta\ndescription: Draw beta charts from a table of numbers\n---\n\nBody.\n',
  'skills/lonely/SKILL.md': '---\nname: lonely\ndescription: Archive old lonely tickets\n---\n\nBody.\n',
  'skills/alpha/evals/evals.json': JSON.stringify([
    { query: 'gm alpha: write the weekly review', should_trigger: true },
    { query: 'gm alpha: water the plants', should_trigger: false },
  ]),
  'skills/beta/evals/evals.json': JSON.stringify([
    { query: 'gm beta: a chart for the review', should_trigger: true },
    { query: 'gm beta: what is the time', should_trigger: false },
  ]),
};
/** Where the model sends each query: its own skill, a competitor (alpha steals beta's positive), or text. */
const ROUTES: Routes = {
  'gm alpha: write the weekly review': { alpha: 1 },
  'gm alpha: water the plants': {},
  'gm beta: a chart for the review': { alpha: 1 },
  'gm beta: what is the time': { lonely: 1 },
};
const LISTED: Record<string, string> = {
  alpha: 'Write alpha reports\nfor the weekly review\n',
  beta: 'Draw beta charts from a table of numbers',
  lonely: 'Archive old lonely tickets',
};

let world: CliWorld;
let result: CliResult;
let report: MatrixReport | undefined;
let from: number;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'matrix-gemini-e2e',
    model: { script: routeScript(ROUTES, () => ({ kind: 'text' })) },
  });
  for (const [file, text] of Object.entries(FILES)) await world.write(file, text);
  const out = path.join(world.work, 'out');
  from = world.model.requests.length;
  result = await runCli(
    ['matrix', '--agent', 'gemini', '--runs', '1', '--skills', path.join(world.work, 'skills'), '--out', out],
    {
      env: {
        ...world.claude.env,
        SKILLTRIGGER_GEMINI: GEMINI_BIN,
        GOOGLE_GEMINI_BASE_URL: world.model.url,
        GEMINI_API_KEY: 'gemini-test-key-0123456789',
      },
    },
  );
  report = await writtenMatrix(out);
}, 300_000);

afterAll(async () => {
  await world?.close();
});

/** Gemini's first requests of our queries, in the order they ran. */
const firstRequests = () =>
  world.model.requests
    .slice(from)
    .filter(
      (q) =>
        q.path.includes(':streamGenerateContent') &&
        q.turn === 1 &&
        Object.hasOwn(ROUTES, q.view?.query ?? ''),
    );

describe('matrix --agent gemini', () => {
  it("passes Gemini's gates and writes a cold Gemini matrix with its version", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^ok {4}gemini round-trip/m);
    expect(result.stderr).not.toContain('gemini-test-key-0123456789');
    expect(report?.agent).toBe('gemini');
    expect(report?.cli.version).toBe('0.61.0');
    expect(report?.settings.launch).toBe('cold');
    expect(report?.verdict).toBe('ok');
  });

  it('puts each run in the cell of the skill its activate_skill named, a text answer in none/other', () => {
    const byQuery = Object.fromEntries((report?.queries ?? []).map((q) => [q.query, q]));
    expect(byQuery['gm alpha: write the weekly review']?.loaded).toEqual({ alpha: 1 });
    expect(byQuery['gm alpha: water the plants']).toMatchObject({ loaded: {}, noneOther: 1 });
    expect(byQuery['gm beta: a chart for the review']?.loaded).toEqual({ alpha: 1 });
    // A skill with no eval set still competes: the negative went to it.
    expect(byQuery['gm beta: what is the time']?.loaded).toEqual({ lonely: 1 });
    expect((report?.stolen ?? []).map((s) => [s.owner, s.thief])).toEqual([['beta', 'alpha']]);
    // And each decision is the model's own: the activation it answered with, by its stub's name.
    const requests = firstRequests();
    expect(requests.map((r) => (r.behaviour as { kind: string }).kind).sort()).toEqual([
      'skill',
      'skill',
      'skill',
      'text',
    ]);
    for (const request of requests) {
      const behaviour = request.behaviour as { kind: string; name?: string } | undefined;
      const query = request.view?.query ?? '';
      if (behaviour?.kind === 'skill')
        expect(byQuery[query]?.loaded, query).toEqual({ [stubSkillName(behaviour.name ?? '')]: 1 });
    }
  });

  it('lists every skill of the matrix in every run, each as Gemini parses its SKILL.md, with the model asked', () => {
    const requests = firstRequests();
    expect(requests).toHaveLength(4);
    for (const request of requests) {
      expect(request.view?.model).toBe('gemini-2.5-pro');
      const ours = (request.view?.listing ?? [])
        .filter((e) => Object.hasOwn(LISTED, stubSkillName(e.name)))
        .map((e) => [stubSkillName(e.name), e.description]);
      expect(Object.fromEntries(ours)).toEqual(LISTED);
      expect(ours).toHaveLength(3);
    }
  });
});
