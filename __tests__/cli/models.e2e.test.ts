import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costOf } from '../../src/cost/cost.js';
import { DEFAULT_PRICE_TABLE } from '../../src/cost/price-table.js';
import { reportSchema } from '../../src/schemas/report.js';
import type { Behaviour, Script, SimulatedModel } from '../../src/simulated/model.js';
import type { ClaudeEnv } from '../fakes/claude-env.js';
import { byQueryPrefix, type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { parseJunit } from '../fakes/junit-shape.js';

/**
 * Several models and their cost end to end, through `node bin/skilltrigger.js`, the real claude
 * binary and the simulated model: several models in one report, what the runs cost, the budget, and
 * the late load.
 */
const HAIKU = 'claude-haiku-4-5';
const SONNET = 'claude-sonnet-4-5';

let world: CliWorld;
let work: string;
let skillDir: string;
let model: SimulatedModel;
let claude: ClaudeEnv;
const scripts = new Map<string, Script>();

beforeAll(async () => {
  world = await startCliWorld({ name: 'models-e2e', model: { seed: 14, script: byQueryPrefix(scripts) } });
  ({ work, model, claude } = world);
  skillDir = path.dirname(
    await world.write(
      'handoff/SKILL.md',
      '---\nname: handoff\ndescription: Write HANDOFF.md summarising the session so a fresh session can resume\n---\n\nBody.\n',
    ),
  );
});

afterAll(async () => {
  await world?.close();
});

const evalFile = (name: string, items: Array<{ query: string; should_trigger: boolean }>) =>
  world.write(`${name}.json`, JSON.stringify(items));

async function readReport(out: string) {
  const json = (await readdir(out)).filter((f) => f.endsWith('.json'));
  expect(json).toHaveLength(1);
  const file = path.join(out, json[0] ?? '');
  const markdown = await readFile(file.replace(/\.json$/, '.md'), 'utf8');
  return { report: reportSchema.parse(JSON.parse(await readFile(file, 'utf8'))), markdown };
}

/** The first turns the simulated model answered for queries starting with `prefix`. */
function firstTurns(prefix: string) {
  return model.requests.filter((r) => r.turn === 1 && r.usage && r.view?.query.startsWith(prefix));
}

const run = (args: string[]) => runCli(['run', '--skill', skillDir, ...args], { env: claude.env });

describe('--model a,b', () => {
  it('measures each model interleaved; per-model hits are the model’s own decisions', async () => {
    // Haiku loads the skill 80% of the time, Sonnet 20%: the draws decide, the report must follow them.
    scripts.set('two-models', (req, ctx): Behaviour => {
      const p = req.model === HAIKU ? 0.8 : 0.2;
      return ctx.random() < p ? { kind: 'skill' } : { kind: 'text' };
    });
    const items = [
      { query: 'two-models a: write the handoff notes', should_trigger: true },
      { query: 'two-models b: hand the session over', should_trigger: true },
      { query: 'two-models c: rename a variable', should_trigger: false },
    ];
    const out = path.join(work, 'out-two');
    // One run a query and model: what is checked is how each run is attributed, ordered and
    // totalled per model, which one run shows as well as two.
    const r = await run([
      '--eval',
      await evalFile('two', items),
      '--runs',
      '1',
      '--model',
      `${HAIKU},${SONNET}`,
      '--out',
      out,
      '--junit',
      path.join(work, 'two.junit.xml'),
    ]);
    expect(r.stderr).not.toMatch(/error/i);
    expect([0, 3]).toContain(r.code);
    const { report, markdown } = await readReport(out);
    expect(report.settings.models).toEqual([HAIKU, SONNET]);
    // The simulated model's own decisions, per model and query.
    const sent = firstTurns('two-models');
    expect(sent).toHaveLength(items.length * 2);
    for (const [i, item] of items.entries()) {
      const q = report.candidate.queries[i];
      for (const m of [HAIKU, SONNET]) {
        const decisions = sent.filter((s) => s.view?.query === item.query && s.view?.model === m);
        expect(decisions).toHaveLength(1);
        const hits = decisions.filter((s) => s.behaviour?.kind === 'skill').length;
        expect(q?.byModel?.[m]).toEqual({ hits, runs: 1, late: 0, timeouts: 0, errors: 0 });
      }
      expect(q?.hits).toBe((q?.byModel?.[HAIKU]?.hits ?? 0) + (q?.byModel?.[SONNET]?.hits ?? 0));
      expect(q?.planned).toBe(2);
    }
    // Interleaved query by query, the first model rotating: (q1·haiku, q1·sonnet), (q2·sonnet, q2·haiku), …
    const order = sent.map((s) => `${items.findIndex((i) => i.query === s.view?.query)}:${s.view?.model}`);
    expect(order.slice(0, 6)).toEqual([
      `0:${HAIKU}`,
      `0:${SONNET}`,
      `1:${SONNET}`,
      `1:${HAIKU}`,
      `2:${HAIKU}`,
      `2:${SONNET}`,
    ]);
    // Totals per model, and the no-verdict rule per model.
    for (const m of [HAIKU, SONNET]) {
      const own = report.candidate.byModel?.[m];
      expect(own?.verdict).toBe('ok');
      expect(own?.totals.executed).toBe(3);
      expect(own?.totals.planned).toBe(3);
    }
    expect(report.candidate.totals.planned).toBe(6);
    // One column per model in the Markdown, and a headline line per model.
    expect(markdown).toContain(`| Id | Should trigger | ${HAIKU} | ${SONNET} |`);
    // The headline: one line per model with its own positives, negatives and passes; the pooled
    // counts marked as never deciding, and no pooled pass count (it would describe no model).
    for (const m of [HAIKU, SONNET]) {
      const t = report.candidate.byModel?.[m]?.totals;
      const own = `${m}: positives triggered ${t?.positives.triggered}/2 · negatives fired ${t?.negatives.fired}/1 · ${t?.passed}/3 queries pass`;
      expect(r.stdout.split('\n')).toContain(own);
      expect(markdown).toContain(`\n- ${own}\n`);
    }
    const pooled = `all models pooled (describes no model; never decides): positives triggered ${report.candidate.totals.positives.triggered}/4`;
    expect(r.stdout).toContain(pooled);
    expect(markdown).toContain(`\n- ${pooled}`);
    expect(r.stdout).not.toMatch(/^positives triggered/m);
    expect(r.stdout.split('\n').find((l) => l.startsWith('all models pooled'))).not.toContain('queries pass');
    expect(markdown).toContain(
      `It says nothing on its own about how well the skill triggers: ${HAIKU} ${report.candidate.byModel?.[HAIKU]?.totals.passed}/3 queries pass, ${SONNET} ${report.candidate.byModel?.[SONNET]?.totals.passed}/3 queries pass.`,
    );
    // Both models priced (the built-in table knows them), per model and in total.
    expect(Object.keys(report.candidate.cost?.byModel ?? {}).sort()).toEqual([HAIKU, SONNET]);
    expect(r.stdout).toMatch(/^cost: \$\d/m);
    // The HTML page has a column per model and the cost; the JUnit file a suite per model, each
    // query's testcase judged on that model's runs.
    const [htmlFile] = (await readdir(out)).filter((f) => f.endsWith('.html'));
    const page = await readFile(path.join(out, htmlFile ?? ''), 'utf8');
    expect(page).toContain('<section id="models"><h2>By model</h2>');
    expect(page).toContain(`<p class="headline">${HAIKU}: positives triggered`);
    expect(page).toContain('<p class="headline">all models pooled (describes no model; never decides): ');
    expect(page).toContain(`<th scope="col">${SONNET}</th>`);
    expect(page).toMatch(/<p class="cost">cost: \$\d/);
    const junit = parseJunit(await readFile(path.join(work, 'two.junit.xml'), 'utf8'));
    expect(junit.suites.map((s) => s.name)).toEqual([`handoff · ${HAIKU}`, `handoff · ${SONNET}`]);
    for (const [i, m] of [HAIKU, SONNET].entries()) {
      const suite = junit.suites[i];
      expect(suite?.properties.model).toBe(m);
      // Written with six decimals: a closeness test fails on a cost that ends in a half at the seventh.
      expect(suite?.properties['cost-usd']).toBe(report.candidate.byModel?.[m]?.costUsd?.toFixed(6));
      for (const [j, q] of report.candidate.queries.entries()) {
        const own = q.byModel?.[m];
        const testcase = suite?.cases.find((c) => c.name.startsWith(`[${m}] ${q.id}:`));
        const passes = q.shouldTrigger ? (own?.hits ?? 0) > 0.5 : (own?.hits ?? 0) < 0.5;
        expect(testcase?.failure === undefined, `${m} q${j + 1}`).toBe(passes);
      }
    }
  });

  it('compare labels model by model, and warns when the model sets differ', async () => {
    const both = path.join(work, 'out-two');
    const [twoFile] = (await readdir(both)).filter((f) => f.endsWith('.json'));
    const two = path.join(both, twoFile ?? '');
    const same = await runCli(['compare', two, two, '--json'], { env: claude.env });
    expect(same.code).toBe(0);
    const parsed = JSON.parse(same.stdout) as {
      warnings: { code: string }[];
      models: Record<
        string,
        { label: string; totals: { positives: { base: { hits: number; runs: number } } } }
      >;
    };
    expect(Object.keys(parsed.models)).toEqual([HAIKU, SONNET]);
    expect(parsed).toMatchObject({ schema: 'skilltrigger/comparison-by-model', schemaVersion: 1 });
    expect(parsed.warnings).toEqual([]);
    const { report } = await readReport(both);
    for (const m of [HAIKU, SONNET]) {
      // The same report on both sides: each model's own counts, labelled noise.
      expect(parsed.models[m]?.label).toBe('noise');
      expect(parsed.models[m]?.totals.positives.base).toMatchObject({
        hits: report.candidate.byModel?.[m]?.totals.positives.triggered,
        runs: report.candidate.byModel?.[m]?.totals.positives.runs,
      });
    }
    // One model on the other side: that model alone is compared, with a warning. Its queries are
    // two.json's, so the two-models script answers them.
    const oneOut = path.join(work, 'out-one');
    const items = JSON.parse(await readFile(path.join(work, 'two.json'), 'utf8')) as { query: string }[];
    expect(items.length).toBe(3);
    const one = await run([
      '--eval',
      path.join(work, 'two.json'),
      '--runs',
      '1',
      '--model',
      `${HAIKU},claude-opus-4-5`,
      '--out',
      oneOut,
    ]);
    expect([0, 3]).toContain(one.code);
    const [oneFile] = (await readdir(oneOut)).filter((f) => f.endsWith('.json'));
    const text = await runCli(['compare', two, path.join(oneOut, oneFile ?? '')], { env: claude.env });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /warning: the model sets differ \(only in [^:]+: claude-sonnet-4-5; only in [^:]+: claude-opus-4-5\)/,
    );
    expect(text.stdout).toContain(`== model ${HAIKU} ==`);
    expect(text.stdout).not.toContain(`== model ${SONNET} ==`);
  });

  it('refuses a model named twice before anything runs', async () => {
    const before = model.requests.length;
    const r = await run([
      '--eval',
      await evalFile('dup', [{ query: 'dup x', should_trigger: true }]),
      '--model',
      `${HAIKU},${HAIKU}`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--model names "${HAIKU}" twice`);
    expect(model.requests.length).toBe(before);
  });

  it('refuses an alias beside its full id after the round trips, before any measured run', async () => {
    // In claude 2.1.328 the alias `haiku` resolves to claude-haiku-5-5: one model, two spellings.
    scripts.set('alias-dup', () => ({ kind: 'skill' }));
    const r = await run([
      '--eval',
      await evalFile('alias-dup', [
        { query: 'alias-dup: write the handoff', should_trigger: true },
        { query: 'alias-dup z: rename a variable', should_trigger: false },
      ]),
      '--model',
      'haiku,claude-haiku-5-5',
      '--out',
      path.join(work, 'out-alias-dup'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '--model names one model twice: "haiku" and "claude-haiku-5-5" are both claude-haiku-5-5',
    );
    expect(r.stderr).toContain('Fix: keep one of "haiku" and "claude-haiku-5-5" in --model');
    // Both round trips ran (that is how the alias was resolved), and no measured run did.
    expect(firstTurns('alias-dup')).toHaveLength(0);
    const left = await readdir(path.join(work, 'out-alias-dup')).catch(() => []);
    expect(left.filter((f) => f.endsWith('.json'))).toEqual([]);
  });
});

describe('usage and cost', () => {
  it('records the tokens the model sent up to the decision and prices them from the table', async () => {
    scripts.set('priced', () => ({ kind: 'skill' }));
    const out = path.join(work, 'out-priced');
    const r = await run([
      '--eval',
      await evalFile('priced', [
        { query: 'priced: write the handoff', should_trigger: true },
        { query: 'priced z: rename a variable', should_trigger: false },
      ]),
      '--runs',
      '2',
      '--model',
      HAIKU,
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    const { report } = await readReport(out);
    const q = report.candidate.queries[0];
    const sent = firstTurns('priced: write');
    expect(sent).toHaveLength(2);
    const sum = (f: (u: NonNullable<(typeof sent)[number]['usage']>) => number) =>
      sent.reduce((n, s) => n + (s.usage ? f(s.usage) : 0), 0);
    // Decided at the Skill call: the prompt as sent, and one output token each (message_start's count).
    expect(q?.usage).toEqual({
      inputTokens: sum((u) => u.input),
      cacheReadInputTokens: sum((u) => u.cacheRead),
      cacheCreationInputTokens: sum((u) => u.cacheCreation),
      outputTokens: 2,
    });
    const perRun = sent.map((s) => {
      const c = costOf(
        {
          inputTokens: s.usage?.input ?? 0,
          cacheReadInputTokens: s.usage?.cacheRead ?? 0,
          cacheCreationInputTokens: s.usage?.cacheCreation ?? 0,
          outputTokens: 1,
        },
        HAIKU,
        DEFAULT_PRICE_TABLE,
      );
      return c.kind === 'priced' ? c.usd : Number.NaN;
    });
    expect(q?.runsCostUsd?.map((x) => x?.toFixed(12))).toEqual(perRun.map((x) => x.toFixed(12)));
    expect(q?.costUsd).toBeCloseTo((perRun[0] ?? 0) + (perRun[1] ?? 0), 12);
    const queriesUsd = report.candidate.queries.reduce((n, x) => n + (x.costUsd ?? 0), 0);
    expect(report.candidate.cost?.usd).toBeCloseTo(queriesUsd, 12);
    expect(report.candidate.cost?.pricedRuns).toBe(4);
    expect(report.settings.prices).toEqual({ source: 'builtin', asOf: DEFAULT_PRICE_TABLE.asOf });
  });

  it('an unknown model shows tokens and "price unknown"; with --max-cost-usd it refuses naming the model', async () => {
    scripts.set('unpriced', () => ({ kind: 'skill' }));
    const evalPath = await evalFile('unpriced', [
      { query: 'unpriced: write the handoff', should_trigger: true },
      { query: 'unpriced z: rename a variable', should_trigger: false },
    ]);
    const out = path.join(work, 'out-unpriced');
    const r = await run(['--eval', evalPath, '--runs', '1', '--model', 'claude-nova-9', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^cost: price unknown for claude-nova-9 \(2 runs\) · \d[\d,]* prompt tokens/m);
    const { report } = await readReport(out);
    expect(report.candidate.cost?.unknownModels).toEqual(['claude-nova-9']);
    expect(report.candidate.queries[0]?.costUsd).toBeUndefined();
    const before = firstTurns('unpriced').length;
    const refused = await run([
      '--eval',
      evalPath,
      '--model',
      'claude-nova-9',
      '--max-cost-usd',
      '5',
      '--out',
      out,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('"claude-nova-9"');
    expect(refused.stderr).toContain('--prices <file>');
    expect(firstTurns('unpriced').length).toBe(before);
  });
});

describe('--max-cost-usd and --dry-run', () => {
  // Input tokens only, at a price that makes every token count: a long query makes a measured run
  // dearer than the round trip the estimate starts from.
  const pad = 'the session notes '.repeat(200);
  let prices: string;
  let evalPath: string;
  beforeAll(async () => {
    prices = path.join(work, 'prices.json');
    await writeFile(
      prices,
      JSON.stringify({
        source: 'test rates',
        asOf: '2026-12-01',
        models: { [HAIKU]: { input: 1000, output: 0, cacheWrite: 0, cacheRead: 0 } },
      }),
    );
    scripts.set('budget', () => ({ kind: 'text' }));
    evalPath = await evalFile('budget', [
      { query: `budget a: ${pad}`, should_trigger: false },
      { query: `budget b: ${pad}`, should_trigger: false },
      { query: `budget c: ${pad}`, should_trigger: true },
    ]);
  });
  const budgetArgs = () => ['--eval', evalPath, '--runs', '2', '--model', HAIKU, '--prices', prices];
  const estimateOf = (stdout: string) => Number(/^estimate total: \$([\d.]+)/m.exec(stdout)?.[1]);
  // One dry run serves the three tests: each start of the CLI pays its gates' starts of claude.
  let dryRun: ReturnType<typeof run> | undefined;
  const dry = () => {
    dryRun ??= run([...budgetArgs(), '--dry-run']);
    return dryRun;
  };

  it('--dry-run prints the plan and the estimate, runs the gates and measures nothing', async () => {
    const before = firstTurns('budget').length;
    const r = await dry();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('plan: 3 queries × 2 runs × 1 model × 1 side = 6 runs');
    expect(estimateOf(r.stdout)).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/round-trip/);
    expect(firstTurns('budget').length).toBe(before);
  });

  it('a budget below the estimate refuses before any measured run, saying how many runs it buys', async () => {
    const estimate = estimateOf((await dry()).stdout);
    expect(estimate).toBeGreaterThan(0);
    const before = firstTurns('budget').length;
    const r = await run([...budgetArgs(), '--max-cost-usd', (estimate / 2).toFixed(2)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /more than --max-cost-usd \$[\d.]+, which buys about [23] of them; nothing was measured/,
    );
    expect(firstTurns('budget').length).toBe(before);
  });

  it('a budget hit mid-run stops: exit 3, reason budget, the partial report written', async () => {
    const estimate = estimateOf((await dry()).stdout);
    expect(estimate).toBeGreaterThan(0);
    const out = path.join(work, 'out-budget');
    const before = firstTurns('budget').length;
    const r = await run([...budgetArgs(), '--max-cost-usd', (estimate + 0.01).toFixed(2), '--out', out]);
    expect(r.code).toBe(3);
    const { report } = await readReport(out);
    const m = report.candidate;
    expect(m.verdict).toBe('no-verdict');
    expect(m.noVerdictReasons[0]).toMatch(/^budget: /);
    expect(m.budgetStop?.maxUsd).toBeCloseTo(estimate + 0.01, 6);
    expect(m.totals.executed).toBeGreaterThan(0);
    expect(m.totals.executed).toBeLessThan(6);
    expect(firstTurns('budget').length - before).toBe(m.totals.executed);
    expect((m.cost?.usd ?? 0) + (m.budgetStop?.nextEstimateUsd ?? 0)).toBeGreaterThan(estimate + 0.01 - 1e-9);
    expect(report.settings.prices?.source).toBe('file');
    expect(report.settings.prices?.sha256).toMatch(/^[0-9a-f]{12}$/);
    expect(r.stdout).toMatch(/^NO VERDICT .*budget: /m);
  });

  it('a --prices file that is not a price table is an input error naming the file and entry', async () => {
    const bad = path.join(work, 'bad-prices.json');
    await writeFile(
      bad,
      JSON.stringify({ source: 's', asOf: '2026-12-01', models: { [HAIKU]: { input: 1 } } }),
    );
    const r = await run(['--eval', evalPath, '--prices', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(bad);
    expect(r.stderr).toContain(`models.${HAIKU}.output`);
    expect(r.stderr).not.toMatch(/round-trip/);
  });
});

describe('improve --max-cost-usd', () => {
  it('refuses a session estimated above the budget before any measurement', async () => {
    scripts.set('improve-budget', () => ({ kind: 'skill' }));
    const file = path.join(work, 'improve.json');
    await writeFile(
      file,
      JSON.stringify([
        { query: 'improve-budget a: write the handoff', should_trigger: true },
        { query: 'improve-budget b: rename a variable', should_trigger: false },
        { query: 'improve-budget c: hand over', should_trigger: true, split: 'holdout' },
        { query: 'improve-budget d: fix a typo', should_trigger: false, split: 'holdout' },
      ]),
    );
    const r = await runCli(
      [
        'improve',
        '--skill',
        skillDir,
        '--eval',
        file,
        '--model',
        HAIKU,
        '--max-cost-usd',
        '0.0001',
        '--out',
        path.join(work, 'out-improve'),
      ],
      { env: claude.env },
    );
    expect(r.code).toBe(1);
    // The whole session is estimated: its measured runs and its 5 rewrite calls (the default --iterations).
    expect(r.stderr).toMatch(
      /the improve session is estimated at up to \$[\d.]+ \(\d+ measured runs at most, \$[\d.]+, and 5 rewrite calls at about \$[\d.]+ each\), more than --max-cost-usd \$0\.0001, which buys about 0 measured runs: not even the original's measurement/,
    );
    expect(firstTurns('improve-budget')).toHaveLength(0);
  });
});

describe('--late N', () => {
  it('a Bash-first run that loads the skill next turn is a miss counted late; text is not; --late 0 gives the same hits', async () => {
    scripts.set('late', (req) =>
      req.query.includes('late-load') ? { kind: 'late-skill' } : { kind: 'text' },
    );
    const evalPath = await evalFile('late', [
      { query: 'late q1: late-load the handoff', should_trigger: true },
      { query: 'late q2: plain answer', should_trigger: true },
      { query: 'late q3: rename a variable', should_trigger: false },
    ]);
    const results = [];
    for (const late of ['2', '0']) {
      const out = path.join(work, `out-late-${late}`);
      const r = await run(['--eval', evalPath, '--runs', '1', '--late', late, '--out', out]);
      expect(r.code).toBe(0);
      results.push({ ...(await readReport(out)), stdout: r.stdout });
    }
    const [watched, off] = results;
    const [q1, q2] = watched?.report.candidate.queries ?? [];
    expect(q1?.outcomes).toEqual(['not-triggered']);
    expect(q1?.late).toBe(1);
    expect(q2?.late).toBe(0);
    expect(watched?.report.candidate.totals.late).toBe(1);
    expect(watched?.report.settings.lateTurns).toBe(2);
    expect(watched?.stdout).toContain('1 of 3 misses loaded the skill later');
    expect(watched?.markdown).toContain('1 of 3 misses loaded the skill later');
    // Never a hit, never a change of pass/fail.
    const counts = (r: typeof watched) => r?.report.candidate.queries.map((q) => [q.hits, q.runs, q.pass]);
    expect(counts(watched)).toEqual(counts(off));
    expect(off?.report.candidate.queries[0]?.late).toBeUndefined();
    expect(off?.stdout).not.toContain('loaded the skill later');
  });
});

describe('--baseline-description with several models', () => {
  // 32 real runs (4 queries × 2 runs × 2 sides × 2 models) and a paired round trip per model: it
  // took 107 s beside another e2e file on the two cores, past the default 120 s budget once.
  it('judges each model’s candidate against the same model’s baseline, not the pool', async () => {
    // The candidate (SKILL.md's text) always loads on Haiku and never on Sonnet; the baseline the
    // other way round. Pooled, the two cancel out (noise); model by model, Sonnet regresses.
    const BASELINE = 'Documentation helper for markdown files';
    scripts.set('pair-models', (req): Behaviour => {
      if (!req.stub) return { kind: 'text' };
      if (req.query.includes('negative')) return { kind: 'text' };
      const candidate = req.stub.description !== BASELINE;
      return (req.model === HAIKU) === candidate ? { kind: 'skill' } : { kind: 'text' };
    });
    const items = [
      { query: 'pair-models a: write the handoff notes', should_trigger: true },
      { query: 'pair-models b: hand the session over', should_trigger: true },
      { query: 'pair-models c: note where we stopped', should_trigger: true },
      { query: 'pair-models d negative: rename a variable', should_trigger: false },
    ];
    const out = path.join(work, 'out-pair-models');
    const r = await run([
      '--eval',
      await evalFile('pair-models', items),
      '--baseline-description',
      BASELINE,
      '--runs',
      '2',
      '--model',
      `${HAIKU},${SONNET}`,
      '--out',
      out,
    ]);
    expect(r.code).toBe(0);
    // Interleaved as ever: every query's first pass ran both sides on both models before the next query.
    const sent = firstTurns('pair-models');
    expect(sent).toHaveLength(items.length * 2 * 2 * 2);
    const firstFour = sent
      .slice(0, 4)
      .map((s) => `${s.view?.model}:${s.view?.stub?.description === BASELINE}`);
    expect(new Set(firstFour).size).toBe(4);
    expect(new Set(sent.slice(0, 4).map((s) => s.view?.query)).size).toBe(1);

    const { report, markdown } = await readReport(out);
    const paired = report.pairedByModel;
    expect(paired?.models[HAIKU]).toMatchObject({
      label: 'improvement',
      positives: { base: { hits: 0, runs: 6 }, cand: { hits: 6, runs: 6 }, label: 'improvement' },
      negatives: { base: { hits: 0, runs: 2 }, cand: { hits: 0, runs: 2 }, label: 'noise' },
    });
    expect(paired?.models[SONNET]).toMatchObject({
      label: 'regression',
      positives: { base: { hits: 6, runs: 6 }, cand: { hits: 0, runs: 6 }, label: 'regression' },
    });
    expect(paired?.label).toBe('regression');
    // Each model ran as often on both sides, so the pooled label is kept, and says what it pools.
    expect(paired?.pooled).toEqual({ label: 'noise', models: [HAIKU, SONNET] });

    expect(r.stdout).toContain(`== model ${HAIKU} ==`);
    expect(r.stdout).toContain(`== model ${SONNET} ==`);
    expect(r.stdout).toContain(
      `  ${SONNET}: positives triggered 6/6 → 0/6 (regression) · negatives fired 0/2 → 0/2 (noise) · regression`,
    );
    expect(r.stdout).toContain(`pooled over ${HAIKU} + ${SONNET} (their runs together`);
    expect(r.stdout).toMatch(
      /^overall: regression \(a regression on any model is the skill’s regression\)$/m,
    );
    expect(markdown).toContain('## Baseline vs candidate, by model');
    expect(markdown).toContain(`| ${SONNET} | 6/6 → 0/6 | regression | 0/2 → 0/2 | noise | **regression** |`);
    expect(markdown).toContain('- **Overall: regression**');
  }, 300_000);
});
