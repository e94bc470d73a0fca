/**
 * What the registry's agents do at run time, for the core that must not name them: the one place
 * outside an agent's folder that imports its processes.
 */
import { killAllClaudeGroups } from './claude/children.js';
import { removeProjectEntriesIn } from './claude/leftovers.js';
import { killAllCodexGroups } from './codex/process.js';
import { type SweepResult, sweepDeadOwners } from './process/temp-owner.js';

/**
 * SIGKILLs the process group of every agent run still alive, whichever agent it is (the second
 * interrupt, a cancelled job). Synchronous; the temp folders are removed by their own sweep.
 */
export function killAllAgentGroups(): void {
  killAllClaudeGroups();
  killAllCodexGroups();
}

/**
 * Removes the temp folders of runs whose owner is gone (a SIGKILLed skilltrigger), with what each
 * agent left for them outside the folder (docs/home.md).
 */
export function sweepDeadRuns(root: string, env: Record<string, string | undefined>): Promise<SweepResult> {
  return sweepDeadOwners(root, env, removeProjectEntriesIn);
}
