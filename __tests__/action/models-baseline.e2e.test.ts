import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/cost/cost.js';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { type ActionWorld, actionLog, actionVerdicts, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import {
  type ActionResult,
  evalsJson,
  pullRequestPayload,
  pushPayload,
  runAction,
  skillFile,
} from './harness.js';

/**
 * Several models, their cost and the budget on the Action's side, through `node dist/index.js`, the
 * real claude and the simulated model: (1) a push records a two-model baseline; a PR whose
 * description helps one model and breaks the other gets a comment with a column per model and the
 * model-by-model comparison, and fails the check on the model that regressed; (2) `max-cost-usd`
 * below the job's estimate refuses before any measured run; (3) a budget the estimate fits but the
 * runs pass stops the job mid-run (exit 3, reason `budget`), with the spend counted across the
 * job's skills.
 */

const HAIKU = 'claude-haiku-4-5';
const SONNET = 'claude-sonnet-4-5';
const TOKEN = 'ghs_actions_token_for_models_baseline';
const KEY = 'sk-ant-models-baseline-key-2f81c3';
const HANDOFF = '.claude/skills/handoff/SKILL.md';
const BASE_TEXT = 'Write HANDOFF.md so a fresh session can resume. Use when ending a session.';
/** The head's text: the marker `goodbye` is what the script tells the two sides apart by. */
const HEAD_TEXT = 'Write HANDOFF.md so a fresh session can resume. Use when the user says goodbye.';
/** How often each model loads the stub on a handoff positive, per side: haiku improves, sonnet breaks. */
const P_LOAD: Record<'base' | 'head', Record<string, number>> = {
  base: { [HAIKU]: 0.25, [SONNET]: 1 },
  head: { [HAIKU]: 1, [SONNET]: 0 },
};
const PRICES = '.github/skilltrigger-prices.json';
/** Input tokens only, at a rate that makes every token count (US dollars per million tokens). */
const INPUT_RATE = 1000;
/** A long query: a measured run of it costs far more than the round trip the estimate starts from. */
const PAD = 'the session notes '.repeat(200);

let world: ActionWorld;
const commits: Record<string, string> = {};

beforeAll(async () => {
  world = await startActionWorld({
    name: 'models-baseline-e2e',
    seed: 14,
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: (req, ctx) => {
      if (req.query === GATE_QUERY) return undefined;
      if (req.query.startsWith('late load')) return { kind: 'late-skill' };
      if (req.query.startsWith('handoff pos')) {
        const side = req.stub?.description.includes('goodbye') ? 'head' : 'base';
        const p = P_LOAD[side][req.model] ?? 0;
        return ctx.random() < p ? { kind: 'skill' } : { kind: 'text' };
      }
      return { kind: 'text' };
    },
  });
  const { repo } = world;
  commits.c0 = await repo.commit('Initial', { 'README.md': '# skills\n' });
  commits.c1 = await repo.commit('Add handoff', {
    [HANDOFF]: skillFile('handoff', BASE_TEXT),
    '.claude/skills/handoff/evals.json': evalsJson([
      { query: 'handoff pos 1: write the handoff notes', should_trigger: true },
      { query: 'handoff pos 2: I am done for today, hand off', should_trigger: true },
      { query: 'handoff pos 3: save where we are for tomorrow', should_trigger: true },
      { query: 'handoff neg 1: what is the capital of France', should_trigger: false },
    ]),
  });
  commits.c2 = await repo.commit('Add alpha and beta, and a price table', {
    'skills/alpha/SKILL.md': skillFile('alpha', 'Draft release notes. Use when asked for release notes.'),
    'skills/alpha/evals.json': evalsJson([
      { query: 'budget alpha 1: draft the notes', should_trigger: true },
      { query: 'budget alpha 2: rename a variable', should_trigger: false },
    ]),
    'skills/beta/SKILL.md': skillFile('beta', 'Summarise a meeting. Use when asked for meeting minutes.'),
    'skills/beta/evals.json': evalsJson([
      { query: `budget beta 1: ${PAD}`, should_trigger: true },
      { query: `budget beta 2: ${PAD}`, should_trigger: true },
      { query: `budget beta 3: ${PAD}`, should_trigger: false },
    ]),
    [PRICES]: `${JSON.stringify({
      source: 'test rates',
      asOf: '2026-12-01',
      models: { [HAIKU]: { input: INPUT_RATE, output: 0, cacheWrite: 0, cacheRead: 0 } },
    })}\n`,
  });
});

afterAll(async () => {
  await world?.close();
});

/** The first turns the simulated model answered from request `from` on, for queries starting with `prefix`. */
function firstTurns(from: number, prefix: string) {
  return world.model.requests
    .slice(from)
    .filter((r) => r.turn === 1 && r.usage && r.view?.query.startsWith(prefix));
}

async function reportsOf(result: ActionResult): Promise<Report[]> {
  const files = (result.outputs.reports ?? '').split('\n').filter(Boolean);
  return Promise.all(files.map(async (f) => reportSchema.parse(JSON.parse(await readFile(f, 'utf8')))));
}

/** The inputs every run here gives: the key, the token, the real claude. */
const CREDENTIALS = { 'anthropic-api-key': KEY, 'github-token': TOKEN, 'claude-path': CLAUDE_BIN };

const comment = (pr: number) => world.github.comments(pr)[0]?.body ?? '';

describe('a baseline and two models', () => {
  /**
   * Sonnet's fall is deterministic (the script loads the stub always on the base text, never on
   * the head's), so at 2 runs it is 6/6 → 0/6 over the 3 positives: the exact test stratified by
   * query gives (1/6)³ ≈ 0.005, and 6 hits is past the 2-hit noise band — a regression for the
   * same reason as at 3 runs (9/9 → 0/9), with a third fewer claude runs.
   */
  const runs = 2;
  const models = `${HAIKU}, ${SONNET}`;
  /** Per model, the hits the simulated model decided on the handoff positives: [push, PR]. */
  const decided: Record<string, number[]> = { [HAIKU]: [], [SONNET]: [] };
  const hitsBy = (from: number, to: number, m: string) =>
    firstTurns(from, 'handoff pos')
      .filter((r) => world.model.requests.indexOf(r) < to && r.view?.model === m)
      .filter((r) => r.behaviour?.kind === 'skill').length;

  it('a push measures both models and saves the report as the baseline', { timeout: 300_000 }, async () => {
    const from = world.model.requests.length;
    const entries = world.cache.entries.length;
    world.repo.checkout(commits.c1 ?? '');
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'push',
      payload: pushPayload({ before: commits.c0 ?? '', after: commits.c1 ?? '' }),
      inputs: {
        ...CREDENTIALS,
        models,
        runs: String(runs),
        competition: 'isolated',
      },
      env: world.env({ GITHUB_SHA: commits.c1 ?? '' }),
    });
    expect(result.code, actionLog(result)).toBe(0);
    expect(actionVerdicts(result).handoff).toMatchObject({ standing: 'measured' });
    expect(world.cache.entries.length).toBe(entries + 1);
    const [report] = await reportsOf(result);
    expect(report?.settings.models).toEqual([HAIKU, SONNET]);
    const to = world.model.requests.length;
    for (const m of [HAIKU, SONNET]) {
      const hits = hitsBy(from, to, m);
      decided[m]?.push(hits);
      expect(report?.candidate.byModel?.[m]?.totals.positives).toEqual({ triggered: hits, runs: 3 * runs });
    }
    // Sonnet loads the base description every time: the baseline it will be held to.
    expect(decided[SONNET]?.[0]).toBe(3 * runs);
  });

  it('a PR that breaks one model fails the check on it, one column per model in the comment', {
    timeout: 300_000,
  }, async () => {
    await world.freshJob();
    world.repo.checkout(commits.c1 ?? '');
    world.repo.git('checkout', '-q', '-b', 'reword');
    commits.head = await world.repo.commit('Reword handoff', { [HANDOFF]: skillFile('handoff', HEAD_TEXT) });
    const from = world.model.requests.length;
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 21,
        baseSha: commits.c1 ?? '',
        headSha: commits.head,
        headRef: 'reword',
      }),
      inputs: {
        ...CREDENTIALS,
        models,
        runs: String(runs),
        competition: 'isolated',
        'fail-on-regression': 'true',
      },
      env: world.env({ GITHUB_SHA: commits.head, GITHUB_REF: 'refs/pull/21/merge' }),
    });
    const to = world.model.requests.length;
    for (const m of [HAIKU, SONNET]) decided[m]?.push(hitsBy(from, to, m));
    const [haikuBase = -1, haikuHead = -1] = decided[HAIKU] ?? [];
    const [sonnetBase = -1, sonnetHead = -1] = decided[SONNET] ?? [];
    expect(sonnetHead).toBe(0);
    expect(haikuHead).toBe(3 * runs);

    // The cached baseline, compared model by model: sonnet regressed, so the skill did.
    expect(result.code, actionLog(result)).toBe(1);
    expect(actionVerdicts(result).handoff).toMatchObject({ standing: 'regression', baseline: 'cache' });
    expect(result.failure).toMatch(
      /^regression in 1 skill: handoff \(.*SKILL\.md:\d+\): .*regressed on claude-sonnet-4-5$/,
    );
    expect(result.failure).not.toMatch(/regressed on [^;]*claude-haiku-4-5/);

    const body = comment(21);
    const n = 3 * runs;
    const pct = (h: number) => `${Math.round((100 * h) / n)}%`;
    expect(body).toContain('Model by model:');
    expect(body).toContain(
      `| claude-sonnet-4-5 | ${sonnetBase}/${n} (${pct(sonnetBase)}) → 0/${n} (0%) | −100 pp | **regression** |`,
    );
    expect(body).toContain(`| claude-haiku-4-5 | ${haikuBase}/${n} (${pct(haikuBase)}) → ${n}/${n} (100%) |`);
    // The per-query table: a column per model, baseline → this PR and that model's own label, from
    // the two reports; no pooled Baseline, This PR or Label column.
    expect(body).toContain(
      '| Id | Query | Should load | claude-haiku-4-5: baseline → This PR | claude-sonnet-4-5: baseline → This PR |',
    );
    const [report] = await reportsOf(result);
    const q1 = report?.candidate.queries.find((q) => q.query.startsWith('handoff pos 1'));
    expect(q1?.byModel?.[SONNET]).toMatchObject({ hits: 0, runs });
    expect(body).toMatch(
      new RegExp(
        `\\| \\d+/${runs} → ${runs}/${runs} · (noise|improvement) \\| \\d+/${runs} → 0/${runs} · (noise|\\*\\*regression\\*\\*) \\|`,
      ),
    );
    // The footer names both models and the job's cost.
    expect(body).toMatch(
      new RegExp(`· claude-haiku-4-5, claude-sonnet-4-5 · ${runs} runs per query · cost \\$[\\d.]+ \\(`),
    );
  });
});

describe('max-cost-usd over the whole job', () => {
  let estimateUsd = 0;
  const prInputs = (maxCostUsd: string) => ({
    ...CREDENTIALS,
    model: HAIKU,
    runs: '1',
    competition: 'isolated',
    baseline: 'measure',
    prices: PRICES,
    'max-cost-usd': maxCostUsd,
  });
  const runPr = async (maxCostUsd: string) => {
    await world.freshJob();
    world.repo.checkout(commits.budgetHead ?? '');
    return runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 22,
        action: 'synchronize',
        baseSha: commits.c2 ?? '',
        headSha: commits.budgetHead ?? '',
        headRef: 'budget',
      }),
      inputs: prInputs(maxCostUsd),
      env: world.env({ GITHUB_SHA: commits.budgetHead ?? '', GITHUB_REF: 'refs/pull/22/merge' }),
    });
  };

  beforeAll(async () => {
    world.repo.checkout(commits.c2 ?? '');
    world.repo.git('checkout', '-q', '-b', 'budget');
    commits.budgetHead = await world.repo.commit('Reword alpha and beta', {
      'skills/alpha/SKILL.md': skillFile('alpha', 'Draft release notes. Use when a release is cut.'),
      'skills/beta/SKILL.md': skillFile('beta', 'Summarise a meeting. Use when a meeting ends.'),
    });
  });

  it('an estimate above the budget refuses before any measured run, saying what it buys', {
    timeout: 300_000,
  }, async () => {
    const from = world.model.requests.length;
    const result = await runPr('0.0001');
    expect(result.code, actionLog(result)).toBe(1);
    // The estimate: both skills paired (base and head measured here), 2 + 3 queries × 1 run × 2 sides,
    // each run priced as the round trip's uncached input tokens (the only priced kind).
    const gate = world.model.requests
      .slice(from)
      .filter((r) => r.turn === 1 && r.usage && r.view?.query === GATE_QUERY && r.view.model === HAIKU);
    expect(gate).toHaveLength(1);
    estimateUsd = (10 * (gate[0]?.usage?.input ?? 0) * INPUT_RATE) / 1e6;
    expect(estimateUsd).toBeGreaterThan(0);
    expect(result.stdout).toContain(`estimate: 10 runs over 2 skills, ${formatUsd(estimateUsd)}`);
    expect(result.failure).toBe(
      `input max-cost-usd: the job's plan is estimated at ${formatUsd(estimateUsd)} for 10 runs, more than max-cost-usd $0.0001, which buys about 0 of them; nothing was measured. Fix: raise max-cost-usd, or plan fewer runs (runs, fewer queries, models or skills)`,
    );
    // Nothing measured: no eval query reached the model.
    expect(firstTurns(from, 'budget')).toHaveLength(0);
    // Only the round trip reached the model: not even the listing probe ran.
    expect([...new Set(world.model.requests.slice(from).map((r) => r.view?.query))]).toEqual([GATE_QUERY]);
    expect(actionVerdicts(result)).toMatchObject({
      alpha: { standing: 'not-measured' },
      beta: { standing: 'not-measured' },
    });
    const body = comment(22);
    expect(body).toContain('**Nothing was measured: the estimate passes max-cost-usd $0.0001.**');
    expect(body).toContain('which buys about 0 of them; nothing was measured');

    // A budget of 55% of the estimate buys 5 of its 10 runs (each run estimated alike here).
    const again = world.model.requests.length;
    const half = await runPr((estimateUsd * 0.55).toFixed(6));
    expect(half.code, actionLog(half)).toBe(1);
    expect(half.failure).toContain('for 10 runs, more than max-cost-usd');
    expect(half.failure).toContain('which buys about 5 of them; nothing was measured');
    expect(firstTurns(again, 'budget')).toHaveLength(0);
  });

  it('a budget the runs pass stops the job mid-run: exit 3, reason budget, the spend counted over both skills', {
    timeout: 300_000,
  }, async () => {
    expect(estimateUsd).toBeGreaterThan(0);
    const max = estimateUsd + 0.01;
    const from = world.model.requests.length;
    const result = await runPr(max.toFixed(6));
    expect(result.code, actionLog(result)).toBe(3);
    expect(result.stdout).toContain(`estimate: 10 runs over 2 skills, ${formatUsd(estimateUsd)}`);
    const reports = await reportsOf(result);
    const alpha = reports.find((r) => r.skill === 'alpha');
    const beta = reports.find((r) => r.skill === 'beta');
    // Alpha (short queries) fits; beta's long queries pass the budget, so the job stops inside beta.
    expect(alpha?.verdict).toBe('ok');
    expect(alpha?.candidate.budgetStop).toBeUndefined();
    expect(beta?.verdict).toBe('no-verdict');
    const stop = beta?.candidate.budgetStop;
    expect(stop?.maxUsd).toBeCloseTo(max, 6);
    expect(beta?.candidate.noVerdictReasons[0]).toMatch(/^budget: /);
    // In the Action's words: the max-cost-usd input and the job's spend, never the CLI's flag.
    const actionWords =
      "budget: stopped before a run that could take the job's spend past the max-cost-usd input, ";
    expect(beta?.candidate.noVerdictReasons[0]).toContain(actionWords);
    expect(beta?.candidate.noVerdictReasons[0]).toContain('spent by the job so far');
    expect(beta?.candidate.noVerdictReasons[0]).not.toContain('--max-cost-usd');
    const costOf = (r: Report | undefined) => (r?.candidate.cost?.usd ?? 0) + (r?.baseline?.cost?.usd ?? 0);
    // The spend the stop saw is the job's: alpha's runs and beta's, not beta's alone.
    expect(costOf(alpha)).toBeGreaterThan(0);
    expect(stop?.spentUsd).toBeCloseTo(costOf(alpha) + costOf(beta), 9);
    expect((stop?.spentUsd ?? 0) + (stop?.nextEstimateUsd ?? 0)).toBeGreaterThan(max);
    const betaRuns = (beta?.candidate.totals.executed ?? 0) + (beta?.baseline?.totals.executed ?? 0);
    expect(betaRuns).toBeGreaterThan(0);
    expect(betaRuns).toBeLessThan(6);
    expect(firstTurns(from, 'budget beta')).toHaveLength(betaRuns);
    expect(firstTurns(from, 'budget alpha')).toHaveLength(4);

    expect(result.failure).toMatch(/^no verdict for beta: budget: stopped before a run/);
    expect(actionVerdicts(result)).toMatchObject({
      alpha: { standing: 'noise' },
      beta: { standing: 'no-verdict' },
    });
    const body = comment(22);
    expect(body).toContain('**No verdict: this is not a measurement.** budget: stopped before a run');
    expect(body).toContain(actionWords);
    expect(body).not.toContain('--max-cost-usd');
    expect(result.summary).toContain(actionWords);
    expect(result.summary).not.toContain('--max-cost-usd');
    expect(result.failure).not.toContain('--max-cost-usd');
    expect(body).toMatch(
      /The job stopped at max-cost-usd \\?\$[\d.]+ with \\?\$[\d.]+ spent, before a run that could pass it\./,
    );
    expect(body).toContain(`· max-cost-usd ${formatUsd(max)}.`);
  });
});

describe('late and prices', () => {
  const prPayload = (number: number, head: string, headRef: string) =>
    pullRequestPayload({ number, baseSha: commits.c2 ?? '', headSha: head, headRef });

  it('late: a miss that loads the skill a turn later is counted apart, and the comment says so', {
    timeout: 300_000,
  }, async () => {
    await world.freshJob();
    world.repo.checkout(commits.c2 ?? '');
    world.repo.git('checkout', '-q', '-b', 'late');
    const head = await world.repo.commit('Add gamma', {
      'skills/gamma/SKILL.md': skillFile('gamma', 'Tidy the changelog. Use when asked to tidy CHANGELOG.md.'),
      'skills/gamma/evals.json': evalsJson([
        { query: 'late load 1: tidy the changelog', should_trigger: true },
        { query: 'late plain 2: tidy it up', should_trigger: true },
        { query: 'late plain 3: rename a variable', should_trigger: false },
      ]),
    });
    const from = world.model.requests.length;
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: prPayload(23, head, 'late'),
      inputs: {
        ...CREDENTIALS,
        runs: '1',
        late: '2',
        baseline: 'none',
        competition: 'isolated',
      },
      env: world.env({ GITHUB_SHA: head, GITHUB_REF: 'refs/pull/23/merge' }),
    });
    expect(result.code, actionLog(result)).toBe(0);
    const [report] = await reportsOf(result);
    expect(report?.settings.lateTurns).toBe(2);
    const m = report?.candidate;
    // Late loads are what the model did a turn after the deciding message; never hits.
    const lateRuns = firstTurns(from, 'late load').filter((r) => r.behaviour?.kind === 'late-skill').length;
    expect(lateRuns).toBe(1);
    expect(m?.totals.late).toBe(lateRuns);
    expect(m?.totals.positives.triggered).toBe(0);
    const misses = (m?.queries ?? []).reduce((n, q) => n + (q.runs - q.hits), 0);
    expect(misses).toBe(3);
    expect(comment(23)).toContain(
      `${lateRuns} of ${misses} misses loaded the skill later (counted apart: never a hit)`,
    );
    expect(result.summary).toContain(`${lateRuns} of ${misses} misses loaded the skill later`);
  });

  it('a prices file that is no price table fails before the gates, naming the input, file and entry', {
    timeout: 120_000,
  }, async () => {
    await world.freshJob();
    world.repo.checkout(commits.c2 ?? '');
    world.repo.git('checkout', '-q', '-b', 'bad-prices');
    const head = await world.repo.commit('Break the price table', {
      [PRICES]: JSON.stringify({ source: 's', asOf: '2026-12-01', models: { [HAIKU]: { input: 1 } } }),
      'skills/alpha/SKILL.md': skillFile('alpha', 'Draft release notes. Use when notes are due.'),
    });
    const from = world.model.requests.length;
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: prPayload(24, head, 'bad-prices'),
      inputs: {
        ...CREDENTIALS,
        prices: PRICES,
        'max-cost-usd': '5',
      },
      env: world.env({ GITHUB_SHA: head, GITHUB_REF: 'refs/pull/24/merge' }),
    });
    expect(result.code, actionLog(result)).toBe(1);
    expect(result.failure).toContain(
      `input prices: ${PRICES}: not a valid price table: at models.${HAIKU}.output`,
    );
    expect(result.annotations).toContainEqual(
      expect.objectContaining({ level: 'error', properties: expect.objectContaining({ file: PRICES }) }),
    );
    // Nothing spent: not even the round trip.
    expect(world.model.requests.length).toBe(from);
    expect(result.stdout).not.toContain('Gate: ');
  });
});
