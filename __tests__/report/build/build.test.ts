import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { InitInfo } from '../../../src/agents/runs.js';
import type { EvalItem } from '../../../src/inputs/types.js';
import type { Outcome } from '../../../src/outcome.js';
import { buildReport, type ReportedRun, type ReportInput } from '../../../src/report/build/build.js';
import { REPORT_SCHEMA_ID, REPORT_SCHEMA_VERSION, reportSchema } from '../../../src/schemas/report.js';

/**
 * The report as assembled from the runs: its head, the privacy rule (descriptions as byte counts
 * and hashes, the roster hashed without the stubs), the models and counts it reports, the verdict
 * of both sides and the no-verdict rule as the report carries it, and the settings it echoes.
 */

const DESCRIPTION = 'Write HANDOFF.md at the end of a session — for café notes too.';
const BASE_DESCRIPTION = 'Docs helper.';
const STUB = 'handoff-stub-9f8e7d6c';
const BASE_STUB = 'handoff-stub-1a2b3c4d';
const INIT: InitInfo = {
  model: 'claude-sonnet-4-5',
  cliVersion: '2.1.328',
  slashCommands: ['commit', 'review-pr', STUB, BASE_STUB, 'docx'],
  skills: ['docx', 'brand-voice'],
  mcpServers: 2,
};

const items: EvalItem[] = [
  { id: 'p1', query: 'write the handoff notes', shouldTrigger: true, extra: {} },
  { id: 'p2', query: 'hand over to tomorrow', shouldTrigger: true, extra: { note: 'near miss' } },
  { id: 'n1', query: 'capital of France', shouldTrigger: false, extra: {} },
];

const USAGE = { inputTokens: 100, outputTokens: 2, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
const r = (kind: Outcome['kind'], extra: Partial<ReportedRun> = {}): ReportedRun => ({
  outcome: kind === 'error' ? { kind, cause: 'overloaded' } : ({ kind } as Outcome),
  ...(kind === 'timeout' || kind === 'error' ? {} : { model: 'claude-sonnet-4-5' }),
  durationMs: 1000,
  usage: USAGE,
  ...extra,
});
const T = (extra: Partial<ReportedRun> = {}) => r('triggered', extra);
const N = (extra: Partial<ReportedRun> = {}) => r('not-triggered', extra);

/** Two runs a query, every one measured: p1 2/2, p2 1/2, n1 0/2; the first run saw the init event. */
const CAND_RUNS = (): ReportedRun[][] => [
  [T({ init: INIT }), T()],
  [T(), N()],
  [N(), N()],
];

/** The candidate side: these runs, their stubs left out of the roster. */
const cand = (records: ReportedRun[][], stubNames: string[] = []): ReportInput['candidate'] => ({
  description: DESCRIPTION,
  overridden: false,
  records,
  stubNames,
});
/** The baseline side, measured with the older description. */
const base = (
  records: ReportedRun[][],
  stubNames: string[] = [],
  overridden = false,
): ReportInput['candidate'] => ({ description: BASE_DESCRIPTION, overridden, records, stubNames });

function input(over: Partial<ReportInput> = {}): ReportInput {
  return {
    toolVersion: '1.2.3',
    createdAt: new Date('2026-12-04T10:00:00.000Z'),
    skill: 'handoff',
    simulated: false,
    items,
    rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
    timeoutSeconds: 30,
    stub: 'command',
    maxRetries: 2,
    conflictAllowed: false,
    aborted: false,
    interrupted: false,
    environment: null,
    candidate: cand(CAND_RUNS(), [STUB]),
    ...over,
  };
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hash12 = (s: string) => sha256(s).slice(0, 12);

describe('buildReport: head and shape', () => {
  it('opens with the schema URL, id, version, tool and time, and passes the report schema', () => {
    const report = buildReport(input());
    expect(Object.keys(report).slice(0, 5)).toEqual([
      '$schema',
      'schema',
      'schemaVersion',
      'tool',
      'createdAt',
    ]);
    expect(report.$schema).toBe('https://unpkg.com/skilltrigger@1.2.3/schema/report.schema.json');
    expect(report.schema).toBe(REPORT_SCHEMA_ID);
    expect(report.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    expect(report.tool).toEqual({ name: 'skilltrigger', version: '1.2.3' });
    expect(report.createdAt).toBe('2026-12-04T10:00:00.000Z');
    expect(report.skill).toBe('handoff');
    expect(reportSchema.safeParse(report).success).toBe(true);
    expect('baseline' in report).toBe(false);
  });
});

describe('buildReport: privacy', () => {
  it('a description is its UTF-8 byte count and SHA-256, never its text', () => {
    const report = buildReport(input({ baseline: base(CAND_RUNS(), [BASE_STUB], true) }));
    expect(report.candidate.description).toEqual({
      bytes: Buffer.byteLength(DESCRIPTION, 'utf8'),
      sha256: sha256(DESCRIPTION),
      overridden: false,
    });
    // Two characters of it take more than one byte: the count is of bytes, not characters.
    expect(report.candidate.description.bytes).toBe(DESCRIPTION.length + 3);
    expect(report.baseline?.description).toEqual({
      bytes: 12,
      sha256: sha256(BASE_DESCRIPTION),
      overridden: true,
    });
    const text = JSON.stringify(report);
    for (const secret of [
      DESCRIPTION,
      BASE_DESCRIPTION,
      'HANDOFF.md',
      STUB,
      BASE_STUB,
      'review-pr',
      'brand-voice',
    ])
      expect(text, secret).not.toContain(secret);
  });

  it('the roster is counted and hashed, the stubs of both sides left out', () => {
    const report = buildReport(input({ baseline: base(CAND_RUNS(), [BASE_STUB]) }));
    const names = ['commit', 'review-pr', 'docx', 'brand-voice'];
    expect(report.roster).toEqual({ slashCommands: 3, skills: 2, members: names.map(hash12).sort() });
  });
});

describe('buildReport: models, CLI, roster and environment', () => {
  it('counts each reported model over both sides; lost runs without a model are not counted', () => {
    const report = buildReport(
      input({
        requestedModel: 'sonnet',
        candidate: cand([
          [T(), T({ model: 'claude-opus-4' })],
          [r('timeout'), N()],
          [N(), r('error')],
        ]),
        baseline: base(CAND_RUNS()),
      }),
    );
    expect(report.model).toEqual({
      requested: 'sonnet',
      reported: { 'claude-sonnet-4-5': 9, 'claude-opus-4': 1 },
    });
  });

  it('no requested model is null', () => {
    expect(buildReport(input()).model.requested).toBeNull();
  });

  it('the CLI version and roster come from the first run that saw an init, or the roster gate’s init', () => {
    const later: ReportedRun[][] = [
      [T(), T()],
      [T(), N({ init: { ...INIT, cliVersion: '2.2.0', skills: [] } })],
      [N(), N()],
    ];
    const report = buildReport(input({ candidate: cand(later, [STUB]) }));
    expect(report.cli).toEqual({ version: '2.2.0' });
    expect(report.agents).toEqual([{ name: 'claude', version: '2.2.0' }]);
    expect(report.roster?.skills).toBe(0);
    const gate: InitInfo = { cliVersion: '2.3.0', slashCommands: ['one'], skills: [], mcpServers: 5 };
    const gated = buildReport(input({ rosterInit: gate }));
    expect(gated.cli.version).toBe('2.3.0');
    expect(gated.roster).toEqual({ slashCommands: 1, skills: 0, members: [hash12('one')] });
    expect(gated.environment).toEqual({ memoryFiles: { project: 0, user: 0 }, hooks: 0, mcpServers: 5 });
  });

  it('no init anywhere: no CLI version, no roster, no environment', () => {
    const records: ReportedRun[][] = [
      [T(), T()],
      [T(), N()],
      [N(), N()],
    ];
    const report = buildReport(input({ candidate: cand(records) }));
    expect(report.cli).toEqual({ version: null });
    expect(report.agents).toEqual([{ name: 'claude', version: null }]);
    expect(report.roster).toBeNull();
    expect(report.environment).toBeNull();
  });

  it('the roster gate’s counts are kept, with the MCP servers from the init (0 without one)', () => {
    const environment = { memoryFiles: { project: 1, user: 2 }, hooks: 3 };
    expect(buildReport(input({ environment })).environment).toEqual({ ...environment, mcpServers: 2 });
    const records: ReportedRun[][] = [
      [T(), T()],
      [T(), N()],
      [N(), N()],
    ];
    const bare = buildReport(input({ environment, candidate: cand(records) }));
    expect(bare.environment).toEqual({ ...environment, mcpServers: 0 });
  });

  it('an agent’s own version is kept; another agent than claude has none unless given', () => {
    const one = buildReport(input({ agents: [{ agent: 'claude', version: '9.9.9', model: 'x' }] }));
    expect(one.agents).toEqual([{ name: 'claude', version: '9.9.9' }]);
    expect(one.cli.version).toBe('9.9.9');
    const codex = buildReport(input({ agents: [{ agent: 'codex' }] }));
    expect(codex.agents).toEqual([{ name: 'codex', version: null }]);
    expect(codex.cli.version).toBeNull();
  });
});

describe('buildReport: counts, totals and the verdict', () => {
  it('totals follow the runs: planned, executed, hits and fired by class, pass and fail', () => {
    const { candidate, verdict } = buildReport(input());
    expect(verdict).toBe('ok');
    expect(candidate.totals).toMatchObject({
      planned: 6,
      executed: 6,
      positives: { triggered: 3, runs: 4 },
      negatives: { fired: 0, runs: 2 },
      timeouts: 0,
      errors: 0,
      queries: 3,
      passed: 2,
      failed: 1,
    });
    expect(candidate.queries.map((q) => [q.id, q.hits, q.runs, q.pass])).toEqual([
      ['p1', 2, 2, true],
      ['p2', 1, 2, false],
      ['n1', 0, 2, true],
    ]);
    expect(candidate.queries[1]?.extra).toEqual({ note: 'near miss' });
    expect(candidate.totals.usage.inputTokens).toBe(600);
  });

  it('a query that lost every run and one cut short: lost and partial, and no verdict', () => {
    const records: ReportedRun[][] = [[r('timeout'), r('error')], [T()], [N(), N()]];
    const report = buildReport(input({ aborted: true, candidate: cand(records) }));
    const m = report.candidate;
    expect(m.lostQueries).toEqual(['p1']);
    expect(m.partialQueries).toEqual(['p2']);
    expect(m.totals).toMatchObject({
      planned: 6,
      executed: 5,
      timeouts: 1,
      errors: 1,
      errorCauses: { overloaded: 1 },
    });
    expect(report.verdict).toBe('no-verdict');
    expect(m.verdict).toBe('no-verdict');
    expect(m.aborted).toBe(true);
    expect(m.noVerdictReasons).toContain('1 query lost every run');
  });

  it('a baseline without a verdict takes the report’s verdict with it, though the candidate has one', () => {
    const report = buildReport(
      input({
        baseline: base([
          [r('timeout'), r('timeout')],
          [T(), T()],
          [N(), N()],
        ]),
      }),
    );
    expect(report.candidate.verdict).toBe('ok');
    expect(report.baseline?.verdict).toBe('no-verdict');
    expect(report.verdict).toBe('no-verdict');
  });

  it('an interrupted run has no verdict, the interruption its first reason', () => {
    const report = buildReport(input({ interrupted: true }));
    expect(report.verdict).toBe('no-verdict');
    expect(report.candidate.interrupted).toBe(true);
    expect(report.candidate.noVerdictReasons[0]).toBe(
      'the run was interrupted before every planned run finished',
    );
  });

  it('a budget stop leads the reasons, worded for who set the budget, and rides in the measurement', () => {
    const budgetStop = { spentUsd: 0.5, nextEstimateUsd: 0.2, maxUsd: 0.6 };
    const cli = buildReport(input({ aborted: true, budgetStop, maxCostUsd: 0.6 }));
    expect(cli.verdict).toBe('no-verdict');
    expect(cli.candidate.budgetStop).toEqual(budgetStop);
    expect(cli.candidate.noVerdictReasons[0]).toMatch(/^budget: .*--max-cost-usd/);
    expect(cli.settings.maxCostUsd).toBe(0.6);
    const action = buildReport(input({ aborted: true, budgetStop, budgetSetBy: 'action' }));
    expect(action.candidate.noVerdictReasons[0]).toMatch(/^budget: .*max-cost-usd input/);
  });

  it('an aborted run says why it stopped, when the loop said so', () => {
    const said = buildReport(
      input({ aborted: true, stopReason: 'a temporary project could not be created' }),
    );
    expect(said.candidate.noVerdictReasons).toEqual([
      'the run was stopped before every planned run finished: a temporary project could not be created',
    ]);
    const silent = buildReport(input({ aborted: true }));
    expect(silent.candidate.noVerdictReasons).toEqual([
      'the run was stopped before every planned run finished',
    ]);
  });
});

describe('buildReport: settings', () => {
  it('echoes the rules and the run’s settings; the optional ones only when given', () => {
    const plain = buildReport(input());
    expect(plain.settings).toEqual({
      runsPerQuery: 2,
      runsMode: 'fixed',
      timeoutSeconds: 30,
      triggerThreshold: 0.5,
      noVerdictShare: 0.1,
      stub: 'command',
      maxRetries: 2,
    });
    const full = buildReport(
      input({
        rules: { runsPerQuery: 6, autoRuns: true, triggerThreshold: 0.6, noVerdictShare: 0.2 },
        stub: 'skill',
        launch: 'standby',
        lateTurns: 0,
        maxCostUsd: 5,
        conflictAllowed: true,
        simulated: true,
      }),
    );
    expect(full.settings).toEqual({
      runsPerQuery: 6,
      runsMode: 'auto',
      timeoutSeconds: 30,
      triggerThreshold: 0.6,
      noVerdictShare: 0.2,
      stub: 'skill',
      maxRetries: 2,
      launch: 'standby',
      lateTurns: 0,
      maxCostUsd: 5,
    });
    expect(full.conflictAllowed).toBe(true);
    expect(full.simulated).toBe(true);
  });

  it('several models: each query is planned once per model, and the models are listed', () => {
    const on = (model: string, kind: 'triggered' | 'not-triggered') =>
      r(kind, { model, requestedModel: model });
    const both = (kind: 'triggered' | 'not-triggered') => [
      on('a', kind),
      on('a', kind),
      on('b', kind),
      on('b', kind),
    ];
    const records = [
      both('triggered'),
      [on('a', 'triggered'), on('b', 'not-triggered')],
      both('not-triggered'),
    ];
    const report = buildReport(input({ models: ['a', 'b'], candidate: cand(records) }));
    expect(report.settings.models).toEqual(['a', 'b']);
    expect(report.settings.runsPerQuery).toBe(2);
    expect(report.candidate.totals.planned).toBe(12);
    expect(report.candidate.totals.executed).toBe(10);
    expect(report.candidate.partialQueries).toEqual(['p2']);
    expect(report.model.reported).toEqual({ a: 5, b: 5 });
  });

  it('one model named is no model list', () => {
    expect('models' in buildReport(input({ models: ['sonnet'] })).settings).toBe(false);
  });
});
