import { type AgentId, measures } from '../agents/ids.js';
import type { ListedSiblings } from '../agents/listing.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import type { SiblingSkill } from '../inputs/siblings.js';

/**
 * The siblings each run installs beside the stub, counted as the runs will install them: a sibling
 * an agent does not list is not installed in that agent's runs (why is said once its gates have
 * passed). `listed`: the siblings as each other agent sees them, read once by `run`.
 */
export function siblingsLine(
  siblings: readonly SiblingSkill[],
  agents: readonly { agent: AgentId }[],
  listed: Partial<Record<AgentId, ListedSiblings>>,
): string {
  const names = (list: readonly string[]) => list.join(', ');
  const all = siblings.map((s) => s.skill.name);
  const short = (Object.entries(listed) as [AgentId, ListedSiblings][]).filter(
    ([id, l]) => measures(agents, id) && l.leftOut.length > 0,
  );
  if (short.length === 0)
    return `siblings: ${all.length} installed beside the stub in every run (${names(all)})`;
  const counts = short.map(([id, l]) => {
    const leftOut = l.leftOut.map((x) => x.name);
    const installed = all.filter((name) => !leftOut.includes(name));
    return { label: agentFacts(id).label, leftOut, installed };
  });
  const why = (c: (typeof counts)[number]) =>
    `${names(c.leftOut)} left out, as ${c.label} does not list ${c.leftOut.length === 1 ? 'it' : 'them'}`;
  const [only] = counts;
  if (!measures(agents, DEFAULT_AGENT) && counts.length === 1 && only)
    return `siblings: ${only.installed.length} installed beside the stub in every run (${names(only.installed)}); ${why(only)}`;
  const others = counts.map((c) => `${c.installed.length} in every ${c.label} run (${why(c)})`).join(', ');
  return `siblings: ${all.length} installed beside the stub in every ${DEFAULT_AGENT} run (${names(all)}), ${others}`;
}
