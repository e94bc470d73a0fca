/**
 * The listing gate (docs/listing-budget.md, "The listing gate"): a stub the agent lists name-only
 * or cut where the skill itself, installed where a user puts it, would be listed better, measures
 * an artefact of the harness: the runs would answer for a shorter text than users' sessions see.
 * It is refused before the first run (exit 2) unless `--allow-bare`. Where the skill itself would be
 * listed the same way (a crowd that leaves it name-only too), the measurement is what users get,
 * and only the warning is said. Pure.
 */
import type { AgentId } from '../agents/ids.js';
import { LISTING_STATE_WORDS, type ListingState } from '../agents/listing.js';
import { AGENTS } from '../agents/registry.js';
import type { ListingRead } from '../report/build/listing.js';

const RANK: Record<ListingState, number> = { whole: 2, cut: 1, bare: 0 };
/** Why the runs are refused, or undefined when every side's stub is listed as the skill itself would be. */
export function listingGateRefusal(read: ListingRead, labels: readonly string[]): string | undefined {
  for (const [i, pictures] of read.sides.entries()) {
    for (const [agent, picture] of Object.entries(pictures) as Array<[AgentId, (typeof pictures)[AgentId]]>) {
      const real = picture?.realSkill;
      if (picture === undefined || real === undefined || RANK[picture.stub.state] >= RANK[real]) continue;
      const side = labels.length > 1 ? `the ${labels[i] ?? 'candidate'}'s ` : 'the ';
      return `listing: ${AGENTS[agent].label} would list ${side}stub ${LISTING_STATE_WORDS[picture.stub.state]}, where the skill itself, installed in the user's skills folder, would be listed ${LISTING_STATE_WORDS[real]}: the runs would measure a shorter text than a session sees. Fix: make room in the listing (fewer or shorter skills installed, or a shorter description), or pass --allow-bare to measure it as listed`;
    }
  }
  return undefined;
}
