import { describeText, rosterOf } from '../../src/schemas/privacy.js';
import {
  type Measurement,
  type QueryResult,
  REPORT_SCHEMA_ID,
  REPORT_SCHEMA_VERSION,
  type Report,
  type ReportUsage,
} from '../../src/schemas/report.js';
import { measurementSubsets } from '../../src/verdict/rules.js';

/**
 * Hand-built, schema-valid reports for the report tests and any test that needs one. Queries are
 * given as the outcome codes of their runs; every count, rate, pass, partial/lost list, total and
 * verdict is derived from those, so a fixture is consistent however it is overridden.
 *
 * The private inputs a real run starts from (description text, paths, roster names, stub name) are
 * exported so privacy tests can assert none of them reaches a rendering.
 */

export const FIXTURE_DESCRIPTION =
  'Extract tables from PDF files into CSV or Markdown. Use when the user wants tabular data pulled out of a PDF.';
export const FIXTURE_BASELINE_DESCRIPTION = 'Helps with PDF tables.';
export const FIXTURE_STUB = 'pdf-tables-stub-1a2b3c4d';
/** Paths a real run touches; none may appear in a report or its rendering. */
export const FIXTURE_PATHS = [
  '/home/alice/work/skills/pdf-tables/SKILL.md',
  '/home/alice/work/evals/pdf-tables.json',
  `/tmp/skilltrigger-Xy12ab/.claude/commands/${FIXTURE_STUB}.md`,
] as const;
export const FIXTURE_ROSTER = {
  slashCommands: ['commit', 'review-pr', 'init', 'docx', FIXTURE_STUB],
  skills: ['docx', 'brand-voice'],
} as const;

export const FIXTURE_MODEL = 'claude-sonnet-4-5-20250929';
export const FIXTURE_CREATED_AT = '2025-03-14T09:26:53.000Z';

/** One query, by the outcome codes of its runs in the order they ran. */
export interface QuerySpec {
  query: string;
  shouldTrigger: boolean;
  outcomes: string[];
  /** Defaults to `q<index+1>`. */
  id?: string;
  extra?: Record<string, unknown>;
  /** Defaults to the runs per query (or the number of outcomes, if more). */
  planned?: number;
}

export interface MeasurementSpec {
  description?: string;
  overridden?: boolean;
  runsPerQuery?: number;
  triggerThreshold?: number;
  noVerdictShare?: number;
  aborted?: boolean;
  interrupted?: boolean;
}

/** 4 positives and 4 negatives at 2 runs: one positive on the threshold (fails), one negative that fired, one timeout. */
export const FIXTURE_QUERIES: readonly QuerySpec[] = [
  {
    query: 'Pull the tables out of quarterly-report.pdf into a CSV',
    shouldTrigger: true,
    outcomes: ['triggered', 'triggered'],
  },
  {
    query: 'Can you extract the revenue table | page 4 of the attached PDF?',
    shouldTrigger: true,
    outcomes: ['triggered', 'not-triggered'],
  },
  {
    query: 'Turn the invoice tables in this PDF into Markdown',
    shouldTrigger: true,
    outcomes: ['triggered', 'timeout'],
  },
  {
    query: 'Get the tabular data from scan_2024.pdf',
    shouldTrigger: true,
    outcomes: ['triggered', 'triggered'],
  },
  {
    query: 'Summarise this PDF in three sentences',
    shouldTrigger: false,
    outcomes: ['not-triggered', 'not-triggered'],
    extra: { note: 'near miss: a PDF, but no table' },
  },
  {
    query: 'Make a table of my monthly expenses',
    shouldTrigger: false,
    outcomes: ['not-triggered', 'not-triggered'],
  },
  {
    query: 'Convert this CSV into a PDF report',
    shouldTrigger: false,
    outcomes: ['triggered', 'not-triggered'],
    extra: { note: 'near miss: the reverse direction', needs_context: false },
  },
  {
    query: "What's the weather in Lisbon tomorrow?",
    shouldTrigger: false,
    outcomes: ['not-triggered', 'not-triggered'],
  },
];

/** The same eval set as measured with the older, vaguer description. */
export const FIXTURE_BASELINE_QUERIES: readonly QuerySpec[] = FIXTURE_QUERIES.map((q, i) => ({
  ...q,
  outcomes: [
    ['triggered', 'not-triggered'],
    ['not-triggered', 'not-triggered'],
    ['triggered', 'triggered'],
    ['triggered', 'not-triggered'],
    ['triggered', 'not-triggered'],
    ['not-triggered', 'not-triggered'],
    ['triggered', 'triggered'],
    ['not-triggered', 'not-triggered'],
  ][i] as string[],
}));

const RUN_USAGE: ReportUsage = {
  inputTokens: 1200,
  outputTokens: 40,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
};

function sumUsage(usages: readonly ReportUsage[]): ReportUsage {
  const sum = (f: (u: ReportUsage) => number) => usages.reduce((a, u) => a + f(u), 0);
  const costs = usages.flatMap((u) => (u.costUsd === undefined ? [] : [u.costUsd]));
  return {
    inputTokens: sum((u) => u.inputTokens),
    outputTokens: sum((u) => u.outputTokens),
    cacheReadInputTokens: sum((u) => u.cacheReadInputTokens),
    cacheCreationInputTokens: sum((u) => u.cacheCreationInputTokens),
    ...(costs.length > 0 ? { costUsd: costs.reduce((a, c) => a + c, 0) } : {}),
  };
}

const isLostCode = (code: string) => code === 'timeout' || code.startsWith('error:');

export function fixtureQuery(spec: QuerySpec, index: number, opts: MeasurementSpec = {}): QueryResult {
  const threshold = opts.triggerThreshold ?? 0.5;
  const measured = spec.outcomes.filter((o) => !isLostCode(o));
  const hits = measured.filter((o) => o === 'triggered').length;
  const rate = measured.length === 0 ? null : hits / measured.length;
  const planned = spec.planned ?? Math.max(opts.runsPerQuery ?? 2, spec.outcomes.length);
  return {
    id: spec.id ?? `q${index + 1}`,
    query: spec.query,
    shouldTrigger: spec.shouldTrigger,
    extra: spec.extra ?? {},
    outcomes: [...spec.outcomes],
    models: spec.outcomes.map((o) => (isLostCode(o) ? null : FIXTURE_MODEL)),
    durationsMs: spec.outcomes.map((_, run) => 4000 + 100 * index + 10 * run),
    planned,
    runs: measured.length,
    hits,
    timeouts: spec.outcomes.filter((o) => o === 'timeout').length,
    errors: spec.outcomes.filter((o) => o.startsWith('error:')).length,
    rate,
    pass: rate === null ? null : spec.shouldTrigger ? rate > threshold : rate < threshold,
    partial: measured.length < planned,
    usage: sumUsage(measured.map(() => RUN_USAGE)),
  };
}

/**
 * A measurement whose verdict follows the verdict rule (src/verdict/rules.ts) from the outcomes
 * given.
 */
export function fixtureMeasurement(specs: readonly QuerySpec[], opts: MeasurementSpec = {}): Measurement {
  const queries = specs.map((spec, i) => fixtureQuery(spec, i, opts));
  const sum = (qs: readonly QueryResult[], f: (q: QueryResult) => number) => qs.reduce((a, q) => a + f(q), 0);
  const positives = queries.filter((q) => q.shouldTrigger);
  const negatives = queries.filter((q) => !q.shouldTrigger);
  const planned = sum(queries, (q) => q.planned);
  const lost = sum(queries, (q) => q.timeouts + q.errors);
  const share = opts.noVerdictShare ?? 0.1;
  const budget = Math.floor(planned * share + 1e-9);
  const lostQueries = queries.filter((q) => q.runs === 0 && q.outcomes.length > 0).map((q) => q.id);
  const reasons = [
    // As the run's own rule has it: a stopped run has no verdict, whatever it measured.
    ...(opts.interrupted
      ? ['the run was interrupted before every planned run finished']
      : opts.aborted
        ? ['the run was stopped before every planned run finished']
        : []),
    ...(lost > budget
      ? [`${lost} of ${planned} planned runs were lost, more than ${share * 100}% (at most ${budget})`]
      : []),
    ...(lostQueries.length > 0
      ? [`${lostQueries.length} ${lostQueries.length === 1 ? 'query' : 'queries'} lost every run`]
      : []),
  ];
  // The annotated subsets' totals, as a run computes them (their rule is tested on its own).
  const subsets = measurementSubsets(queries);
  const errorCauses: Record<string, number> = {};
  for (const code of queries.flatMap((q) => q.outcomes)) {
    if (code.startsWith('error:')) {
      const cause = code.slice('error:'.length);
      errorCauses[cause] = (errorCauses[cause] ?? 0) + 1;
    }
  }
  return {
    description: describeText(opts.description ?? FIXTURE_DESCRIPTION, opts.overridden ?? false),
    verdict: reasons.length > 0 ? 'no-verdict' : 'ok',
    noVerdictReasons: reasons,
    aborted: opts.aborted ?? false,
    interrupted: opts.interrupted ?? false,
    lostQueries,
    partialQueries: queries.filter((q) => q.partial && q.runs > 0).map((q) => q.id),
    queries,
    totals: {
      planned,
      executed: sum(queries, (q) => q.outcomes.length),
      positives: { triggered: sum(positives, (q) => q.hits), runs: sum(positives, (q) => q.runs) },
      negatives: { fired: sum(negatives, (q) => q.hits), runs: sum(negatives, (q) => q.runs) },
      timeouts: sum(queries, (q) => q.timeouts),
      errors: sum(queries, (q) => q.errors),
      errorCauses,
      queries: queries.length,
      passed: queries.filter((q) => q.pass === true).length,
      failed: queries.filter((q) => q.pass === false).length,
      usage: sumUsage(queries.map((q) => q.usage)),
    },
    ...(subsets === undefined ? {} : { subsets }),
  };
}

/**
 * A valid single (unpaired) report. Overrides replace top-level fields; `verdict` follows the
 * candidate (and baseline) unless overridden too.
 */
export function reportFixture(overrides: Partial<Report> = {}): Report {
  const candidate = overrides.candidate ?? fixtureMeasurement(FIXTURE_QUERIES);
  const baseline = 'baseline' in overrides ? overrides.baseline : undefined;
  const measurements = [candidate, ...(baseline ? [baseline] : [])];
  const reported: Record<string, number> = {};
  for (const model of measurements.flatMap((m) => m.queries.flatMap((q) => q.models))) {
    if (model !== null) reported[model] = (reported[model] ?? 0) + 1;
  }
  const report: Report = {
    schema: REPORT_SCHEMA_ID,
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'skilltrigger', version: '0.1.0' },
    createdAt: FIXTURE_CREATED_AT,
    skill: 'pdf-tables',
    simulated: false,
    cli: { version: '2.1.328' },
    // A report names its agent's version twice (cli.version, agents[0].version); an override of
    // the CLI's version changes both, as a report written by that CLI would.
    agents: [{ name: 'claude', version: overrides.cli?.version ?? '2.1.328' }],
    model: { requested: 'claude-sonnet-4-5', reported },
    roster: rosterOf(FIXTURE_ROSTER.slashCommands, FIXTURE_ROSTER.skills, [FIXTURE_STUB]),
    environment: { memoryFiles: { project: 1, user: 0 }, hooks: 2, mcpServers: 1 },
    settings: {
      runsPerQuery: 2,
      timeoutSeconds: 30,
      triggerThreshold: 0.5,
      noVerdictShare: 0.1,
      stub: 'command',
      maxRetries: 2,
    },
    conflictAllowed: false,
    verdict: measurements.every((m) => m.verdict === 'ok') ? 'ok' : 'no-verdict',
    candidate,
    ...overrides,
  };
  if (report.baseline === undefined) delete report.baseline;
  return report;
}

/** A paired report: the baseline description and the candidate measured interleaved. */
export function pairedReportFixture(overrides: Partial<Report> = {}): Report {
  return reportFixture({
    baseline: fixtureMeasurement(FIXTURE_BASELINE_QUERIES, { description: FIXTURE_BASELINE_DESCRIPTION }),
    ...overrides,
  });
}
