import { describe, expect, it } from 'vitest';
import type { ListingPicture } from '../../../src/agents/listing.js';
import type { EvalItem } from '../../../src/inputs/types.js';
import { buildReport, type ReportedRun, type ReportInput } from '../../../src/report/build/build.js';
import { agentListing, runState } from '../../../src/report/build/listing.js';
import { hash12 } from '../../../src/schemas/privacy.js';
import { reportSchema } from '../../../src/schemas/report.js';

/**
 * The report's account of the listing: each run's stub state (its own request's where the agent
 * read it, else its agent's probe's), every entry counted and hashed, the runs counted by state.
 */
const CLAUDE: ListingPicture = {
  unit: 'characters',
  budget: 8000,
  used: 7990,
  entries: [
    { name: 'z-fill-01', state: 'whole' },
    { name: 'z-fill-02', state: 'whole' },
    { name: 'security-review', state: 'bare' },
    { name: 'huge', state: 'cut' },
  ],
  stub: { state: 'bare', chars: 0 },
};
const CODEX: ListingPicture = {
  unit: 'bytes',
  budget: 21_760,
  used: 21_700,
  entries: [{ name: 'imagegen', state: 'cut' }],
  stub: { state: 'cut', chars: 224 },
};

const USAGE = { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
const run = (extra: Partial<ReportedRun> = {}): ReportedRun => ({
  outcome: { kind: 'not-triggered' },
  durationMs: 10,
  usage: USAGE,
  ...extra,
});

describe('the stub state of a run', () => {
  it("is its own request's where read, else its agent's probe's, else unknown", () => {
    const pictures = { claude: CLAUDE, codex: CODEX };
    expect(runState(run(), pictures)).toBe('bare');
    expect(runState(run({ agent: 'codex' }), pictures)).toBe('cut');
    expect(runState(run({ agent: 'codex', listing: { state: 'whole', chars: 300 } }), pictures)).toBe(
      'whole',
    );
    expect(runState(run({ agent: 'codex' }), { claude: CLAUDE })).toBeNull();
  });
});

describe("an agent's listing in the report", () => {
  it('counts every entry with the stub, hashes every name but the stub, and counts the runs', () => {
    const listing = agentListing(CLAUDE, [run(), run(), run({ listing: { state: 'whole', chars: 90 } })]);
    expect(listing.entries).toEqual({ whole: 2, cut: 1, bare: 2, omitted: 0 });
    expect(listing.members).toHaveLength(4);
    expect(listing.members.map((m) => m.id)).toEqual([...listing.members.map((m) => m.id)].sort());
    expect(listing.members).toContainEqual({ id: hash12('security-review'), state: 'bare' });
    expect(JSON.stringify(listing)).not.toContain('z-fill');
    expect(listing.runs).toEqual({ whole: 1, cut: 0, bare: 2, fromRequest: 1 });
    expect(listing.stub).toEqual({ state: 'bare', chars: 0 });
    expect(listing.budget).toBe(8000);
  });
});

describe('buildReport with a listing', () => {
  const items: EvalItem[] = [
    { id: 'p1', query: 'write the handoff', shouldTrigger: true, extra: {} },
    { id: 'n1', query: 'capital of France', shouldTrigger: false, extra: {} },
  ];
  const input = (listing?: ReportInput['candidate']['listing']): ReportInput => ({
    toolVersion: '1.2.3',
    createdAt: new Date('2026-12-04T10:00:00.000Z'),
    skill: 'handoff',
    simulated: true,
    items,
    rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
    timeoutSeconds: 30,
    stub: 'command',
    maxRetries: 2,
    conflictAllowed: false,
    aborted: false,
    interrupted: false,
    environment: null,
    candidate: {
      description: 'Hand off.',
      overridden: false,
      records: [
        [run({ outcome: { kind: 'triggered' } }), run({ outcome: { kind: 'timeout' } })],
        [run(), run()],
      ],
      stubNames: [],
      ...(listing ? { listing } : {}),
    },
  });

  it('records the state per run and per agent, and passes the report schema', () => {
    const report = buildReport(input({ claude: CLAUDE }));
    expect(report.candidate.queries.map((q) => q.listing)).toEqual([
      ['bare', 'bare'],
      ['bare', 'bare'],
    ]);
    expect(report.candidate.listing?.claude?.runs).toEqual({ whole: 0, cut: 0, bare: 4, fromRequest: 0 });
    expect(reportSchema.safeParse(report).success).toBe(true);
  });

  it('adds nothing without a listing', () => {
    const report = buildReport(input());
    expect(report.candidate.listing).toBeUndefined();
    expect(report.candidate.queries.every((q) => q.listing === undefined)).toBe(true);
  });
});
