/**
 * The Action's `memory` input (docs/action.md): `auto` installs the repository's own root memory
 * files in every measured run's project, each for the agents that read it, on both arms; empty
 * installs none. The files are read and checked before the gates, as `run --memory` reads its own.
 */
import path from 'node:path';
import { type AgentChoice, type AgentId, DEFAULT_AGENTS } from '../agents/ids.js';
import { agentFacts } from '../agents/registry.js';
import { InputError, InputErrors, UsageError } from '../errors.js';
import type { MemoryFile } from '../inputs/memory.js';
import { loadMemoryFiles } from '../inputs/memory-file.js';
import { exists } from '../system/input-file.js';
import { Inputs } from './constants.js';

/** What the `memory` input says: `auto`, or nothing. */
export function readMemoryInput(raw: string): 'auto' | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  if (value === 'auto') return 'auto';
  throw new UsageError(
    `input ${Inputs.Memory}: expected auto or empty, got ${JSON.stringify(value)}. Fix: set ${Inputs.Memory}: auto to install the repository's root CLAUDE.md, AGENTS.md and GEMINI.md, or leave it empty`,
  );
}

/**
 * The root files each measured agent reads, in the order of the agents: each agent's own file
 * (its facts' `memoryFile`), else the one it reads instead (`memoryFallback`: Claude Code reads an
 * `AGENTS.md` when the root has no `CLAUDE.md`, docs/claude-cli.md "Project memory"). Pure.
 */
export function autoMemoryPlan(
  present: ReadonlySet<string>,
  agents: readonly AgentChoice[],
): Array<{ name: string; agents: AgentId[] }> {
  const plan = new Map<string, AgentId[]>();
  for (const id of new Set(agents.map((a) => a.agent))) {
    const { memoryFile: own, memoryFallback: fallback } = agentFacts(id);
    const name = present.has(own)
      ? own
      : fallback !== undefined && present.has(fallback)
        ? fallback
        : undefined;
    if (name !== undefined) plan.set(name, [...(plan.get(name) ?? []), id]);
  }
  return [...plan].map(([name, ids]) => ({ name, agents: ids }));
}

/**
 * `memory: auto`: the root files of the workspace the measured agents read, read and checked (a
 * defect fails the step, exit 1, naming the file and the fix). Empty: none.
 */
export async function actionMemory(
  workspace: string,
  memory: 'auto' | undefined,
  agents: readonly AgentChoice[],
): Promise<MemoryFile[]> {
  if (memory === undefined) return [];
  const candidates = new Set(
    agents.flatMap((a) => {
      const { memoryFile, memoryFallback } = agentFacts(a.agent);
      return memoryFallback === undefined ? [memoryFile] : [memoryFile, memoryFallback];
    }),
  );
  const present = new Set<string>();
  for (const name of candidates) if (await exists(path.join(workspace, name))) present.add(name);
  const plan = autoMemoryPlan(present, agents);
  if (plan.length === 0) return [];
  let read: MemoryFile[];
  try {
    read = await loadMemoryFiles(
      plan.map((p) => path.join(workspace, p.name)),
      'each',
    );
  } catch (error) {
    if (!(error instanceof InputErrors)) throw error;
    // Said with the file as the repository names it, never the runner's path.
    const said = error.errors.map(
      (e) =>
        new InputError(
          { file: path.relative(workspace, e.location.file ?? '') },
          e.problem.replace('--memory: ', ''),
          e.fix,
        ).message,
    );
    throw new UsageError(`input ${Inputs.Memory}: ${said.join('\n')}`);
  }
  return read.map((file, i) => ({
    ...file,
    file: plan[i]?.name ?? file.file,
    agents: plan[i]?.agents ?? [],
  }));
}

/** The settings with `memory: auto`'s files read (`memoryFiles`), before the gates. */
export async function withActionMemory<
  S extends { memory?: 'auto'; agents?: readonly AgentChoice[]; memoryFiles?: readonly MemoryFile[] },
>(workspace: string, settings: S): Promise<S> {
  const files = await actionMemory(workspace, settings.memory, settings.agents ?? DEFAULT_AGENTS);
  return files.length === 0 ? settings : { ...settings, memoryFiles: files };
}
