import type { PreflightResult } from '../gates/preflight.js';
import type { MeasureSettings } from '../measure/measure-skill.js';
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
  claude: string;
  debug: boolean;
}

/** What every measurement of a CLI command takes from its flags, its environment and its gates. */
export function measureSettingsFrom(
  args: MeasureFlags,
  io: CliIo,
  preflight: PreflightResult,
): Omit<MeasureSettings, 'skill' | 'evalSet' | 'description' | 'overridden' | 'baselineDescription'> {
  return {
    ...(args.model ? { model: args.model } : {}),
    rules: {
      runsPerQuery: args.runs,
      autoRuns: args.runsAuto,
      triggerThreshold: args.threshold,
      noVerdictShare: 0.1,
    },
    timeoutSeconds: args.timeoutSeconds,
    stub: args.stub,
    maxRetries: args.maxRetries,
    claudeBin: args.claude,
    env: io.env,
    conflictAllowed: preflight.conflictAllowed,
    ...(preflight.rosterInit ? { rosterInit: preflight.rosterInit } : {}),
    simulated: io.env.SKILLTRIGGER_SIMULATED === '1',
    toolVersion: TOOL_VERSION,
    debug: args.debug,
    onStopped: (message) => io.stderr.write(`skilltrigger: stopped early: ${message}\n`),
  };
}
