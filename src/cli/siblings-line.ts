import type { AgentId } from '../agents/agent.js';
import type { CodexSiblings } from '../agents/codex/listed.js';
import type { SiblingSkill } from '../inputs/siblings.js';

/**
 * The siblings each run installs beside the stub, counted as the runs will install them: a sibling
 * Codex does not list is not installed in a Codex run (why is said once Codex's gates have passed).
 * `codex`: the siblings as Codex sees them (`codexSiblings`), when Codex runs; `run` reads them once.
 */
export function siblingsLine(
  siblings: readonly SiblingSkill[],
  agents: readonly { agent: AgentId }[],
  codex: CodexSiblings | undefined,
): string {
  const names = (list: readonly string[]) => list.join(', ');
  const all = siblings.map((s) => s.skill.name);
  const codexRuns = agents.some((a) => a.agent === 'codex');
  const leftOut = codexRuns ? (codex?.leftOut.map((l) => l.name) ?? []) : [];
  const installed = all.filter((name) => !leftOut.includes(name));
  if (leftOut.length === 0)
    return `siblings: ${all.length} installed beside the stub in every run (${names(all)})`;
  if (!agents.some((a) => a.agent === 'claude'))
    return `siblings: ${installed.length} installed beside the stub in every run (${names(installed)}); ${names(leftOut)} left out, as Codex does not list ${leftOut.length === 1 ? 'it' : 'them'}`;
  return `siblings: ${all.length} installed beside the stub in every claude run (${names(all)}), ${installed.length} in every Codex run (${names(leftOut)} left out, as Codex does not list ${leftOut.length === 1 ? 'it' : 'them'})`;
}
