import { describe, expect, it } from 'vitest';
import {
  documentHead,
  OLDEST_READ_SCHEMA_VERSION,
  outcomeCodeSchema,
  REPORT_SCHEMA_ID,
  REPORT_SCHEMA_VERSION,
  type Report,
  reportJsonSchemaUrl,
  reportSchema,
} from '../../src/schemas/report.js';
import { pairedReportFixture, reportFixture } from '../fakes/report-fixture.js';

// The run report's schema (docs/report-schema.md): a valid document parses, and each documented
// constraint refuses what it should, at the path that names it.
type Doc = Record<string, unknown> & Report;
const HEX64 = 'a'.repeat(64);

/** A paired report with every optional part filled in, valid. */
function fullReport(): Doc {
  const r = structuredClone(pairedReportFixture()) as Doc;
  const q = r.candidate.queries[0];
  if (!q) throw new Error('fixture without queries');
  const counts = { hits: 1, runs: 2, late: 0, timeouts: 0, errors: 0 };
  const cls = {
    base: { hits: 1, runs: 2 },
    cand: { hits: 2, runs: 2 },
    deltaRate: 0.5,
    label: 'noise' as const,
  };
  Object.assign(r, {
    $schema: reportJsonSchemaUrl('0.1.0'),
    settings: {
      ...r.settings,
      runsMode: 'auto',
      launch: 'standby',
      models: ['claude-a', 'claude-b'],
      lateTurns: 2,
      maxCostUsd: 1.5,
      prices: { source: 'file', sha256: 'abcdef012345', asOf: '2026-10-24' },
    },
    pairedByModel: {
      label: 'noise',
      models: { 'claude-a': { label: 'noise', positives: cls, negatives: cls } },
    },
    siblings: { members: [{ name: 'xlsx', sha256: HEX64 }], crossNegatives: true },
  });
  Object.assign(q, {
    byModel: { 'claude-a': counts },
    late: 0,
    costUsd: 0.01,
    runsCostUsd: q.outcomes.map(() => null),
    siblingHits: { xlsx: 1 },
  });
  Object.assign(r.candidate, {
    cost: {
      usd: 0.01,
      pricedRuns: 1,
      unpricedRuns: 1,
      unknownModels: ['claude-b'],
      byModel: { 'claude-a': 0.01 },
    },
    budgetStop: { spentUsd: 1.4, nextEstimateUsd: 0.2, maxUsd: 1.5 },
  });
  r.candidate.description = {
    ...r.candidate.description,
    from: 'file',
    listed: { bytes: 3, sha256: HEX64, source: 'probe' },
  };
  return r;
}

/** The paths of the issues a document is refused with, or [] when it parses. */
function issues(doc: unknown): string[] {
  const parsed = reportSchema.safeParse(doc);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
}
/** A mutated copy of the full report, and the issue paths it is refused with. */
function refused(mutate: (r: Doc) => void): string[] {
  const r = fullReport();
  mutate(r);
  return issues(r);
}

describe('the head', () => {
  it('the JSON Schema URL names the package version', () => {
    expect(reportJsonSchemaUrl('1.2.3')).toBe(
      'https://unpkg.com/skilltrigger@1.2.3/schema/report.schema.json',
    );
  });

  it('documentHead writes its keys in the order the files depend on, the time in ISO', () => {
    const head = documentHead(
      'u',
      REPORT_SCHEMA_ID,
      REPORT_SCHEMA_VERSION,
      '0.1.0',
      new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
    );
    expect(Object.keys(head)).toEqual(['$schema', 'schema', 'schemaVersion', 'tool', 'createdAt']);
    expect(head).toEqual({
      $schema: 'u',
      schema: 'skilltrigger/report',
      schemaVersion: REPORT_SCHEMA_VERSION,
      tool: { name: 'skilltrigger', version: '0.1.0' },
      createdAt: '2026-01-02T03:04:05.000Z',
    });
  });

  it('the oldest readable version is not newer than the current one', () => {
    expect(OLDEST_READ_SCHEMA_VERSION).toBeLessThanOrEqual(REPORT_SCHEMA_VERSION);
  });
});

describe('valid documents', () => {
  it('a single report, a paired one, and one with every optional part parse', () => {
    expect(issues(reportFixture())).toEqual([]);
    expect(issues(pairedReportFixture())).toEqual([]);
    expect(issues(fullReport())).toEqual([]);
  });

  it('parsing keeps every known field as written', () => {
    const r = fullReport();
    expect(reportSchema.parse(r)).toEqual(r);
  });

  it('an unknown field is dropped, not refused', () => {
    const parsed = reportSchema.parse({ ...fullReport(), futureField: 1 });
    expect(Object.keys(parsed)).not.toContain('futureField');
  });
});

describe('the document’s identity', () => {
  it('another schema, another version, another tool or a bad time is refused', () => {
    expect(refused((r) => Object.assign(r, { schema: 'skilltrigger/matrix' }))).toEqual(['schema']);
    expect(refused((r) => Object.assign(r, { schemaVersion: REPORT_SCHEMA_VERSION - 1 }))).toEqual([
      'schemaVersion',
    ]);
    expect(refused((r) => Object.assign(r, { schemaVersion: REPORT_SCHEMA_VERSION + 1 }))).toEqual([
      'schemaVersion',
    ]);
    expect(refused((r) => Object.assign(r, { tool: { name: 'other', version: '1' } }))).toEqual([
      'tool.name',
    ]);
    expect(refused((r) => Object.assign(r, { createdAt: '2026-01-02' }))).toEqual(['createdAt']);
    expect(refused((r) => Object.assign(r, { createdAt: '2026-01-02 03:04:05' }))).toEqual(['createdAt']);
  });

  it('a missing required part is refused at its path', () => {
    expect(refused((r) => delete (r as Partial<Doc>).skill)).toEqual(['skill']);
    expect(refused((r) => delete (r as Partial<Doc>).candidate)).toEqual(['candidate']);
  });
});

describe('agents', () => {
  it('at least one, each a known agent', () => {
    expect(refused((r) => Object.assign(r, { agents: [] }))).toEqual(['agents']);
    expect(refused((r) => Object.assign(r, { agents: [{ name: 'copilot', version: '1' }] }))).toEqual([
      'agents.0.name',
    ]);
    expect(
      refused((r) => Object.assign(r, { agents: [{ name: 'codex', version: null, model: 'gpt-5' }] })),
    ).toEqual([]);
  });
});

describe('privacy: hashes, never names or text', () => {
  it('roster members are 12 lowercase hex digits', () => {
    for (const member of ['ABCDEF012345', 'abcdef01234', 'abcdef0123456', 'handoff-stub']) {
      expect(
        refused((r) => Object.assign(r, { roster: { slashCommands: 1, skills: 0, members: [member] } })),
        member,
      ).toEqual(['roster.members.0']);
    }
    expect(refused((r) => Object.assign(r, { roster: null, environment: null }))).toEqual([]);
  });

  it('a description is bytes and a 64-hex SHA-256, its listed text and source likewise', () => {
    expect(refused((r) => Object.assign(r.candidate.description, { sha256: 'A'.repeat(64) }))).toEqual([
      'candidate.description.sha256',
    ]);
    expect(refused((r) => Object.assign(r.candidate.description, { sha256: HEX64.slice(1) }))).toEqual([
      'candidate.description.sha256',
    ]);
    expect(refused((r) => Object.assign(r.candidate.description, { from: 'path' }))).toEqual([
      'candidate.description.from',
    ]);
    expect(
      refused((r) =>
        Object.assign(r.candidate.description, { listed: { bytes: 3, sha256: HEX64, source: 'guess' } }),
      ),
    ).toEqual(['candidate.description.listed.source']);
  });

  it('the prices file is named by 12 hex digits of its hash', () => {
    expect(
      refused((r) =>
        Object.assign(r.settings, { prices: { source: 'file', sha256: '/home/me/p.json', asOf: 'x' } }),
      ),
    ).toEqual(['settings.prices.sha256']);
  });

  it('a sibling is its name and a 64-hex hash of its listed text', () => {
    expect(
      refused((r) =>
        Object.assign(r, { siblings: { members: [{ name: 'xlsx', sha256: 'x' }], crossNegatives: false } }),
      ),
    ).toEqual(['siblings.members.0.sha256']);
  });
});

describe('outcome codes', () => {
  it('triggered, not-triggered, timeout, or error: with a known cause', () => {
    for (const code of ['triggered', 'not-triggered', 'timeout', 'error:auth', 'error:overloaded']) {
      expect(outcomeCodeSchema.safeParse(code).success, code).toBe(true);
    }
    for (const code of [
      'lost',
      'error',
      'error:',
      'error:bogus',
      'error:auth:401',
      'Triggered',
      ' timeout',
    ]) {
      expect(outcomeCodeSchema.safeParse(code).success, code).toBe(false);
    }
  });

  it('a query’s outcome outside them is refused at its index', () => {
    expect(refused((r) => r.candidate.queries[0]?.outcomes.splice(0, 1, 'lost'))).toEqual([
      'candidate.queries.0.outcomes.0',
    ]);
  });
});

describe('counts and rates', () => {
  it('counts are whole and not negative', () => {
    expect(refused((r) => Object.assign(r.candidate.totals, { planned: -1 }))).toEqual([
      'candidate.totals.planned',
    ]);
    expect(refused((r) => Object.assign(r.candidate.totals, { executed: 1.5 }))).toEqual([
      'candidate.totals.executed',
    ]);
    expect(refused((r) => Object.assign(r.candidate.totals.usage, { inputTokens: -3 }))).toEqual([
      'candidate.totals.usage.inputTokens',
    ]);
    expect(refused((r) => Object.assign(r.candidate.queries[0] ?? {}, { hits: Number.NaN }))).toEqual([
      'candidate.queries.0.hits',
    ]);
  });

  it('a rate is between 0 and 1, or null without a measured run', () => {
    expect(refused((r) => Object.assign(r.candidate.queries[0] ?? {}, { rate: 1.01 }))).toEqual([
      'candidate.queries.0.rate',
    ]);
    expect(refused((r) => Object.assign(r.candidate.queries[0] ?? {}, { rate: -0.1 }))).toEqual([
      'candidate.queries.0.rate',
    ]);
    expect(refused((r) => Object.assign(r.candidate.queries[0] ?? {}, { rate: null, pass: null }))).toEqual(
      [],
    );
  });

  it('a paired change in rate is between −1 and 1, and labels are compare’s', () => {
    expect(
      refused((r) => {
        const model = r.pairedByModel?.models['claude-a'];
        if (model) model.positives = { ...model.positives, deltaRate: 1.5 };
      }),
    ).toEqual(['pairedByModel.models.claude-a.positives.deltaRate']);
    expect(refused((r) => Object.assign(r.pairedByModel ?? {}, { label: 'better' }))).toEqual([
      'pairedByModel.label',
    ]);
  });

  it('money is never negative; a budget is above zero', () => {
    expect(refused((r) => Object.assign(r.candidate.cost ?? {}, { usd: -0.01 }))).toEqual([
      'candidate.cost.usd',
    ]);
    expect(refused((r) => Object.assign(r.candidate.budgetStop ?? {}, { maxUsd: 0 }))).toEqual([
      'candidate.budgetStop.maxUsd',
    ]);
    expect(refused((r) => Object.assign(r.settings, { maxCostUsd: 0 }))).toEqual(['settings.maxCostUsd']);
    expect(refused((r) => r.candidate.queries[0]?.runsCostUsd?.splice(0, 1, -1))).toEqual([
      'candidate.queries.0.runsCostUsd.0',
    ]);
  });
});

describe('settings', () => {
  it('runs per query and the timeout above zero; threshold and no-verdict share within 0–1', () => {
    expect(refused((r) => Object.assign(r.settings, { runsPerQuery: 0 }))).toEqual(['settings.runsPerQuery']);
    expect(refused((r) => Object.assign(r.settings, { runsPerQuery: 2.5 }))).toEqual([
      'settings.runsPerQuery',
    ]);
    expect(refused((r) => Object.assign(r.settings, { timeoutSeconds: 0 }))).toEqual([
      'settings.timeoutSeconds',
    ]);
    expect(refused((r) => Object.assign(r.settings, { timeoutSeconds: 0.5 }))).toEqual([]);
    expect(refused((r) => Object.assign(r.settings, { triggerThreshold: 1.5 }))).toEqual([
      'settings.triggerThreshold',
    ]);
    expect(refused((r) => Object.assign(r.settings, { noVerdictShare: -0.1 }))).toEqual([
      'settings.noVerdictShare',
    ]);
    expect(refused((r) => Object.assign(r.settings, { noVerdictShare: 1 }))).toEqual([]);
  });

  it('the enumerations: stub, runs mode, launch, agents', () => {
    expect(refused((r) => Object.assign(r.settings, { stub: 'plugin' }))).toEqual(['settings.stub']);
    expect(refused((r) => Object.assign(r.settings, { runsMode: 'adaptive' }))).toEqual([
      'settings.runsMode',
    ]);
    expect(refused((r) => Object.assign(r.settings, { launch: 'warm' }))).toEqual(['settings.launch']);
    expect(refused((r) => Object.assign(r.settings, { agents: ['claude', 'copilot'] }))).toEqual([
      'settings.agents.1',
    ]);
  });
});

describe('verdicts', () => {
  it('ok or no-verdict, at the report and in each measurement', () => {
    expect(refused((r) => Object.assign(r, { verdict: 'pass' }))).toEqual(['verdict']);
    expect(refused((r) => Object.assign(r.candidate, { verdict: 'fail' }))).toEqual(['candidate.verdict']);
  });
});
