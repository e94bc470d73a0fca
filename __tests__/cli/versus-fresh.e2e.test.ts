import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeContext } from '../../src/inputs/context.js';
import { contextFillTurns } from '../../src/inputs/context-fill.js';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * `run --versus-fresh` and `--context-fill` through the real `claude` against the simulated model
 * (docs/context.md, "Fresh against the session", "Filling context"): each query is measured fresh
 * and with its context, interleaved, in one report that judges each arm apart and says how many
 * points the session costs; a fill is the shipped conversation's first N characters. The model
 * here loads the skill on a "hit" query only in a fresh session, so the session costs all of it.
 */
const TURNS = [
  { role: 'user', content: 'The deploy script broke after the rename; please have a look at deploy.sh.' },
  { role: 'assistant', content: 'Found it: deploy.sh still sourced the old env file. Fixed and re-ran.' },
];

let world: CliWorld;
let skill: string;
let evalFile: string;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'versus-fresh-e2e',
    model: {
      recordBodies: true,
      script: (view) =>
        view.query.startsWith('hit') && (view.priorTurns ?? 0) === 0 ? { kind: 'skill' } : { kind: 'text' },
    },
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

const run = (args: string[]) =>
  runCli(['run', '--skill', skill, '--eval', evalFile, '--runs', '2', '--claude', CLAUDE_BIN, ...args], {
    env: world.claude.env,
  });

async function readReport(out: string): Promise<Report> {
  const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
  return reportSchema.parse(JSON.parse(await readFile(path.join(out, json ?? ''), 'utf8')));
}

describe('run --versus-fresh', () => {
  it('measures each query fresh and with its context, interleaved, in one report with the session’s cost', async () => {
    const file = await world.write('ctx.json', JSON.stringify(TURNS));
    const out = path.join(world.work, 'out');
    const from = world.model.requests.length;
    const r = await run(['--context', file, '--versus-fresh', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'versus fresh: 2 queries are measured fresh and with their context, interleaved',
    );
    const report = await readReport(out);
    expect(report.settings.versusFresh).toBe(true);
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([
      ['triggered', 'not-triggered', 'triggered', 'not-triggered'],
      ['not-triggered', 'not-triggered', 'not-triggered', 'not-triggered'],
    ]);
    expect(report.candidate.totals.planned).toBe(8);
    expect(report.candidate.byContext?.fresh?.totals.positives).toEqual({ triggered: 2, runs: 2 });
    expect(report.candidate.byContext?.context?.totals.positives).toEqual({ triggered: 0, runs: 2 });
    expect(report.candidate.sessionCost?.positives.deltaRate).toBe(-1);
    expect(report.candidate.sessionCost?.queries).toBe(2);
    expect(r.stdout).toContain('the session costs positives −100 pp');
    expect(r.stdout).toContain('with a context: positives triggered 0/2');
    // Interleaved: each pass runs a query fresh, then with its context, before the next query.
    const measured = world.model.requests
      .slice(from)
      .filter((q) => q.turn === 1 && q.view?.query !== undefined && /^(hit|what)/.test(q.view.query));
    expect(measured.map((q) => `${q.view?.query.slice(0, 3)}:${q.view?.priorTurns}`)).toEqual([
      'hit:0',
      'hit:2',
      'wha:0',
      'wha:2',
      'hit:0',
      'hit:2',
      'wha:0',
      'wha:2',
    ]);
  });

  it('refuses a run where no query carries a context, before any request', async () => {
    const from = world.model.requests.length;
    const r = await run(['--versus-fresh']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--versus-fresh: no query carries a context');
    expect(r.stderr).toContain('Fix: give --context <file>');
    expect(world.model.requests.length).toBe(from);
  });
});

describe('run --context-fill', () => {
  it('starts every run with the shipped conversation’s first N characters, and the report says the fill', async () => {
    const out = path.join(world.work, 'out-fill');
    const from = world.model.requests.length;
    const r = await run(['--context-fill', '2000', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const fill = describeContext(contextFillTurns(2000));
    expect(fill.chars).toBe(2000);
    expect(r.stderr).toContain(
      `context: every run starts with ${fill.turns} earlier turns (2000 characters of the shipped coding conversation)`,
    );
    const report = await readReport(out);
    expect(report.settings.contextFill).toBe(2000);
    expect(report.settings.context).toEqual(fill);
    const measured = world.model.requests
      .slice(from)
      .filter((q) => q.turn === 1 && q.view?.query !== undefined && /^(hit|what)/.test(q.view.query));
    expect(measured.map((q) => q.view?.priorTurns)).toEqual(Array(4).fill(fill.turns));
    // The shipped text reaches the model as it is: its last (cut) answer is in the request.
    const last = contextFillTurns(2000).at(-1)?.content ?? '';
    expect(JSON.stringify(measured[0]?.body)).toContain(JSON.stringify(last).slice(1, -1));
  });

  it('prices each run’s fill in the estimate, a query measured both ways counted twice', async () => {
    const r = await run(['--context-fill', '20000', '--versus-fresh', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('plan: 4 queries × 2 runs × 1 model × 1 side = 8 runs');
    // Two queries with the fill, two runs each: 4 runs of ceil(20,000 / 3) tokens.
    expect(r.stdout).toContain(
      'contexts: 4 of the runs start with a context, 26,668 tokens of earlier turns in all (3 characters a token)',
    );
    const plus = Number(/plus \$(\d+\.\d+) for the contexts/.exec(r.stdout)?.[1]);
    expect(plus).toBeGreaterThan(0);
  });

  it('refuses a fill out of range, or beside --context, before any request', async () => {
    const from = world.model.requests.length;
    const small = await run(['--context-fill', '10']);
    expect(small.code).toBe(1);
    expect(small.stderr).toContain('--context-fill must be a whole number of characters');
    const file = await world.write('ctx-both.json', JSON.stringify(TURNS));
    const both = await run(['--context', file, '--context-fill', '2000']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('--context and --context-fill both give every query its earlier turns');
    expect(world.model.requests.length).toBe(from);
  });
});
