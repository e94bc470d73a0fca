import { type AgentChoice, type AgentId, DEFAULT_AGENTS } from '../agents/ids.js';
import { UsageError } from '../errors.js';
import { contextRefusal } from '../inputs/agents.js';
import { MAX_SHARDS, parseShard, type Shard } from '../matrix/shard.js';
import { MATRIX_AGENTS } from '../schemas/matrix.js';
import { Inputs } from './constants.js';
import { bad, type InputText } from './input-reader.js';

/*
 * The steps of reading how the job runs (settings.ts): its mode and shard, its folders, its
 * competition and forks, its cost inputs, and the routing matrix. Taken in readSettings' order.
 */

export type Mode = 'measure' | 'merge' | 'drift';

/** `mode`, and `shard` (only with mode: measure). */
export function readModeAndShard(input: InputText): { mode: Mode; shard?: Shard } {
  const mode = input.raw(Inputs.Mode);
  if (mode !== 'measure' && mode !== 'merge' && mode !== 'drift')
    throw bad(Inputs.Mode, 'measure, merge or drift', mode);
  const shardValue = input.optional(Inputs.Shard);
  const shard = shardValue === undefined ? undefined : parseShard(shardValue);
  if (shardValue !== undefined && shard === undefined) {
    throw bad(
      Inputs.Shard,
      `i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, such as 2/3 (or empty, for no sharding)`,
      shardValue,
    );
  }
  if (shardValue !== undefined && mode === 'merge') {
    throw bad(Inputs.Shard, 'empty with mode: merge (the merge step gathers every shard)', shardValue);
  }
  if (shardValue !== undefined && mode === 'drift') {
    throw bad(
      Inputs.Shard,
      'empty with mode: drift (one job measures every skill, so that one issue can say which moved)',
      shardValue,
    );
  }
  return { mode, ...(shard === undefined ? {} : { shard }) };
}

/** A path that is absolute (`/`, `\`, a drive letter) or climbs out with `..`: outside the workspace. */
export function leavesWorkspace(path: string): boolean {
  return /^([\\/]|[A-Za-z]:)/.test(path) || path.split(/[\\/]/).includes('..');
}

/**
 * `results-dir` and `out`. The reports folder, as results-dir and prices: inside the workspace, so a
 * workflow input cannot write the reports (and the Pages artifact made from them) anywhere else on
 * the runner.
 */
export function readFolders(input: InputText): { resultsDir: string; out: string } {
  const resultsDir = input.raw(Inputs.ResultsDir);
  if (resultsDir.split(/[\\/]/).includes('..')) {
    throw bad(
      Inputs.ResultsDir,
      'a folder inside the workspace, such as skilltrigger-results (no ..)',
      resultsDir,
    );
  }
  const out = input.raw(Inputs.Out);
  if (leavesWorkspace(out)) {
    throw bad(
      Inputs.Out,
      'a folder relative to the workspace, such as skilltrigger-results (no leading / and no ..)',
      out,
    );
  }
  return { resultsDir, out };
}

/** `competition` and `on-fork`. */
export function readChoices(input: InputText): {
  competition: 'siblings' | 'isolated';
  onFork: 'skip' | 'fail';
} {
  const competition = input.raw(Inputs.Competition);
  if (competition !== 'siblings' && competition !== 'isolated') {
    throw bad(Inputs.Competition, 'siblings or isolated', competition);
  }
  const onFork = input.raw(Inputs.OnFork);
  if (onFork !== 'skip' && onFork !== 'fail') throw bad(Inputs.OnFork, 'skip or fail', onFork);
  return { competition, onFork };
}

/** `prices`, the context inputs (readContextInputs) and `max-cost-usd`. */
export function readCostInputs(
  input: InputText,
  agents: readonly AgentChoice[] | undefined,
): { prices?: string; maxCostUsd?: number } & ContextInputs {
  const prices = input.optional(Inputs.Prices);
  if (prices !== undefined && leavesWorkspace(prices)) {
    throw bad(
      Inputs.Prices,
      'a price table file relative to the workspace, such as .github/skilltrigger-prices.json (no leading / and no ..)',
      prices,
    );
  }
  const contexts = readContextInputs(input, agents);
  const maxCostUsd =
    input.optional(Inputs.MaxCostUsd) === undefined
      ? undefined
      : input.numeric(Inputs.MaxCostUsd, ' (or empty, for no budget)');
  return {
    ...(prices === undefined ? {} : { prices }),
    ...contexts,
    ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
  };
}

/** What the context inputs say: the fill, or the file (its path as the workflow wrote it), and `versus-fresh`. */
export interface ContextInputs {
  contextFill?: number;
  context?: string;
  versusFresh: boolean;
}

/**
 * `context-fill`, `context` (a file inside the workspace, not with a fill) and `versus-fresh`; a
 * context is refused for an agent that cannot take it. The file itself is read before the gates
 * (context-input.ts).
 */
function readContextInputs(input: InputText, agents: readonly AgentChoice[] | undefined): ContextInputs {
  const contextFill =
    input.optional(Inputs.ContextFill) === undefined
      ? undefined
      : input.numeric(Inputs.ContextFill, ' (or empty, for none)');
  const context = input.optional(Inputs.Context);
  if (context !== undefined && leavesWorkspace(context)) {
    throw bad(
      Inputs.Context,
      'a context file relative to the workspace, such as .github/contexts/mid-session.json (no leading / and no ..)',
      context,
    );
  }
  if (context !== undefined && contextFill !== undefined) {
    throw new UsageError(
      `input ${Inputs.Context}: ${Inputs.Context} and ${Inputs.ContextFill} both give every query its earlier turns. Fix: keep one of them, and leave the other empty`,
    );
  }
  const given =
    context !== undefined ? Inputs.Context : contextFill !== undefined ? Inputs.ContextFill : undefined;
  const noContext = contextRefusal(
    agents ?? DEFAULT_AGENTS,
    given === undefined ? undefined : `input ${given}`,
  );
  if (noContext) throw noContext;
  return {
    ...(contextFill === undefined ? {} : { contextFill }),
    ...(context === undefined ? {} : { context }),
    versusFresh: input.boolean(Inputs.VersusFresh),
  };
}

/**
 * `routing-matrix` and `accept-drift`, against the first agent, the budget and the mode: the matrix
 * runs on the agents its loop knows, has no budget stop, and is not what drift measures; a drift is
 * accepted only in drift mode.
 */
export function readMatrixAndDrift(
  input: InputText,
  {
    firstAgent,
    maxCostUsd,
    mode,
  }: { firstAgent: AgentId | undefined; maxCostUsd: number | undefined; mode: Mode },
): { routingMatrix: boolean; acceptDrift: boolean } {
  const routingMatrix = input.boolean(Inputs.RoutingMatrix);
  if (routingMatrix && firstAgent !== undefined && !MATRIX_AGENTS.includes(firstAgent)) {
    // The matrix holds the first agent's runs, and it runs on the agents its loop knows.
    throw new UsageError(
      `input ${Inputs.RoutingMatrix}: the routing matrix runs on ${MATRIX_AGENTS.join(' or ')}, and ${Inputs.Agents} puts ${firstAgent} first. Fix: list ${MATRIX_AGENTS.join(' or ')} first in ${Inputs.Agents}, or set ${Inputs.RoutingMatrix}: false`,
    );
  }
  if (maxCostUsd !== undefined && routingMatrix) {
    // The matrix loop has no budget stop and is not in the job's estimate: refuse rather than
    // let a "budget" quietly not cover the costliest part of the job.
    throw new UsageError(
      `input ${Inputs.MaxCostUsd}: does not budget the routing matrix (routing-matrix: true), whose runs are not estimated or stopped. Fix: leave ${Inputs.MaxCostUsd} empty, or set routing-matrix: false`,
    );
  }
  const acceptDrift = input.boolean(Inputs.AcceptDrift);
  if (acceptDrift && mode !== 'drift') {
    throw bad(Inputs.AcceptDrift, `false unless mode is drift (this step's mode is ${mode})`, 'true');
  }
  if (routingMatrix && mode === 'drift') {
    throw new UsageError(
      `input ${Inputs.RoutingMatrix}: mode: drift measures each skill against its stored baseline, not the routing matrix. Fix: set routing-matrix: false on the drift step`,
    );
  }
  return { routingMatrix, acceptDrift };
}
