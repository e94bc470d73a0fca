/**
 * How each changed skill is listed, in the comment (docs/action.md, "Measuring among a roster"):
 * under a `roster`, every skill's state there (whole with its size against the budget, cut, or
 * name-only with the size the pull request gives its description); without one, only a move
 * between the baseline and this run. A description the baseline listed that this run lists by its
 * name alone is a regression by itself, and said so. Counts only: no description, name or roster
 * text (src/schemas/privacy.ts). Pure.
 */
import type { AgentId } from '../../agents/ids.js';
import { agentFacts } from '../../agents/registry.js';
import type { AgentListing } from '../../schemas/report.js';
import { type ListedSides, type ListingMove, listingMoves } from '../results/listing-change.js';

const n = (x: number): string => x.toLocaleString('en-US');

/** `8,000 characters`, or `5,440 bytes` for Codex. */
function size(x: number, listing: AgentListing): string {
  return `${n(x)} ${listing.unit}`;
}

/**
 * How one side is listed: `listed whole (612 of 8,000 characters)`, `listed cut to 1,536 characters
 * of its 1,900 (budget …)`, or `listed name-only: <whose> makes the description 1,900 characters, and
 * the listing leaves 850 of 8,000 characters for it`.
 */
export function stateText(listing: AgentListing, whose: string): string {
  const { stub, budget } = listing;
  const of = budget === undefined ? ` ${listing.unit}` : ` of ${size(budget, listing)}`;
  if (stub.state === 'whole') return `listed whole (${n(stub.chars)}${of})`;
  if (stub.state === 'cut')
    return `listed cut to ${size(stub.chars, listing)}${stub.text === undefined || stub.text <= stub.chars ? '' : ` of its ${n(stub.text)}`}${budget === undefined ? '' : ` (budget ${size(budget, listing)})`}`;
  const made = stub.text === undefined ? '' : `: ${whose} makes the description ${size(stub.text, listing)}`;
  const left =
    budget === undefined
      ? ''
      : `, and the listing leaves ${n(Math.max(0, budget - listing.used))}${of} for it`;
  return `listed name-only${made}${left}`;
}

/** `is listed …`, or `would be listed name-only …`: a pull request's name-only entry is what it would ship. */
function verb(listing: AgentListing): string {
  return listing.stub.state === 'bare' ? 'would be' : 'is';
}

/** The line of one agent's move (or its state, when both sides are listed alike). */
function moveLine(move: ListingMove, where: string, who: string, subject: string): string {
  const { base, cand } = move;
  if (base.stub.state === cand.stub.state)
    return `${who}${where}: ${subject} ${verb(cand)} ${stateText(cand, 'it')}.`;
  const line = `${who}${where}: the baseline is ${stateText(base, 'it')}; ${subject} ${verb(cand)} ${stateText(cand, 'it')}.`;
  const lost = base.stub.state !== 'bare' && cand.stub.state === 'bare';
  return lost
    ? `❌ **${line} A regression by itself: the model would read the skill's name, not its description.**`
    : line;
}

/**
 * The listing lines of one measured skill; none without a roster when nothing moved. `subject`
 * names the measured side (`this PR`, `this commit`).
 */
export function listingStateLines(s: ListedSides, subject: string): string[] {
  const roster = s.report.settings.roster !== undefined;
  const where = roster ? 'Among the roster' : 'On the runner';
  const own = Object.entries(s.report.candidate.listing ?? {}) as Array<[AgentId, AgentListing]>;
  const several = own.length > 1;
  const label = (agent: AgentId) => (several ? `${agentFacts(agent).label}: ` : '');
  const moves = listingMoves(s);
  const lines: string[] = [];
  for (const [agent, cand] of own) {
    const move = moves.find((m) => m.agent === agent);
    if (move !== undefined) {
      if (roster || move.base.stub.state !== move.cand.stub.state)
        lines.push(moveLine(move, where, label(agent), subject));
    } else if (roster) {
      lines.push(`${label(agent)}${where}: ${subject} ${verb(cand)} ${stateText(cand, 'it')}.`);
    }
  }
  return lines;
}
