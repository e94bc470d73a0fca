import { type Shard, takeShard } from '../matrix/shard.js';
import type { SkillPlan } from './changed-skills.js';

/**
 * A leg's plans: the skills due to be measured are split by `takeShard`; the others (skipped, or a
 * SKILL.md that does not parse) cost nothing and are reported once, by shard 1, so the merged
 * comment lists each exactly once.
 */
export function shardPlans(plans: readonly SkillPlan[], shard: Shard): SkillPlan[] {
  const measured = takeShard(
    plans.filter((p) => p.kind === 'measure'),
    shard,
  );
  const rest = shard.index === 1 ? plans.filter((p) => p.kind !== 'measure') : [];
  const keep = new Set<SkillPlan>([...measured, ...rest]);
  return plans.filter((p) => keep.has(p));
}
