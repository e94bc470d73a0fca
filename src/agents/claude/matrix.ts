/**
 * Claude Code's routing matrix (docs/matrix.md): one side per skill, each side's project holding
 * that skill's stub as the tested one and every other skill's beside it, each written from the text
 * Claude Code lists for it; run by its loop agent with its standbys, the first one started before
 * the gates.
 */
import { stubFieldsFor } from '../../inputs/listing.js';
import type { AgentMatrixSettings } from '../agent.js';
import type { StubSpec } from '../process/stub-project.js';
import type { Agent, RunShape } from '../runs.js';
import { type ClaudeLoop, claudeLoopAgent, waitingSpecOf } from './agent.js';
import type { EarlyStandby } from './early-standby.js';
import { claudeEnvironment } from './launch.js';
import type { RunDeps } from './run-once.js';
import type { WaitingSpec } from './waiting-run.js';

/** Each side's stub: its skill as the tested one, every other skill of the matrix a sibling, in side order. */
function matrixStubs(settings: AgentMatrixSettings): StubSpec[] {
  return settings.sides.map((side) => ({
    layout: settings.layout ?? 'command',
    skillName: side.skillName,
    ...stubFieldsFor(side.description),
    siblings: side.siblings.map((s) => ({ skillName: s.skillName, ...stubFieldsFor(s.description) })),
  }));
}

/** What every claude run of the matrix is started with, its query and stub aside. */
function matrixRun(settings: AgentMatrixSettings): ClaudeLoop['run'] {
  return {
    claudeBin: settings.bin,
    env: claudeEnvironment(settings.env, settings.knobs?.maxRetries ?? 0),
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.knobs?.debug ? { debug: true } : {}),
  };
}

/** What the standby of the matrix's run shaped `first` is started with; undefined for a side not planned. */
export function matrixWaitingSpec(settings: AgentMatrixSettings, first: RunShape): WaitingSpec | undefined {
  return waitingSpecOf({ stubs: matrixStubs(settings), run: matrixRun(settings) }, first);
}

/** Claude's loop agent over the matrix's sides; `early` the first run's standby begun before the gates. */
export function claudeMatrixAgent(
  settings: AgentMatrixSettings,
  early: EarlyStandby | undefined,
  deps: RunDeps,
): Agent {
  const standby = settings.standby ?? 0;
  return claudeLoopAgent(
    {
      stubs: matrixStubs(settings),
      run: matrixRun(settings),
      standby,
      ...(standby > 0 && settings.first ? { first: settings.first } : {}),
      ...(early ? { early } : {}),
    },
    deps,
  );
}
