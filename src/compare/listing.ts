/**
 * The listing changed between the two measurements (docs/listing-budget.md, "The listing of a
 * measured run"): the stub listed whole on one side and name-only or cut on the other, the
 * catalogue around it (its members by hash), or the budget. A rate of a stub listed name-only
 * measures the name, so the two numbers may differ for that reason alone.
 */
import type { AgentId } from '../agents/ids.js';
import { LISTING_STATE_WORDS } from '../agents/listing.js';
import { agentFacts } from '../agents/registry.js';
import type { Measurement } from '../schemas/report.js';
import type { ComparisonWarning } from './comparison.js';

export function listingDifferenceWarnings(
  a: Pick<Measurement, 'listing'>,
  b: Pick<Measurement, 'listing'>,
  names: { base: string; cand: string },
): ComparisonWarning[] {
  const out: ComparisonWarning[] = [];
  const agents = new Set([...Object.keys(a.listing ?? {}), ...Object.keys(b.listing ?? {})]) as Set<AgentId>;
  for (const agent of agents) {
    const label = agentFacts(agent).label;
    const x = a.listing?.[agent];
    const y = b.listing?.[agent];
    if (x === undefined || y === undefined) {
      out.push({
        code: 'listing-unknown',
        message: `${label}'s listing was read for ${x === undefined ? names.cand : names.base} only: whether the stub was listed alike cannot be said`,
      });
      continue;
    }
    if (x.stub.state !== y.stub.state)
      out.push({
        code: 'listing-state',
        message: `${label} listed the stub ${LISTING_STATE_WORDS[x.stub.state]} in ${names.base}, ${LISTING_STATE_WORDS[y.stub.state]} in ${names.cand}: a stub listed name-only measures the skill's name, not its description`,
      });
    const before = new Set(x.members.map((m) => m.id));
    const after = new Set(y.members.map((m) => m.id));
    const added = [...after].filter((m) => !before.has(m)).length;
    const removed = [...before].filter((m) => !after.has(m)).length;
    if (added > 0 || removed > 0)
      out.push({
        code: 'listing-members',
        message: `${label}'s catalogue differs (by hash): ${added} added, ${removed} removed from ${names.base} to ${names.cand}`,
      });
    if (x.budget !== y.budget)
      out.push({
        code: 'listing-budget',
        message: `${label}'s listing budget differs: ${names.base} ${x.budget ?? 'unknown'}, ${names.cand} ${y.budget ?? 'unknown'} (${x.unit})`,
      });
  }
  return out;
}
