import type { AgentId } from '../../agents/ids.js';
import type { AgentListing, Measurement, Report } from '../../schemas/report.js';

/**
 * How a pull request moves a skill's listing (docs/action.md, "Measuring among a roster"): per
 * agent, the baseline's and this run's listing of the stub, from the reports (pure). A skill whose
 * description reached the model on the baseline (whole or cut) and is listed by its name alone in
 * this run has lost its listing: that is a regression by itself, whatever the rates say, since the
 * rate measured then is the name's. Compared only when both sides were listed alike: the same
 * crowd (`roster`, or none) and the same budget; a paired report's sides always are.
 */

/** What of a measured skill its listing is judged from: its report, and the cached one it is compared with. */
export interface ListedSides {
  report: Report;
  baselineReport?: Report;
}

export interface ListingMove {
  agent: AgentId;
  base: AgentListing;
  cand: AgentListing;
}

/** The measurement the skill's comparison used as its base: the paired side, else the cached report's. */
function baseMeasurement(s: ListedSides): Measurement | undefined {
  return s.report.baseline ?? s.baselineReport?.candidate;
}

/** Whether two reports were listed among the same crowd (the same roster, or none). */
function sameCrowd(a: Report, b: Report): boolean {
  return (a.settings.roster?.sha256 ?? null) === (b.settings.roster?.sha256 ?? null);
}

/** Per agent listed on both sides alike, the baseline's listing and this run's. */
export function listingMoves(s: ListedSides): ListingMove[] {
  const base = baseMeasurement(s);
  if (base === undefined) return [];
  if (s.report.baseline === undefined && s.baselineReport && !sameCrowd(s.baselineReport, s.report))
    return [];
  const moves: ListingMove[] = [];
  for (const [agent, cand] of Object.entries(s.report.candidate.listing ?? {}) as Array<
    [AgentId, AgentListing]
  >) {
    const before = base.listing?.[agent];
    if (before === undefined || before.unit !== cand.unit || before.budget !== cand.budget) continue;
    moves.push({ agent, base: before, cand });
  }
  return moves;
}

/** The moves that took a listed description (whole or cut) to a name-only entry. */
export function listingLosses(s: ListedSides): ListingMove[] {
  return listingMoves(s).filter((m) => m.base.stub.state !== 'bare' && m.cand.stub.state === 'bare');
}
