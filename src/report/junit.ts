import { DEFAULT_AGENT } from '../agents/registry.js';
import { agentView } from '../compare/by-agent.js';
import { measurementOfModel } from '../compare/by-model.js';
import { clipChars, percent } from '../format.js';
import type { Measurement, QueryResult, Report } from '../schemas/report.js';

/**
 * The report as JUnit XML (`run --junit <file>`), so any CI shows per-query results natively. Pure:
 * the report in, text out. The shape is the one Surefire, Jenkins, GitLab and the common GitHub
 * reporters read: `<testsuites>` holding one `<testsuite>` per measured side (one for a single
 * report, baseline and candidate for a paired one), one `<testcase>` per query.
 *
 * - A query that passed is an empty testcase; one that failed carries `<failure>` with hits/runs
 *   and every run's outcome.
 * - A query with no measured run (every run was a timeout or an error) carries `<error>`: lost runs
 *   are never a miss, so they are never a failure either. Lost runs of a query that was measured
 *   on its other runs are named in the testcase's `<system-out>`.
 * - A side without a verdict gets one more testcase, `measurement`, carrying `<error>` with the
 *   reasons: its other testcases are not a measurement, and CI must not read them as one.
 *
 * - With several models (`--model a,b`), each side is one `<testsuite>` per model, and each model's
 *   query is a testcase of its own, judged on that model's runs alone, with the model in its name
 *   and classname. A model property on one pooled testcase would hide a failure on one model
 *   behind the pool; and reporters differ in what they show (GitLab and dorny/test-reporter group
 *   by suite, mikepenz/action-junit-report and the Surefire-style lists show testcase names), so
 *   the model is in both the suite and the testcase.
 * - Each suite has a `cost-usd` property: what its runs cost, priced from their usage (absent when
 *   nothing was priced), and `price-unknown` naming models without a price.
 *
 * Every string from outside (skill name, queries, ids, model) is escaped for XML; characters XML
 * 1.0 cannot carry at all (most control characters, lone surrogates) are shown as `\uXXXX`.
 */
export function renderJunit(report: Report): string {
  const sides: { name: string; m: Measurement }[] = report.baseline
    ? [
        { name: 'baseline', m: report.baseline },
        { name: 'candidate', m: report.candidate },
      ]
    : [{ name: 'candidate', m: report.candidate }];
  // Several agents are split as several models are: a suite per agent (src/compare/by-agent.ts).
  const agents = (report.settings.agents?.length ?? 0) > 1 ? report.settings.agents : undefined;
  const models = agents ?? ((report.settings.models?.length ?? 0) > 1 ? report.settings.models : undefined);
  const suites = sides.flatMap((side) => {
    const m = agents ? agentView(side.m) : side.m;
    return models
      ? models.map((model) => suite(report, side.name, m, sides.length > 1, model))
      : [suite(report, side.name, m, sides.length > 1)];
  });
  const count = (key: keyof SuiteCounts) => suites.reduce((n, s) => n + s.counts[key], 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({
      name: `skilltrigger: ${report.skill}`,
      tests: count('tests'),
      failures: count('failures'),
      errors: count('errors'),
      skipped: 0,
      time: seconds(suites.reduce((n, s) => n + s.counts.timeMs, 0)),
      timestamp: report.createdAt,
    })}>`,
    ...suites.flatMap((s) => s.lines),
    '</testsuites>',
  ];
  return `${lines.join('\n')}\n`;
}

interface SuiteCounts {
  tests: number;
  failures: number;
  errors: number;
  timeMs: number;
}

/** The runs of `q` that ran on `model`, by index; undefined when the per-run models do not tell (an alias). */
function runsOnModel(q: QueryResult, model: string): number[] | undefined {
  const c = q.byModel?.[model];
  if (!c) return [];
  const indices = q.models.flatMap((m, i) => (m === model ? [i] : []));
  return indices.length === c.runs + c.timeouts + c.errors ? indices : undefined;
}

/** How a suite names its cases: their class prefix, and the model a case is marked with. */
interface CaseNaming {
  classPrefix: string;
  caseName: (name: string) => string;
}

function suite(
  report: Report,
  sideName: string,
  whole: Measurement,
  paired: boolean,
  model?: string,
): { lines: string[]; counts: SuiteCounts } {
  const counts: SuiteCounts = { tests: 0, failures: 0, errors: 0, timeMs: 0 };
  const m = model === undefined ? whole : measurementOfModel(whole, model, report.settings.triggerThreshold);
  const base = paired ? `${report.skill}.${sideName}` : report.skill;
  const naming: CaseNaming = {
    classPrefix: model === undefined ? base : `${base}.${model}`,
    caseName: (name) => (model === undefined ? name : `[${model}] ${name}`),
  };
  const cases = [
    ...(m.verdict === 'no-verdict' ? noVerdictCase(m, naming, counts) : []),
    ...m.queries.flatMap((q) => queryCase(q, report.settings.triggerThreshold, naming, counts, model)),
  ];
  const props = suiteProperties(report, m, whole, model);
  return {
    counts,
    lines: [
      `  <testsuite${attrs({
        name: `${paired ? `${report.skill} (${sideName})` : report.skill}${model === undefined ? '' : ` · ${model}`}`,
        tests: counts.tests,
        failures: counts.failures,
        errors: counts.errors,
        skipped: 0,
        time: seconds(counts.timeMs),
        timestamp: report.createdAt,
      })}>`,
      '    <properties>',
      ...props.map(([name, value]) => `      <property${attrs({ name: name ?? '', value: value ?? '' })}/>`),
      '    </properties>',
      ...cases,
      '  </testsuite>',
    ],
  };
}

/** A measurement with no verdict is one erroring case, so a CI never reads it as passed. */
function noVerdictCase(m: Measurement, { classPrefix, caseName }: CaseNaming, counts: SuiteCounts): string[] {
  counts.tests++;
  counts.errors++;
  const message = `NO VERDICT — this is not a measurement: ${m.noVerdictReasons.join('; ')}`;
  return [
    `    <testcase${attrs({ name: caseName('measurement'), classname: classPrefix, time: seconds(0) })}>`,
    `      <error${attrs({ message: oneLine(message), type: 'no-verdict' })}>${text(message)}</error>`,
    '    </testcase>',
  ];
}

/** One query's case, over its runs on `model` when the suite is one model's. */
function queryCase(
  q: QueryResult,
  threshold: number,
  { classPrefix, caseName }: CaseNaming,
  counts: SuiteCounts,
  model: string | undefined,
): string[] {
  const own = model === undefined ? q.outcomes.map((_, i) => i) : runsOnModel(q, model);
  const timeMs = (own ?? []).reduce((a, i) => a + (q.durationsMs[i] ?? 0), 0);
  counts.tests++;
  counts.timeMs += timeMs;
  const open = `    <testcase${attrs({
    name: caseName(oneLine(`${q.id}: ${q.query}`, 200)),
    classname: `${classPrefix}.${q.shouldTrigger ? 'positives' : 'negatives'}`,
    time: seconds(timeMs),
  })}`;
  const body = caseBody(
    q,
    threshold,
    own?.map((i) => q.outcomes[i] ?? ''),
  );
  if (body.kind === 'failure') counts.failures++;
  if (body.kind === 'error') counts.errors++;
  return body.lines.length === 0 ? [`${open}/>`] : [`${open}>`, ...body.lines, '    </testcase>'];
}

/** The suite's properties: its verdict, agent, model, CLI version, settings, description and cost. */
function suiteProperties(
  report: Report,
  m: Measurement,
  whole: Measurement,
  model: string | undefined,
): string[][] {
  // With several agents the suite's "model" is an agent; a single Codex report names its agent too.
  const agent = report.settings.agents
    ? report.agents.find((a) => a.name === model)
    : report.agents[0]?.name === DEFAULT_AGENT
      ? undefined
      : report.agents[0];
  return [
    ['verdict', m.verdict],
    ['simulated', String(report.simulated)],
    ...(agent ? [['agent', agent.name]] : []),
    [
      'model',
      agent && report.settings.agents
        ? (agent.model ?? 'default')
        : (model ?? report.model.requested ?? (report.settings.models ?? ['default']).join(', ')),
    ],
    ['cli-version', (agent ? agent.version : report.cli.version) ?? 'unknown'],
    [
      'runs-per-query',
      `${report.settings.runsPerQuery}${report.settings.runsMode === 'auto' ? ' (auto)' : ''}`,
    ],
    ['trigger-threshold', String(report.settings.triggerThreshold)],
    ['description-sha256', m.description.sha256],
    ...costProperties(whole, model),
  ];
}

/** `cost-usd` (what the suite's runs cost, six decimals) and `price-unknown`; none when nothing was priced. */
function costProperties(m: Measurement, model: string | undefined): string[][] {
  if (!m.cost) return [];
  if (model !== undefined) {
    const usd = m.byModel?.[model]?.costUsd;
    return usd === undefined ? [['price-unknown', model]] : [['cost-usd', usd.toFixed(6)]];
  }
  return [
    ...(m.cost.pricedRuns > 0 ? [['cost-usd', m.cost.usd.toFixed(6)]] : []),
    ...(m.cost.unknownModels.length > 0 ? [['price-unknown', m.cost.unknownModels.join(', ')]] : []),
  ];
}

/** `runs`: this testcase's outcomes in run order (one model's), or undefined when they cannot be told apart. */
function caseBody(
  q: QueryResult,
  threshold: number,
  runs: string[] | undefined,
): { kind: 'pass' | 'failure' | 'error'; lines: string[] } {
  const outcomes =
    runs === undefined
      ? 'outcomes in run order: not told apart by model (see the report)'
      : `outcomes in run order: ${runs.join(', ') || 'none'}`;
  const lost = q.timeouts + q.errors;
  const lostText = `${lost} of ${q.runs + lost} runs lost (${q.timeouts} timeouts, ${q.errors} errors), counted apart`;
  const side = q.shouldTrigger ? 'should trigger' : 'should not trigger';
  if (q.pass === null) {
    const message = `${side}: no run was measured; ${lostText}`;
    return {
      kind: 'error',
      lines: [`      <error${attrs({ message, type: 'lost' })}>${text(`${message}\n${outcomes}`)}</error>`],
    };
  }
  const sysOut = lost > 0 ? [`      <system-out>${text(lostText)}</system-out>`] : [];
  if (q.pass) return { kind: 'pass', lines: sysOut };
  const rate = percent(q.rate ?? 0);
  const needs = `${q.shouldTrigger ? 'above' : 'below'} ${percent(threshold)}`;
  const message = `${side}: triggered ${q.hits}/${q.runs} runs (${rate}); passes ${needs}`;
  const type = q.shouldTrigger ? 'not-triggered' : 'false-trigger';
  return {
    kind: 'failure',
    lines: [
      `      <failure${attrs({ message, type })}>${text(`${message}\n${outcomes}${lost > 0 ? `\n${lostText}` : ''}`)}</failure>`,
      ...sysOut,
    ],
  };
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** One line, for names and messages: every run of whitespace and control characters is one space. */
function oneLine(value: string, max = Number.POSITIVE_INFINITY): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: flattening control characters is the point
  const flat = value.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return clipChars(flat, max);
}

/**
 * Characters XML 1.0 cannot hold even as a reference: C0 controls other than tab, LF and CR,
 * U+FFFE/U+FFFF, and lone surrogates. Shown as `\uXXXX` so the reader still sees that they were there.
 */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the characters XML forbids is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function notXml(value: string): string {
  return value.replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Element text: `&` and `<` escaped (and `>`, so `]]>` cannot appear). */
function text(value: string): string {
  return notXml(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values in double quotes; tab, LF and CR as references, since parsers normalise them to spaces. */
function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(
      ([name, value]) =>
        ` ${name}="${text(String(value))
          .replace(/"/g, '&quot;')
          .replace(/\t/g, '&#9;')
          .replace(/\n/g, '&#10;')
          .replace(/\r/g, '&#13;')}"`,
    )
    .join('');
}
