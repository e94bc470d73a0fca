import type { LoadedEntry } from '../../agents/runs.js';
import type { Outcome } from '../../outcome.js';
import { sha256Hex } from '../../schemas/privacy.js';
import type { Measurement, QueryResult, Report, SiblingTotals } from '../../schemas/report.js';

/**
 * Where a measurement's runs went among the competing skills (`run --siblings`, docs/matrix.md), from
 * each run's `loaded` (src/agents/claude/decision.ts). Pure. Names are the siblings' own `name`s, which
 * the user passed in; descriptions only as hashes (docs/security.md).
 */

/** A sibling as the report holds it. */
export interface SiblingListed {
  name: string;
  /** The text Claude Code lists for it, which its stub was written from. */
  listed: string;
}

/** The report's record of the sibling set: names and listed-text hashes, sorted by name. */
export function siblingSet(
  siblings: readonly SiblingListed[],
  crossNegatives: boolean,
): NonNullable<Report['siblings']> {
  const members = siblings
    .map((s) => ({ name: s.name, sha256: sha256Hex(s.listed) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { members, crossNegatives };
}

/** The sibling a query belongs to: a cross-negative's `from`, else an `owner` naming a sibling. */
export function ownerOf(query: Pick<QueryResult, 'extra'>, names: ReadonlySet<string>): string | undefined {
  for (const key of ['from', 'owner'] as const) {
    const value = query.extra[key];
    if (typeof value === 'string' && names.has(value)) return value;
  }
  return undefined;
}

/** Whether a query is a cross-negative (a sibling's positive measured as a negative here). */
export function isCrossNegative(query: Pick<QueryResult, 'extra' | 'shouldTrigger'>): boolean {
  return !query.shouldTrigger && typeof query.extra.from === 'string';
}

/** Runs per sibling name that loaded it first, over one query's runs. */
export function siblingHitsOf(runs: readonly { loaded?: LoadedEntry }[]): Record<string, number> {
  const hits: Record<string, number> = {};
  for (const run of runs) {
    if (run.loaded?.kind === 'sibling') hits[run.loaded.name] = (hits[run.loaded.name] ?? 0) + 1;
  }
  return hits;
}

/**
 * Adds `siblingHits` to each query (when some sibling was loaded) and `totals.siblings` to the
 * measurement, in place. `records[i]` holds query i's runs, as for summarizeMeasurement.
 */
export function attachSiblingCounts(
  measurement: Measurement,
  records: readonly (readonly { loaded?: LoadedEntry; outcome: Outcome }[])[],
  siblingNames: readonly string[],
): void {
  const names = new Set(siblingNames);
  const totals: SiblingTotals = {
    lostPositives: 0,
    positiveRuns: 0,
    lostTo: {},
    ownedNegativeRuns: 0,
    toOwner: 0,
  };
  const cross = { queries: 0, passed: 0, fired: 0, runs: 0 };
  for (const [i, query] of measurement.queries.entries()) {
    const runs = records[i] ?? [];
    const hits = siblingHitsOf(runs);
    if (Object.keys(hits).length > 0) query.siblingHits = hits;
    const lostTo = Object.entries(hits);
    if (isCrossNegative(query)) {
      cross.queries++;
      if (query.pass === true) cross.passed++;
      cross.fired += query.hits;
      cross.runs += query.runs;
    }
    if (query.shouldTrigger) {
      totals.positiveRuns += query.runs;
      for (const [name, n] of lostTo) {
        totals.lostPositives += n;
        totals.lostTo[name] = (totals.lostTo[name] ?? 0) + n;
      }
      continue;
    }
    const owner = ownerOf(query, names);
    if (owner === undefined) continue;
    totals.ownedNegativeRuns += query.runs;
    totals.toOwner += hits[owner] ?? 0;
  }
  if (cross.queries > 0) totals.crossNegatives = cross;
  measurement.totals.siblings = totals;
}

/** The siblings that took the most positive runs, largest first (ties by name), at most `limit`. */
export function topThieves(totals: SiblingTotals, limit = 3): Array<[string, number]> {
  return Object.entries(totals.lostTo)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit);
}
