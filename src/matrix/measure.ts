import os from 'node:os';
import { type InitInfo, RunInterrupted, type UpcomingRun } from '../agents/agent.js';
import { StubProjectError } from '../agents/process/stub-project.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { contextRefusal } from '../inputs/agents.js';
import { describeContext } from '../inputs/context.js';
import type { RunResult } from '../measure/loop-spec.js';
import { runOnAgent } from '../measure/run-agent.js';
import type { MatrixReport, MatrixRun } from '../schemas/matrix.js';
import { rosterOf } from '../schemas/privacy.js';
import { shouldStop } from '../verdict/rules.js';
import {
  type MatrixAgentSettings,
  type MatrixRunDeps,
  matrixAgent,
  matrixEnvironment,
  matrixRefs,
  matrixStandbyCount,
  realMatrixRunDeps,
} from './agent.js';
import { buildMatrixReport, describeMatrixSkill } from './build.js';
import { type MatrixProgress, planMatrix, sortSkills } from './plan.js';
import { destinationOf, summarizeMatrixQuery } from './tally.js';

export type { MatrixEntrant, MatrixOtherAgent } from './agent.js';

/** Everything a matrix measurement needs, validated by the command. */
export interface MatrixSettings extends MatrixAgentSettings {
  noVerdictShare: number;
  conflictAllowed: boolean;
  simulated: boolean;
  toolVersion: string;
  /** The roster a stub-less run saw, from the roster gate. */
  rosterInit?: InitInfo;
  /** Told when the loop stopped for a reason of its own (no temp project); the message may hold paths. */
  onStopped?: (message: string) => void;
}

/**
 * Which installed skill's stub a name of the init roster is: the skill layout lists a stub by the
 * skill's name, the command layout as `<skill>-stub-<8 hex>`.
 */
function isInstalledStub(name: string, skills: readonly string[]): boolean {
  return skills.some((s) => name === s || (name.startsWith(`${s}-stub-`) && /-stub-[0-9a-f]{8}$/.test(name)));
}

/**
 * Measure the matrix: every query of this leg (every query without `--shard`) runs with its owner's
 * stub as the tested one and every other skill installed beside it as a sibling, strictly one run
 * at a time, round-robin; each run records which skill it loaded. Never writes files itself.
 */
export async function measureMatrix(
  settings: MatrixSettings,
  onRun: (p: MatrixProgress) => void,
  signal?: AbortSignal,
  deps: MatrixRunDeps = realMatrixRunDeps,
): Promise<MatrixReport> {
  const entrants = sortSkills(settings.entrants);
  const names = entrants.map((e) => e.name);
  const installed = new Set(names);
  const refs = matrixRefs(settings);
  // The CLI refuses this before its gates; the Action's entries reach it here, before any run.
  const refused = contextRefusal(
    [{ agent: settings.agent?.id ?? DEFAULT_AGENT }],
    refs.some((ref) => ref.item.context?.turns !== undefined) ? 'a context' : undefined,
  );
  if (refused) throw refused;
  const plan = planMatrix(refs.length, settings.runsPerQuery);
  // Each owner is one side of the loop: its project holds its skill as the tested one.
  const sideOf = new Map(names.map((name, side) => [name, side]));
  const environment = await matrixEnvironment(settings.env, os.tmpdir());
  const runs: MatrixRun[][] = refs.map(() => []);
  const results: RunResult[] = [];
  let aborted = false;
  let interrupted = false;
  // With standbys, the next runs start ahead (docs/speed.md); an agent without a warm standby runs cold.
  const standbys = matrixStandbyCount(settings);
  const launch = standbys > 0 ? ('standby' as const) : ('cold' as const);
  const agent = matrixAgent(settings, standbys, deps);
  const model = settings.model ? { model: settings.model } : {};
  /** The next runs after plan[index] (as many as the agent prepares), nearest first. */
  const upcoming = (index: number): UpcomingRun[] =>
    plan.slice(index + 1, index + 1 + Math.max(standbys, 1)).flatMap((slot) => {
      const owner = refs[slot.query]?.owner;
      const side = owner === undefined ? undefined : sideOf.get(owner);
      const context = refs[slot.query]?.item.context?.turns;
      return side === undefined
        ? []
        : [{ agent: agent.id, side, ...model, ...(context === undefined ? {} : { context }) }];
    });
  try {
    await measurePlan();
  } finally {
    await agent.settle?.();
  }

  async function measurePlan(): Promise<void> {
    for (const [index, slot] of plan.entries()) {
      const ref = refs[slot.query];
      const side = ref && sideOf.get(ref.owner);
      if (!ref || side === undefined) continue;
      let result: RunResult;
      try {
        const running = runOnAgent(agent, {
          query: ref.item.query,
          side,
          ...model,
          timeoutMs: settings.timeoutSeconds * 1000,
          ...(signal ? { signal } : {}),
          ...(ref.item.context?.turns === undefined ? {} : { context: ref.item.context.turns }),
        });
        agent.ahead?.(upcoming(index));
        result = await running;
      } catch (error) {
        if (error instanceof RunInterrupted) {
          aborted = true;
          interrupted = true;
          break;
        }
        // A temp folder that fills up mid-matrix must not cost the runs already measured.
        if (error instanceof StubProjectError && results.length > 0) {
          settings.onStopped?.(error.message);
          aborted = true;
          break;
        }
        throw error;
      }
      const went = destinationOf(result.outcome, result.loaded, ref.owner, installed);
      runs[slot.query]?.push(went);
      results.push(result);
      onRun({
        query: slot.query,
        queries: refs.length,
        owner: ref.owner,
        pass: slot.pass,
        runsPerQuery: settings.runsPerQuery,
        went,
        durationMs: result.durationMs,
        done: results.length,
        planned: plan.length,
      });
      // The no-verdict rule of run, over every run of the matrix: once no verdict is possible, stop.
      const lost = runs.flat().filter((r) => r.to === 'lost').length;
      const anyQueryLostAll = runs.some(
        (r) => r.length === settings.runsPerQuery && r.every((x) => x.to === 'lost'),
      );
      if (
        results.length < plan.length &&
        shouldStop({ planned: plan.length, lost, anyQueryLostAll, share: settings.noVerdictShare })
      ) {
        aborted = true;
        break;
      }
    }
  }
  // Another agent has no init event: its version is the gate's, and the machine's roster is claude's notion.
  const firstInit = settings.agent ? undefined : (settings.rosterInit ?? results.find((r) => r.init)?.init);
  const reportedModels: Record<string, number> = {};
  for (const r of results) if (r.model) reportedModels[r.model] = (reportedModels[r.model] ?? 0) + 1;
  const stubNames = firstInit
    ? [...firstInit.slashCommands, ...firstInit.skills].filter((n) => isInstalledStub(n, names))
    : [];
  return buildMatrixReport(
    {
      toolVersion: settings.toolVersion,
      createdAt: new Date(),
      simulated: settings.simulated,
      ...(settings.agent ? { agent: settings.agent.id } : {}),
      cliVersion: (settings.agent ? settings.agent.version : firstInit?.cliVersion) ?? null,
      requestedModel: settings.model ?? null,
      reportedModels,
      roster: firstInit ? rosterOf(firstInit.slashCommands, firstInit.skills, stubNames) : null,
      environment: { ...environment, mcpServers: firstInit?.mcpServers ?? 0 },
      settings: {
        runsPerQuery: settings.runsPerQuery,
        timeoutSeconds: settings.timeoutSeconds,
        noVerdictShare: settings.noVerdictShare,
        stub: settings.stub,
        maxRetries: settings.maxRetries,
        launch,
        ...(settings.context === undefined ? {} : { context: describeContext(settings.context) }),
      },
      conflictAllowed: settings.conflictAllowed,
      shard: settings.shard ?? null,
      skills: entrants.map((e) => describeMatrixSkill(e.name, e.listed, e.evalSet?.items ?? null)),
      planned: plan.length,
      aborted,
      interrupted,
    },
    refs.map((ref, k) => summarizeMatrixQuery(ref, runs[k] ?? [])),
  );
}
