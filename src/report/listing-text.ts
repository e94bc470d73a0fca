/**
 * What a report says, at its top, about how the stub was listed (docs/listing-budget.md): when the
 * agent listed it bare or cut, the rate measured is not the description's, and every rendering
 * (the terminal, the Markdown, the Action's comment) opens with that. Pure.
 */
import type { AgentId } from '../agents/ids.js';
import type { ListingPicture } from '../agents/listing.js';
import { agentFacts } from '../agents/registry.js';
import { percent } from '../format.js';
import type { AgentListing, Measurement } from '../schemas/report.js';
import { agentListing, type ListingRead } from './build/listing.js';

/** The sentence every rendering opens with when the stub is listed by its name alone. */
export const NAME_ONLY = "listed name-only: this measures the skill's name, not its description";

const number = (n: number): string => n.toLocaleString('en-US');

/** The budget and what the catalogue takes of it: `budget 8,000 characters, the listing takes 7,990 (100%)`. */
export function budgetText(listing: AgentListing): string {
  const unit = listing.unit;
  const counts = `${listing.entries.whole} whole, ${listing.entries.cut} cut, ${listing.entries.bare} bare${
    listing.entries.omitted > 0 ? `, ${listing.entries.omitted} left out` : ''
  }`;
  if (listing.budget === undefined)
    return `the listing takes ${number(listing.used)} ${unit}, budget not known; ${counts}`;
  return `budget ${number(listing.budget)} ${unit}, the listing takes ${number(listing.used)} (${percent(
    listing.used / listing.budget,
  )}); ${counts}`;
}

/** The warning for one agent's listing, or undefined when the stub was listed whole. */
export function listingWarning(listing: AgentListing, agent: AgentId, several: boolean): string | undefined {
  const who = several ? `${agentFacts(agent).label}: ` : '';
  if (listing.stub.state === 'whole') return undefined;
  const head =
    listing.stub.state === 'bare'
      ? NAME_ONLY
      : `listed cut to ${number(listing.stub.chars)} characters: this measures the start of the description, not all of it`;
  return `${who}${head} (${budgetText(listing)})`;
}

/** Every warning of a measurement, one per agent whose listing left the stub bare or cut. */
export function listingWarnings(m: Measurement): string[] {
  const entries = Object.entries(m.listing ?? {}) as Array<[AgentId, AgentListing]>;
  return entries.flatMap(([agent, listing]) => listingWarning(listing, agent, entries.length > 1) ?? []);
}

/** One line per agent saying how the stub was listed and its runs counted, for the report's body. */
export function listingLines(m: Measurement): string[] {
  const entries = Object.entries(m.listing ?? {}) as Array<[AgentId, AgentListing]>;
  return entries.map(([agent, l]) => {
    const runs = l.runs.whole + l.runs.cut + l.runs.bare;
    const stub = l.stub.state === 'cut' ? `cut (${number(l.stub.chars)} characters)` : l.stub.state;
    return `${agentFacts(agent).label} listed the stub ${stub}; runs ${l.runs.whole} whole, ${l.runs.cut} cut, ${l.runs.bare} bare of ${runs} (${l.runs.fromRequest} read from their own request); ${budgetText(l)}`;
  });
}

/** What the probes read before the runs, for the terminal: each side's warning, or its state, and each failure. */
export function listingReadLines(read: ListingRead, paired: boolean): string[] {
  const lines: string[] = [];
  const several = new Set(read.sides.flatMap((s) => Object.keys(s))).size > 1;
  for (const [i, pictures] of read.sides.entries()) {
    const side = paired ? (i === 0 ? 'candidate ' : 'baseline ') : '';
    for (const [agent, picture] of Object.entries(pictures) as Array<[AgentId, ListingPicture]>) {
      const listing = agentListing(picture, []);
      const who = several ? `${agentFacts(agent).label}: ` : '';
      lines.push(
        `listing: ${side}${listingWarning(listing, agent, several) ?? `${who}listed whole (${budgetText(listing)})`}`,
      );
    }
  }
  for (const f of read.failures)
    lines.push(
      `listing: ${agentFacts(f.agent).label}'s listing of the stub could not be read (${f.reason}); the report carries no listing state for it`,
    );
  return lines;
}
