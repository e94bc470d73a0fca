import type { AgentId } from '../agents/ids.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import type { ContextTurn } from '../agents/transcript.js';
import type { Prices } from '../cost/prices-file.js';
import type { MemoryFile } from '../inputs/memory.js';
import type { MeasureSettings } from '../measure/measure-settings.js';
import type { PreflightResult } from '../preflight/preflight.js';
import { DEFAULT_RULES } from '../verdict/rules.js';
import { TOOL_VERSION } from '../version.js';
import type { CliIo } from './output.js';

/** The flags `run` and `improve` share, as both measure with them. */
export interface MeasureFlags {
  model?: string;
  runs: number;
  runsAuto: boolean;
  threshold: number;
  timeoutSeconds: number;
  stub: 'command' | 'skill';
  maxRetries: number;
  bins: Record<AgentId, string>;
  debug: boolean;
  /** `--model a,b`: several models (then `model` is absent). */
  models?: string[];
  /** `--late N`. */
  lateTurns?: number;
  /** `--standby N` (absent: the machine's default). */
  standby?: number;
  /** `--context <file>`, read: the turns every run starts with (docs/context.md). */
  contextTurns?: readonly ContextTurn[];
  /** `--versus-fresh`. */
  versusFresh?: boolean;
  /** `--context-fill N`: the fill `contextTurns` was made from. */
  contextFill?: number;
  /** `--memory <file>`…, read: the project instructions every run's project holds (docs/cli.md "Memory files"). */
  memoryFiles?: readonly MemoryFile[];
}

/** What the cost step adds (src/cli/cost-step.ts): the price table, and the budget with `--max-cost-usd`. */
export interface MeasureCost {
  prices: Prices;
  budget?: { maxUsd: number; firstEstimateUsd: number };
}

/** What every measurement of a CLI command takes from its flags, its environment and its gates. */
export function measureSettingsFrom(
  args: MeasureFlags,
  io: CliIo,
  preflight: PreflightResult,
  cost?: MeasureCost,
): Omit<MeasureSettings, 'skill' | 'evalSet' | 'description' | 'overridden' | 'baselineDescription'> {
  return {
    ...flagSettingsFrom(args, io, cost),
    conflictAllowed: preflight.conflictAllowed,
    ...(preflight.rosterInit ? { rosterInit: preflight.rosterInit } : {}),
  };
}

/** What a measurement takes from the flags and the environment alone: known before the gates. */
export function flagSettingsFrom(
  args: MeasureFlags,
  io: CliIo,
  cost?: MeasureCost,
): Omit<
  MeasureSettings,
  'skill' | 'evalSet' | 'description' | 'overridden' | 'baselineDescription' | 'conflictAllowed'
> {
  return {
    ...(args.model ? { model: args.model } : {}),
    ...(args.models && args.models.length > 1 ? { models: args.models } : {}),
    ...(args.lateTurns === undefined ? {} : { lateTurns: args.lateTurns }),
    ...(args.standby === undefined ? {} : { standby: args.standby }),
    ...(args.contextTurns ? { context: args.contextTurns } : {}),
    ...(args.versusFresh ? { versusFresh: true } : {}),
    ...(args.contextFill === undefined ? {} : { contextFill: args.contextFill }),
    ...(args.memoryFiles && args.memoryFiles.length > 0 ? { memory: args.memoryFiles } : {}),
    ...(cost ? { prices: cost.prices } : {}),
    ...(cost?.budget ? { budget: cost.budget } : {}),
    rules: {
      runsPerQuery: args.runs,
      autoRuns: args.runsAuto,
      triggerThreshold: args.threshold,
      noVerdictShare: DEFAULT_RULES.noVerdictShare,
    },
    timeoutSeconds: args.timeoutSeconds,
    stub: args.stub,
    maxRetries: args.maxRetries,
    defaultBin: args.bins[DEFAULT_AGENT],
    env: io.env,
    simulated: io.env.SKILLTRIGGER_SIMULATED === '1',
    toolVersion: TOOL_VERSION,
    debug: args.debug,
    onStopped: (message) => io.stderr.write(`skilltrigger: stopped early: ${message}\n`),
  };
}
