import {
  type Measurement,
  type QueryResult,
  REPORT_SCHEMA_VERSION,
  type Report,
} from '../../src/schemas/report.js';

/**
 * Builds schema-conformant Measurement and Report objects from hit counts, for the compare tests.
 * (Measurement-level only: outcomes are synthesised as hits, then misses, then lost runs.)
 */

/** One query of a simulated measurement. */
export interface QuerySpec {
  query: string;
  shouldTrigger: boolean;
  hits: number;
  /** Measured runs (triggered + not-triggered). */
  runs: number;
  /** Planned runs; defaults to `runs` + `lost`. */
  planned?: number;
  /** Runs lost to timeouts. */
  lost?: number;
  id?: string;
  /** The entry's extra fields (needs_context, split, …); none by default. */
  extra?: Record<string, unknown>;
}

export interface MeasurementOptions {
  sha256?: string;
  bytes?: number;
  verdict?: 'ok' | 'no-verdict';
  noVerdictReasons?: string[];
}

const NO_USAGE = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
export const SHA_A = 'a'.repeat(64);
export const SHA_B = 'b'.repeat(64);

export function queryResult(spec: QuerySpec, index = 0): QueryResult {
  const lost = spec.lost ?? 0;
  const planned = spec.planned ?? spec.runs + lost;
  const outcomes = [
    ...Array<string>(spec.hits).fill('triggered'),
    ...Array<string>(spec.runs - spec.hits).fill('not-triggered'),
    ...Array<string>(lost).fill('timeout'),
  ];
  const rate = spec.runs > 0 ? spec.hits / spec.runs : null;
  return {
    id: spec.id ?? `q${index + 1}`,
    query: spec.query,
    shouldTrigger: spec.shouldTrigger,
    extra: spec.extra ?? {},
    outcomes,
    models: outcomes.map((o) => (o === 'timeout' ? null : 'claude-test')),
    durationsMs: outcomes.map(() => 1000),
    planned,
    runs: spec.runs,
    hits: spec.hits,
    timeouts: lost,
    errors: 0,
    rate,
    pass: rate === null ? null : spec.shouldTrigger ? rate > 0.5 : rate < 0.5,
    partial: spec.runs < planned,
    usage: NO_USAGE,
  };
}

export function buildMeasurement(specs: readonly QuerySpec[], opts: MeasurementOptions = {}): Measurement {
  const queries = specs.map((s, i) => queryResult(s, i));
  const pos = queries.filter((q) => q.shouldTrigger);
  const neg = queries.filter((q) => !q.shouldTrigger);
  const add = (xs: QueryResult[], f: (q: QueryResult) => number) => xs.reduce((a, q) => a + f(q), 0);
  const timeouts = add(queries, (q) => q.timeouts);
  const verdict = opts.verdict ?? 'ok';
  return {
    description: { bytes: opts.bytes ?? 120, sha256: opts.sha256 ?? SHA_A, overridden: false },
    verdict,
    noVerdictReasons:
      opts.noVerdictReasons ?? (verdict === 'no-verdict' ? ['more than 10% of runs lost'] : []),
    aborted: false,
    interrupted: false,
    lostQueries: queries.filter((q) => q.runs === 0).map((q) => q.id),
    partialQueries: queries.filter((q) => q.partial).map((q) => q.id),
    queries,
    totals: {
      planned: add(queries, (q) => q.planned),
      executed: add(queries, (q) => q.outcomes.length),
      positives: { triggered: add(pos, (q) => q.hits), runs: add(pos, (q) => q.runs) },
      negatives: { fired: add(neg, (q) => q.hits), runs: add(neg, (q) => q.runs) },
      timeouts,
      errors: 0,
      errorCauses: {},
      queries: queries.length,
      passed: queries.filter((q) => q.pass === true).length,
      failed: queries.filter((q) => q.pass === false).length,
      usage: NO_USAGE,
    },
  };
}

/** Hex-12 roster member hashes `000000000000`, `000000000001`, … (n of them, from `start`). */
export function rosterMembers(n: number, start = 0): string[] {
  return Array.from({ length: n }, (_, i) => (start + i).toString(16).padStart(12, '0'));
}

/** A full single-measurement report around `candidate`; override any top-level field. */
export function buildReport(candidate: Measurement, overrides: Partial<Report> = {}): Report {
  const members = rosterMembers(10);
  const runs = candidate.queries.reduce((a, q) => a + q.runs, 0);
  return {
    schema: 'skilltrigger/report',
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'skilltrigger', version: '0.1.0' },
    createdAt: '2026-09-18T10:00:00.000Z',
    skill: 'handoff',
    simulated: false,
    cli: { version: '2.1.328' },
    agents: [{ name: 'claude', version: '2.1.328' }],
    model: { requested: 'claude-test', reported: { 'claude-test': runs } },
    roster: { slashCommands: 4, skills: 6, members },
    environment: { memoryFiles: { project: 0, user: 1 }, hooks: 0, mcpServers: 0 },
    settings: {
      runsPerQuery: 2,
      timeoutSeconds: 30,
      triggerThreshold: 0.5,
      noVerdictShare: 0.1,
      stub: 'command',
      maxRetries: 2,
    },
    conflictAllowed: false,
    verdict: candidate.verdict,
    candidate,
    ...overrides,
  };
}
