import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/cost/cost.js';
import { at, byClass, byTag, parsePage, textOf } from '../fakes/html-dom.js';
import {
  GOOD,
  type ImproveResult,
  type ImproveScenario,
  measuredIn,
  rewritePromptsIn,
  runsOf,
  SKILL_MD,
  startImproveScenario,
  USELESS,
} from '../fakes/improve-scenario.js';

/**
 * `improve` sessions stopped short, through the real claude binary against the simulated model
 * (../fakes/improve-scenario.ts): by a signal during the original's or a candidate's measurement,
 * and by `--max-cost-usd`, before any run or mid-session. Each still writes what it measured, with
 * no verdict, and never touches SKILL.md.
 */
let scenario: ImproveScenario;

beforeAll(async () => {
  scenario = await startImproveScenario('improve-stop-e2e');
});

afterAll(async () => {
  await scenario?.world.close();
});

describe('improve stopped by SIGTERM', () => {
  it("during the original's measurement: exit 3, an improve report with the runs so far and the reason", async () => {
    scenario.rewrites([GOOD]);
    const { r, report, markdown, skillAfter, measured, rewritePrompts } = await scenario.improve(
      'sigterm-original',
      ['--iterations', '2', '--write'],
      { stopWhen: (since) => measuredIn(since).length >= 3 },
    );
    expect(r.code).toBe(3);
    if (report === undefined) throw new Error(`no improve report: ${r.stderr}`);
    expect(r.stdout).toMatch(/^NO VERDICT — this is not a measurement: interrupted: /m);
    expect(report.interrupted).toBe(true);
    expect(report.stopReason).toMatch(/^interrupted: stopped by a signal/);
    expect(report.candidates).toEqual([]);
    expect(rewritePrompts).toHaveLength(0);
    expect(report.final).toEqual({
      winner: null,
      holdout: null,
      recommendation: 'no-verdict',
      written: false,
    });
    // The runs finished before the signal are in the report (of the three seen, the last was still
    // running when the signal came, and a run cut short is not recorded), fewer than planned.
    const counted = runsOf(report.original.train) + runsOf(report.original.holdout);
    expect(counted).toBeGreaterThanOrEqual(2);
    expect(counted).toBeLessThan(18);
    expect(counted).toBeLessThanOrEqual(measured.length);
    expect(markdown).toContain('interrupted: stopped by a signal');
    expect(skillAfter).toBe(SKILL_MD);
  }, 600_000);

  it("during a candidate's measurement: the original's figures, the candidate not judged on its runs so far", async () => {
    scenario.rewrites([GOOD, USELESS]);
    // One run a query: the original's figures only have to be whole, and the runs are strictly
    // serial, so the signal after the candidate's third request leaves its 8 planned runs cut short.
    const { r, report, skillAfter, rewritePrompts } = await scenario.improve(
      'sigterm-candidate',
      ['--iterations', '2', '--write'],
      {
        runs: 1,
        stopWhen: (since) => {
          const asked = since.findIndex((q) => rewritePromptsIn([q]).length > 0);
          return asked >= 0 && measuredIn(since.slice(asked)).length >= 3;
        },
      },
    );
    expect(r.code).toBe(3);
    if (report === undefined) throw new Error(`no improve report: ${r.stderr}`);
    expect(report.interrupted).toBe(true);
    expect(report.stopReason).toMatch(/^interrupted: /);
    expect(report.original.train).toEqual({
      positives: { hits: 0, runs: 2 },
      negatives: { hits: 0, runs: 2 },
    });
    expect(rewritePrompts).toHaveLength(1);
    expect(report.candidates).toHaveLength(1);
    const [candidate] = report.candidates;
    expect(candidate).toMatchObject({
      description: GOOD,
      proposal: 'measured',
      decision: 'rejected',
      reason: 'not judged: the session was interrupted during its measurement',
      label: 'no-verdict',
    });
    const paired = runsOf(candidate?.train?.incumbent) + runsOf(candidate?.train?.candidate);
    expect(paired).toBeGreaterThanOrEqual(2);
    expect(paired).toBeLessThan(8);
    // An unchecked winner is never written.
    expect(report.final).toMatchObject({ recommendation: 'no-verdict', written: false });
    expect(skillAfter).toBe(SKILL_MD);
  }, 600_000);
});

describe('improve --max-cost-usd', () => {
  // Input tokens only, at a price that makes every token count; a padded query makes a measured
  // run dearer than the round trip the estimate starts from, so the session overruns it. The
  // padding (about 10,000 tokens, as much again as the round trip) makes a run cost about twice the
  // estimate's, so the budget runs out some runs into the candidate's measurement, after the
  // original's 18 runs and the rewrite call, rather than near the end of the 54.
  const pad = ` · ${'the session notes '.repeat(2300)}`;
  let prices: string;
  /** The session refused at $0.01: its estimate is what the mid-session stop is given as budget. */
  let refused: ImproveResult;
  const flags = (usd: string) => [
    '--iterations',
    '1',
    '--model',
    'claude-haiku-4-5',
    '--prices',
    prices,
    '--max-cost-usd',
    usd,
  ];
  beforeAll(async () => {
    prices = path.join(scenario.world.work, 'prices.json');
    await writeFile(
      prices,
      JSON.stringify({
        source: 'test rates',
        asOf: '2026-12-01',
        models: { 'claude-haiku-4-5': { input: 1000, output: 0, cacheWrite: 0, cacheRead: 0 } },
      }),
    );
    scenario.rewrites([GOOD]);
    refused = await scenario.improve('budget-refused', flags('0.01'), { pad });
  }, 300_000);

  it('refuses a session estimated above the budget before any run, saying what the budget buys', () => {
    const { r, report, measured, rewritePrompts } = refused;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the improve session is estimated at \$[\d.]+ \(54 measured runs at most, \$[\d.]+, and a rewrite call at about \$[\d.]+\), more than --max-cost-usd \$0\.0100, which buys about 0 measured runs: not even the original's measurement \(18 runs\); nothing was measured/,
    );
    expect(measured).toHaveLength(0);
    expect(rewritePrompts).toHaveLength(0);
    expect(report).toBeUndefined();
  });

  it('stops mid-session when the next run would pass it: no verdict, exit 3, the report written, SKILL.md untouched', async () => {
    scenario.rewrites([GOOD]);
    const estimate = Number(/the improve session is estimated at \$([\d.]+)/.exec(refused.r.stderr)?.[1]);
    expect(estimate).toBeGreaterThan(1);
    const max = estimate + 0.01;
    const { r, report, markdown, page, skillAfter, measured, rewritePrompts } = await scenario.improve(
      'budget-stop',
      [...flags(max.toFixed(2)), '--write'],
      { pad },
    );
    expect(r.code).toBe(3);
    if (report === undefined) throw new Error(`no improve report: ${r.stderr}`);
    expect(r.stdout).toMatch(/^NO VERDICT — this is not a measurement: budget: /m);
    expect(report.stopReason).toMatch(/^budget: stopped before a measured run/);
    expect(report.final.recommendation).toBe('no-verdict');
    expect(report.final.written).toBe(false);
    expect(skillAfter).toBe(SKILL_MD);
    expect(report.settings.maxCostUsd).toBeCloseTo(max, 6);
    // Within the budget, and stopped because the next run could have passed it.
    const stop = report.budgetStop;
    expect(stop?.maxUsd).toBeCloseTo(max, 6);
    expect(report.cost?.usd).toBeLessThanOrEqual(max + 1e-9);
    expect((report.cost?.usd ?? 0) + (stop?.nextEstimateUsd ?? 0)).toBeGreaterThan(max - 1e-9);
    expect(report.cost?.rewriteCalls).toBe(rewritePrompts.length);
    // What was measured is in the report: every measured run the model answered is counted there.
    const counted =
      runsOf(report.original.train) +
      runsOf(report.original.holdout) +
      report.candidates.reduce((n, c) => n + runsOf(c.train?.incumbent) + runsOf(c.train?.candidate), 0) +
      runsOf(report.final.holdout?.original) +
      runsOf(report.final.holdout?.winner);
    expect(measured.length).toBe(counted);
    expect(counted).toBeLessThan(54);
    console.log(
      `budget-stop: ${counted} measured runs, ${rewritePrompts.length} rewrite calls; ${report.stopReason}`,
    );

    // The page the run wrote says the no verdict, the stop, and the cost the JSON holds, of its budget.
    const cost = report.cost;
    if (cost === undefined) throw new Error('the budget-stopped session has no cost');
    const recommendation = at(byTag(parsePage(page), 'section'), 0);
    expect(textOf(at(byClass(recommendation, 'headline'), 0))).toMatch(/^No verdict: --max-cost-usd stopped/);
    expect(byTag(recommendation, 'p').map((p) => textOf(p))).toContain(`Stopped: ${report.stopReason}.`);
    const line = `Cost: ${formatUsd(cost.usd)} of --max-cost-usd ${formatUsd(report.settings.maxCostUsd ?? Number.NaN)} (measured runs ${formatUsd(cost.measuredUsd)}; ${cost.rewriteCalls} rewrite call${cost.rewriteCalls === 1 ? '' : 's'} ${formatUsd(cost.rewriteUsd)}).`;
    expect(byClass(recommendation, 'cost').map((p) => textOf(p))).toEqual([line]);
    expect(markdown).toContain(`\n${line}\n`);
    expect(r.stdout.split('\n')).toContain(line);
  }, 600_000);
});
