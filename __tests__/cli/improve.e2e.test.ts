import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/cost/cost.js';
import { improveReportSchema } from '../../src/shapes/improve.js';
import {
  authorPromptKind,
  type DescriptionRuleOptions,
  descriptionRule,
} from '../../src/simulated/description-script.js';
import type { RecordedRequest, SimulatedModel } from '../../src/simulated/model.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { at, byClass, byTag, parsePage, textOf } from '../fakes/html-dom.js';

/**
 * `improve` through the real claude binary against the simulated model, with scripted rewrites
 * whose true rates are known: a greedy one (loads on everything), a good one (positives only),
 * a useless one (no better than the incumbent).
 */
const INCUMBENT = 'Helps with notes.';
const GREEDY = 'Use for absolutely every request about anything at all.';
const GOOD = 'Writes the session handoff note so the next session can resume.';
/** No better than the incumbent it meets (the good one, by then): the same true rates. */
const USELESS = 'Writes the handoff note for the next session.';

/** True rates per description: [positives, negatives]. */
const RATES: Record<string, readonly [number, number]> = {
  [INCUMBENT]: [0, 0],
  [GREEDY]: [1, 1],
  [GOOD]: [1, 0],
  [USELESS]: [1, 0],
};

const TRAIN_POS = ['alpha train wanted one', 'alpha train wanted two'];
const TRAIN_NEG = ['alpha train unwanted one', 'alpha train unwanted two'];
const HOLD_POS = 'omega held wanted';
const HOLD_NEG = 'omega held unwanted';
const POSITIVES = new Set([...TRAIN_POS, HOLD_POS]);

const SKILL_MD = `---
name: handoff
description: >
  ${INCUMBENT}
license: MIT # a comment that must survive
---

# handoff

Body text, byte for byte: "quotes", tabs\there, trailing spaces   
description: this body line is not the frontmatter
`;

let world: CliWorld;
let work: string;
let model: SimulatedModel;
let claude: ClaudeEnv;
let rewrites: string[] = [];

const rule: DescriptionRuleOptions = {
  rate: (description, query) => {
    const rates = RATES[description];
    if (rates === undefined) return undefined;
    // A query may carry a padding after its text (the budget test): it is the text that counts.
    return [...POSITIVES].some((p) => query.startsWith(p)) ? rates[0] : rates[1];
  },
  // The n-th proposal of a session: the prompt lists the earlier ones (each is measured here).
  rewrite: (prompt) =>
    `Here is my proposal.\n<new_description>${rewrites[prompt.attempts.length] ?? USELESS}</new_description>`,
};

beforeAll(async () => {
  world = await startCliWorld({
    name: 'improve-e2e',
    model: {
      seed: 13,
      recordBodies: true,
      chunkDelayMs: 1,
      script: (req, ctx) => descriptionRule(rule)(req, ctx),
    },
  });
  ({ work, model, claude } = world);
});

afterAll(async () => {
  await world?.close();
});

async function setUp(name: string, pad = ''): Promise<{ dir: string; evalFile: string; out: string }> {
  const dir = path.join(work, name, 'handoff');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'SKILL.md'), SKILL_MD);
  const evalFile = path.join(work, name, 'evals.json');
  await writeFile(
    evalFile,
    JSON.stringify([
      ...TRAIN_POS.map((query) => ({ query: `${query}${pad}`, should_trigger: true })),
      ...TRAIN_NEG.map((query) => ({ query: `${query}${pad}`, should_trigger: false })),
      { query: `${HOLD_POS}${pad}`, should_trigger: true, split: 'holdout' },
      { query: `${HOLD_NEG}${pad}`, should_trigger: false, split: 'holdout' },
    ]),
  );
  return { dir, evalFile, out: path.join(work, name, 'out') };
}

/** Measured first-turn requests (`alpha …`/`omega …` queries with the stub) among these. */
const measuredIn = (requests: readonly RecordedRequest[]) =>
  requests.filter((q) => q.turn === 1 && q.view?.stub !== undefined && /^(alpha|omega) /.test(q.view.query));

/**
 * `stopWhen` sends the CLI one SIGTERM as soon as it holds for the requests the model got since the
 * start (polled every 50 ms).
 */
async function improve(
  name: string,
  extra: string[],
  pad = '',
  stopWhen?: (since: readonly RecordedRequest[]) => boolean,
) {
  const { dir, evalFile, out } = await setUp(name, pad);
  const before = model.requests.length;
  let poll: NodeJS.Timeout | undefined;
  const r = await runCli(
    [
      'improve',
      '--skill',
      dir,
      '--eval',
      evalFile,
      '--runs',
      '3',
      '--out',
      out,
      '--claude',
      CLAUDE_BIN,
      ...extra,
    ],
    {
      env: claude.env,
      onStart: (child) => {
        if (!stopWhen) return;
        poll = setInterval(() => {
          if (!stopWhen(model.requests.slice(before))) return;
          clearInterval(poll);
          child.kill('SIGTERM');
        }, 50);
      },
    },
  );
  clearInterval(poll);
  const files = await readdir(out).catch(() => [] as string[]);
  const json = files.find((f) => f.endsWith('-improve.json'));
  const md = files.find((f) => f.endsWith('-improve.md'));
  const html = files.find((f) => f.endsWith('-improve.html'));
  const report =
    json === undefined
      ? undefined
      : improveReportSchema.parse(JSON.parse(await readFile(path.join(out, json), 'utf8')));
  const markdown = md === undefined ? '' : await readFile(path.join(out, md), 'utf8');
  const page = html === undefined ? '' : await readFile(path.join(out, html), 'utf8');
  const skillAfter = await readFile(path.join(dir, 'SKILL.md'), 'utf8');
  const rewritePrompts = model.requests
    .slice(before)
    .filter((q) => q.turn === 1 && q.view !== undefined && authorPromptKind(q.view.query) === 'rewrite');
  const measured = measuredIn(model.requests.slice(before));
  return { r, report, markdown, page, skillAfter, rewritePrompts, measured };
}

describe('improve', () => {
  it('rejects the greedy rewrite on its negatives, accepts the good one, rejects the useless one; SKILL.md untouched', async () => {
    rewrites = [GREEDY, GOOD, USELESS];
    const { r, report, markdown, skillAfter, rewritePrompts } = await improve('choose', [
      '--iterations',
      '3',
    ]);
    expect(r.stderr).toMatch(/improve: iteration 1\/3 · asking for a rewrite/);
    expect(r.code).toBe(0);
    if (report === undefined) throw new Error(`no improve report: ${r.stderr}`);
    const [greedy, good, useless] = report.candidates;
    expect(report.candidates).toHaveLength(3);
    expect(greedy).toMatchObject({ description: GREEDY, decision: 'rejected', label: 'regression' });
    expect(greedy?.reason).toMatch(/regression on train: negatives fired 0\/6 → 6\/6/);
    expect(good).toMatchObject({ description: GOOD, decision: 'accepted', label: 'improvement' });
    expect(good?.pValue).toBeLessThan(report.settings.proposalAlpha / 2);
    expect(useless).toMatchObject({ description: USELESS, decision: 'rejected', label: 'noise' });
    // The useless one was judged against the new incumbent, the good one.
    expect(useless?.train?.incumbent.positives).toEqual({ hits: 6, runs: 6 });
    expect(report.stopReason).toBe('reached --iterations 3');
    // Train and holdout apart: 2+2 train, 1+1 holdout, 3 runs a query.
    expect(report.queries).toEqual({
      train: { positives: 2, negatives: 2 },
      holdout: { positives: 1, negatives: 1 },
    });
    expect(report.original.train).toEqual({
      positives: { hits: 0, runs: 6 },
      negatives: { hits: 0, runs: 6 },
    });
    expect(report.original.holdout).toEqual({
      positives: { hits: 0, runs: 3 },
      negatives: { hits: 0, runs: 3 },
    });
    expect(report.final.winner).toBe(GOOD);
    expect(report.final.holdout?.winner).toEqual({
      positives: { hits: 3, runs: 3 },
      negatives: { hits: 0, runs: 3 },
    });
    expect(report.final.recommendation).toBe('adopt');
    expect(report.final.written).toBe(false);
    expect(markdown.split('\n')[2]).toMatch(/holds description texts/);
    expect(r.stdout).toMatch(
      /Put it into SKILL\.md with skilltrigger improve --apply <the improve report below> --skill <dir>/,
    );
    // The terminal says what the session spent in the Markdown's own line (the built-in table prices the default model).
    const cost = report.cost;
    if (cost === undefined) throw new Error('the session has no cost');
    const spent = `Cost: ${formatUsd(cost.usd)} (measured runs ${formatUsd(cost.measuredUsd)}; ${cost.rewriteCalls} rewrite calls ${formatUsd(cost.rewriteUsd)}).`;
    expect(cost.rewriteCalls).toBe(rewritePrompts.length);
    expect(r.stdout.split('\n')).toContain(spent);
    expect(markdown).toContain(`\n${spent}\n`);
    // Without --write, SKILL.md is byte-identical.
    expect(skillAfter).toBe(SKILL_MD);

    // The holdout never reaches the rewriter; the train failures do.
    expect(rewritePrompts).toHaveLength(3);
    for (const request of rewritePrompts) {
      const body = JSON.stringify(request.body);
      expect(body).not.toContain(HOLD_POS);
      expect(body).not.toContain(HOLD_NEG);
      expect(body).not.toContain('omega');
    }
    const firstPrompt = JSON.stringify(rewritePrompts[0]?.body);
    for (const q of TRAIN_POS) expect(firstPrompt).toContain(q);
  }, 900_000);

  it('with --write replaces only the description in SKILL.md', async () => {
    rewrites = [GOOD];
    const { r, report, skillAfter } = await improve('write', ['--iterations', '1', '--write']);
    expect(r.code).toBe(0);
    expect(report?.final).toMatchObject({ recommendation: 'adopt', written: true, winner: GOOD });
    expect(r.stdout).toMatch(/SKILL\.md updated \(description only\)/);
    expect(skillAfter).toBe(
      SKILL_MD.replace(`description: >\n  ${INCUMBENT}\n`, `description: ${JSON.stringify(GOOD)}\n`),
    );
  }, 600_000);

  describe('stopped by SIGTERM', () => {
    const runsOf = (f: { positives: { runs: number }; negatives: { runs: number } } | null | undefined) =>
      (f?.positives.runs ?? 0) + (f?.negatives.runs ?? 0);

    it("during the original's measurement: exit 3, an improve report with the runs so far and the reason", async () => {
      rewrites = [GOOD];
      const { r, report, markdown, skillAfter, measured, rewritePrompts } = await improve(
        'sigterm-original',
        ['--iterations', '2', '--write'],
        '',
        (since) => measuredIn(since).length >= 3,
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
      rewrites = [GOOD, USELESS];
      const { r, report, skillAfter, rewritePrompts } = await improve(
        'sigterm-candidate',
        ['--iterations', '2', '--write'],
        '',
        (since) => {
          const asked = since.findIndex(
            (q) => q.turn === 1 && q.view !== undefined && authorPromptKind(q.view.query) === 'rewrite',
          );
          return asked >= 0 && measuredIn(since.slice(asked)).length >= 3;
        },
      );
      expect(r.code).toBe(3);
      if (report === undefined) throw new Error(`no improve report: ${r.stderr}`);
      expect(report.interrupted).toBe(true);
      expect(report.stopReason).toMatch(/^interrupted: /);
      expect(report.original.train).toEqual({
        positives: { hits: 0, runs: 6 },
        negatives: { hits: 0, runs: 6 },
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
      expect(paired).toBeLessThan(24);
      // An unchecked winner is never written.
      expect(report.final).toMatchObject({ recommendation: 'no-verdict', written: false });
      expect(skillAfter).toBe(SKILL_MD);
    }, 600_000);
  });

  describe('--max-cost-usd', () => {
    // Input tokens only, at a price that makes every token count; a padded query makes a measured
    // run dearer than the round trip the estimate starts from, so the session can overrun it.
    const pad = ` · ${'the session notes '.repeat(150)}`;
    let prices: string;
    beforeAll(async () => {
      prices = path.join(work, 'prices.json');
      await writeFile(
        prices,
        JSON.stringify({
          source: 'test rates',
          asOf: '2026-12-01',
          models: { 'claude-haiku-4-5': { input: 1000, output: 0, cacheWrite: 0, cacheRead: 0 } },
        }),
      );
    });
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

    it('refuses a session estimated above the budget before any run, saying what the budget buys', async () => {
      rewrites = [GOOD];
      const { r, report, measured, rewritePrompts } = await improve('budget-refused', flags('0.01'), pad);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /the improve session is estimated at \$[\d.]+ \(54 measured runs at most, \$[\d.]+, and a rewrite call at about \$[\d.]+\), more than --max-cost-usd \$0\.0100, which buys about 0 measured runs: not even the original's measurement \(18 runs\); nothing was measured/,
      );
      expect(measured).toHaveLength(0);
      expect(rewritePrompts).toHaveLength(0);
      expect(report).toBeUndefined();
    }, 300_000);

    it('stops mid-session when the next run would pass it: no verdict, exit 3, the report written, SKILL.md untouched', async () => {
      rewrites = [GOOD];
      const refused = await improve('budget-probe', flags('0.01'), pad);
      const estimate = Number(/the improve session is estimated at \$([\d.]+)/.exec(refused.r.stderr)?.[1]);
      expect(estimate).toBeGreaterThan(1);
      const max = estimate + 0.01;
      const { r, report, markdown, page, skillAfter, measured, rewritePrompts } = await improve(
        'budget-stop',
        [...flags(max.toFixed(2)), '--write'],
        pad,
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
      const runsOf = (f: { positives: { runs: number }; negatives: { runs: number } } | null | undefined) =>
        (f?.positives.runs ?? 0) + (f?.negatives.runs ?? 0);
      const counted =
        runsOf(report.original.train) +
        runsOf(report.original.holdout) +
        report.candidates.reduce((n, c) => n + runsOf(c.train?.incumbent) + runsOf(c.train?.candidate), 0) +
        runsOf(report.final.holdout?.original) +
        runsOf(report.final.holdout?.winner);
      expect(measured.length).toBe(counted);
      expect(counted).toBeLessThan(54);

      // The page the run wrote says the no verdict, the stop, and the cost the JSON holds, of its budget.
      const cost = report.cost;
      if (cost === undefined) throw new Error('the budget-stopped session has no cost');
      const recommendation = at(byTag(parsePage(page), 'section'), 0);
      expect(textOf(at(byClass(recommendation, 'headline'), 0))).toMatch(
        /^No verdict: --max-cost-usd stopped/,
      );
      expect(byTag(recommendation, 'p').map((p) => textOf(p))).toContain(`Stopped: ${report.stopReason}.`);
      const line = `Cost: ${formatUsd(cost.usd)} of --max-cost-usd ${formatUsd(report.settings.maxCostUsd ?? Number.NaN)} (measured runs ${formatUsd(cost.measuredUsd)}; ${cost.rewriteCalls} rewrite call${cost.rewriteCalls === 1 ? '' : 's'} ${formatUsd(cost.rewriteUsd)}).`;
      expect(byClass(recommendation, 'cost').map((p) => textOf(p))).toEqual([line]);
      expect(markdown).toContain(`\n${line}\n`);
      expect(r.stdout.split('\n')).toContain(line);
    }, 600_000);
  });
});
