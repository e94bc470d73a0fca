import { FIRST_AGENT } from '../../agents/registry.js';
import { InputError, messageOf } from '../../errors.js';
import {
  OLDEST_READ_SCHEMA_VERSION,
  REPORT_SCHEMA_ID,
  REPORT_SCHEMA_VERSION,
  type Report,
  reportSchema,
} from '../../schemas/report.js';
import { consistencyIssues } from './consistency.js';

/**
 * Reading a report back (compare, the Action's baseline, the writer's own check): from text to a
 * validated `Report`, or an `InputError` that names the file and says what is wrong with it. A
 * file from another tool, a newer skilltrigger, or a hand edit gets a message, not a crash in a
 * renderer.
 */

/** How many schema issues a message quotes; the first few locate a defect, the rest are noise. */
const ISSUES_QUOTED = 3;

const REWRITE_FIX =
  'pass a report written by `skilltrigger run`; if this is one, it was changed since, so measure again';

/** A short, single-line quotation of a value the file held. */
function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** `$.candidate.queries[2].hits`: where the issue sits, in the file's own terms. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path
    .map((key) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = String(key);
      return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
    })
    .reduce((acc, part) => acc + part, '$');
}

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const quoted = issues.slice(0, ISSUES_QUOTED).map((issue) => `${jsonPath(issue.path)}: ${issue.message}`);
  const more = issues.length - quoted.length;
  return quoted.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** Validates an already-parsed value as a report; `file` names it in the error. */
export function validateReport(value: unknown, file: string): Report {
  const record = reportRecord(value, file);
  const version = record.schemaVersion;
  const readable = typeof version === 'number' && version >= OLDEST_READ_SCHEMA_VERSION;
  if (
    typeof version === 'number' &&
    version !== REPORT_SCHEMA_VERSION &&
    !(readable && version < REPORT_SCHEMA_VERSION)
  ) {
    throw unreadableVersion(version, file);
  }
  // An older version's report is read as the current version: it only lacks optional fields.
  const current = readable && version < REPORT_SCHEMA_VERSION ? upgraded(record, version) : value;
  const parsed = reportSchema.safeParse(current);
  if (!parsed.success) {
    throw new InputError(
      { file },
      `not a valid skilltrigger report: ${describeIssues(parsed.error.issues)}`,
      REWRITE_FIX,
    );
  }
  const impossible = impossibleCounts(parsed.data);
  if (impossible.length > 0) {
    throw new InputError(
      { file },
      `not a valid skilltrigger report: ${describeIssues(impossible)}`,
      REWRITE_FIX,
    );
  }
  const inconsistent = consistencyIssues(parsed.data);
  if (inconsistent.length > 0) {
    throw new InputError(
      { file },
      `not a consistent skilltrigger report: ${describeIssues(inconsistent)}`,
      'the numbers were changed after the report was written, so they cannot be trusted; undo the edit, or measure again with `skilltrigger run`',
    );
  }
  return parsed.data;
}

/** The value as an object whose `schema` is a report's; anything else is not a report. */
function reportRecord(value: unknown, file: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new InputError(
      { file },
      `not a skilltrigger report: expected a JSON object, got ${got}`,
      'pass a .json file written by `skilltrigger run`',
    );
  }
  const record = value as Record<string, unknown>;
  if (!('schema' in record)) {
    throw new InputError(
      { file },
      'not a skilltrigger report: it has no "schema" field',
      'pass a .json file written by `skilltrigger run`',
    );
  }
  if (record.schema !== REPORT_SCHEMA_ID) {
    throw new InputError(
      { file },
      `not a skilltrigger report: its "schema" is ${quote(record.schema)}, not "${REPORT_SCHEMA_ID}"`,
      'pass a .json file written by `skilltrigger run`',
    );
  }
  return record;
}

/** A schema version this skilltrigger cannot read: newer (upgrade), or older than it reads (measure again). */
function unreadableVersion(version: number, file: string): InputError {
  if (version > REPORT_SCHEMA_VERSION) {
    return new InputError(
      { file },
      `written by a newer skilltrigger (report schema version ${version}; this version reads ${REPORT_SCHEMA_VERSION})`,
      'upgrade skilltrigger',
    );
  }
  return new InputError(
    { file },
    `written by an older skilltrigger (report schema version ${version}; this version reads ${OLDEST_READ_SCHEMA_VERSION} to ${REPORT_SCHEMA_VERSION})`,
    'measure again with this version of skilltrigger',
  );
}

/**
 * An older version's report as the current version: it only lacks optional fields, and (before
 * version 6) the agent, which was always Claude Code at the version its runs reported.
 */
function upgraded(record: Record<string, unknown>, version: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record, schemaVersion: REPORT_SCHEMA_VERSION };
  if (version < 6 && !('agents' in record)) {
    const cli = record.cli as { version?: unknown } | undefined;
    const cliVersion = typeof cli?.version === 'string' ? cli.version : null;
    out.agents = [{ name: FIRST_AGENT, version: cliVersion }];
  }
  return out;
}

/**
 * Counts the schema cannot see are impossible: more hits than measured runs. A hand edit can make
 * them, and the comparison's statistics refuse them (a RangeError deep in a test), so they are
 * an input error here, where the file can be named.
 */
function impossibleCounts(report: Report): { path: PropertyKey[]; message: string }[] {
  const issues: { path: PropertyKey[]; message: string }[] = [];
  const sides = [
    ['candidate', report.candidate] as const,
    ...(report.baseline ? [['baseline', report.baseline] as const] : []),
  ];
  for (const [side, measurement] of sides) {
    measurement.queries.forEach((q, i) => {
      if (q.hits > q.runs) {
        issues.push({
          path: [side, 'queries', i, 'hits'],
          message: `${q.hits} hits out of ${q.runs} measured runs`,
        });
      }
    });
    const { positives, negatives } = measurement.totals;
    if (positives.triggered > positives.runs) {
      issues.push({
        path: [side, 'totals', 'positives', 'triggered'],
        message: `${positives.triggered} triggered out of ${positives.runs} runs`,
      });
    }
    if (negatives.fired > negatives.runs) {
      issues.push({
        path: [side, 'totals', 'negatives', 'fired'],
        message: `${negatives.fired} fired out of ${negatives.runs} runs`,
      });
    }
  }
  return issues;
}

/** Parses a report file's text. `file` is only used to name the file in errors. */
export function parseReport(text: string, file: string): Report {
  let value: unknown;
  try {
    // An editor may have added a byte-order mark; JSON.parse rejects it.
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const reason = messageOf(error);
    throw new InputError(
      { file },
      `not valid JSON (${reason})`,
      text.trim() === '' ? 'the file is empty; measure again with `skilltrigger run`' : REWRITE_FIX,
    );
  }
  return validateReport(value, file);
}
