import {
  MATRIX_SCHEMA_ID,
  MATRIX_SCHEMA_VERSION,
  type MatrixReport,
  matrixReportSchema,
} from '../../src/schemas/matrix.js';
import { wilsonInterval } from '../../src/verdict/statistics.js';
import type { Filler } from './html-hostile.js';

const share = (hits: number, of: number) => {
  const interval = wilsonInterval({ hits, runs: of }, 0.95);
  return { hits, of, rate: of === 0 ? null : hits / of, interval };
};

const sha = (c: string) => c.repeat(64);

/**
 * A hand-built, schema-valid matrix report for the page tests (`t` fills each text slot). Three installed skills: handoff and standup with eval sets, changelog without. One handoff
 * positive is stolen by standup; a standup negative loads handoff; one run timed out.
 */
export function matrixFixture(t: Filler = (s) => s, overrides: Partial<MatrixReport> = {}): MatrixReport {
  const [changelog, handoff, standup] = [t('changelog'), t('handoff'), t('standup')];
  const q = (
    owner: string,
    id: string,
    query: string,
    shouldTrigger: boolean,
    runs: MatrixReport['queries'][number]['runs'],
  ) => {
    const loaded: Record<string, number> = {};
    for (const r of runs) if (r.to === 'skill') loaded[r.skill] = (loaded[r.skill] ?? 0) + 1;
    return {
      owner,
      id: t(id),
      query: t(query),
      shouldTrigger,
      runs,
      measured: runs.filter((r) => r.to !== 'lost').length,
      loaded,
      noneOther: runs.filter((r) => r.to === 'none-other').length,
      timeouts: runs.filter((r) => r.to === 'lost' && r.outcome === 'timeout').length,
      errors: runs.filter((r) => r.to === 'lost' && r.outcome !== 'timeout').length,
    };
  };
  const to = (skill: string) => ({ to: 'skill' as const, skill });
  const none = { to: 'none-other' as const };
  const cells = (c: number, h: number, s: number) => ({ [changelog]: c, [handoff]: h, [standup]: s });
  return matrixReportSchema.parse({
    schema: MATRIX_SCHEMA_ID,
    schemaVersion: MATRIX_SCHEMA_VERSION,
    tool: { name: 'skilltrigger', version: t('tool') },
    createdAt: '2025-03-14T09:26:53.000Z',
    simulated: true,
    cli: { version: t('cli') },
    model: { requested: t('model'), reported: { [t('reported')]: 9 } },
    roster: null,
    environment: null,
    settings: {
      runsPerQuery: 2,
      timeoutSeconds: 30,
      noVerdictShare: 0.2,
      stub: 'command',
      maxRetries: 2,
      launch: 'standby',
    },
    conflictAllowed: false,
    shard: null,
    skills: [
      { name: changelog, description: { bytes: 40, sha256: sha('a') }, evalSet: null },
      {
        name: handoff,
        description: { bytes: 60, sha256: sha('b') },
        evalSet: { queries: 3, positives: 2, negatives: 1, sha256: sha('c') },
      },
      {
        name: standup,
        description: { bytes: 50, sha256: sha('d') },
        evalSet: { queries: 2, positives: 1, negatives: 1, sha256: sha('e') },
      },
    ],
    verdict: 'ok',
    noVerdictReasons: [],
    aborted: false,
    interrupted: false,
    queries: [
      q(handoff, 'h1', 'Write the handoff notes', true, [to(handoff), to(handoff)]),
      q(handoff, 'h2', 'Summarise the session for tomorrow', true, [to(standup), to(standup)]),
      q(handoff, 'h3', 'Write a README', false, [none, { to: 'lost', outcome: 'timeout' }]),
      q(standup, 's1', 'What did I do yesterday', true, [to(standup), none]),
      q(standup, 's2', 'Write the handoff for the standup', false, [to(handoff), to(handoff)]),
    ],
    rows: [
      { owner: handoff, label: 'positive', queries: 2, runs: 4, cells: cells(0, 2, 2), noneOther: 0 },
      { owner: handoff, label: 'negative', queries: 1, runs: 1, cells: cells(0, 0, 0), noneOther: 1 },
      { owner: standup, label: 'positive', queries: 1, runs: 2, cells: cells(0, 0, 1), noneOther: 1 },
      { owner: standup, label: 'negative', queries: 1, runs: 2, cells: cells(0, 2, 0), noneOther: 0 },
    ],
    figures: [
      { skill: changelog, recall: share(0, 0), precision: share(0, 0) },
      { skill: handoff, recall: share(2, 4), precision: share(2, 4) },
      { skill: standup, recall: share(1, 2), precision: share(1, 3) },
    ],
    stolen: [
      {
        owner: handoff,
        id: t('h2'),
        query: t('Summarise the session for tomorrow'),
        thief: standup,
        ownerRuns: 0,
        thiefRuns: 2,
        runs: 2,
      },
    ],
    totals: { planned: 10, executed: 10, measured: 9, timeouts: 1, errors: 0, errorCauses: {} },
    ...overrides,
  });
}

/** Leg `index` of `count` of the fixture: its queries k ≡ index−1 (mod count), as `matrix --shard` deals them. */
export function matrixLegFixture(
  index: number,
  count: number,
  overrides: Partial<MatrixReport> = {},
): MatrixReport {
  const whole = matrixFixture();
  return matrixFixture(undefined, {
    shard: { index, count },
    queries: whole.queries.filter((_, k) => k % count === index - 1),
    ...overrides,
  });
}
