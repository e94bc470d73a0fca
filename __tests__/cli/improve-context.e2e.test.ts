import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeContext } from '../../src/inputs/context.js';
import { contextFillTurns } from '../../src/inputs/context-fill.js';
import {
  GOOD,
  HOLD_NEG,
  HOLD_POS,
  type ImproveScenario,
  SKILL_MD,
  startImproveScenario,
} from '../fakes/improve-scenario.js';

/**
 * `improve --context-fill` (docs/context.md, docs/author-loop.md), through the real claude against
 * the simulated model (../fakes/improve-scenario.ts): every measured run of the session, the
 * original's, the candidate's and the holdout check's, starts with the fill, as `run` starts its
 * runs; the rewriter never sees it. Refused beside --context before anything is spent.
 */
let scenario: ImproveScenario;

beforeAll(async () => {
  scenario = await startImproveScenario('improve-context-e2e');
});

afterAll(async () => {
  await scenario?.world.close();
});

describe('improve with a context', () => {
  it('starts every measured run, train and holdout, with the fill; the rewrite prompt holds none of it', async () => {
    scenario.rewrites([GOOD]);
    const fill = describeContext(contextFillTurns(2000));
    const { r, report, measured, rewritePrompts, skillAfter } = await scenario.improve(
      'fill',
      ['--iterations', '1', '--context-fill', '2000'],
      { runs: 1 },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `context: every run starts with ${fill.turns} earlier turns (2000 characters of the shipped coding conversation)`,
    );
    expect(report?.candidates).toHaveLength(1);
    // The original on 6 queries, the candidate paired on the 4 train ones: every run with the fill.
    expect(measured.length).toBeGreaterThanOrEqual(6 + 8);
    expect(new Set(measured.map((q) => q.view?.priorTurns))).toEqual(new Set([fill.turns]));
    const held = measured.filter((q) => [HOLD_POS, HOLD_NEG].includes(q.view?.query ?? ''));
    expect(held.length).toBeGreaterThan(0);
    expect(rewritePrompts).toHaveLength(1);
    const last = contextFillTurns(2000).at(-1)?.content ?? '';
    expect(rewritePrompts[0]?.view?.query).not.toContain(last.slice(0, 40));
    expect(skillAfter).toBe(SKILL_MD);
  }, 600_000);

  it('refuses --context beside --context-fill before anything is spent', async () => {
    const { r, measured } = await scenario.improve('both', [
      '--context',
      'ctx.json',
      '--context-fill',
      '2000',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--context and --context-fill both give every query its earlier turns');
    expect(measured).toHaveLength(0);
  }, 120_000);
});
