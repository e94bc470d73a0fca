import os from 'node:os';
import { inheritedEnvironment } from '../adapters/environment.js';
import { StubProjectError, type StubSpec } from '../adapters/stub-project.js';
import type { InitInfo } from '../decide/decision.js';
import { stubFieldsFor } from '../inputs/listing.js';
import type { EvalSet } from '../inputs/types.js';
import { buildMatrixReport, describeMatrixSkill } from '../matrix/build.js';
import {
  type MatrixProgress,
  matrixQueries,
  planMatrix,
  type Shard,
  shardQueries,
  sortSkills,
} from '../matrix/plan.js';
import { destinationOf, summarizeMatrixQuery } from '../matrix/tally.js';
import { rosterOf } from '../report/privacy.js';
import type { MatrixReport, MatrixRun } from '../shapes/matrix.js';
import { shouldStop } from '../verdict/rules.js';
import { projectPrefetch } from './prefetch.js';
import {
  claudeEnvironment,
  type RunDeps,
  RunInterrupted,
  type RunResult,
  realRunDeps,
  runOnce,
} from './run-once.js';
import { defaultStandbyCount, standbyPool } from './standby.js';
import { discardWaiting, startWaiting, type WaitingRun } from './waiting-run.js';

/** One skill of the matrix: its name, the text Claude Code lists for it, its eval set (null: none). */
export interface MatrixEntrant {
  name: string;
  /** The listed text (description, ` - `, when_to_use), which its stub is written from. */
  listed: string;
  evalSet: EvalSet | null;
}

/** Everything a matrix measurement needs, validated by the command. */
export interface MatrixSettings {
  entrants: MatrixEntrant[];
  shard?: Shard;
  runsPerQuery: number;
  noVerdictShare: number;
  timeoutSeconds: number;
  stub: 'command' | 'skill';
  maxRetries: number;
  claudeBin: string;
  env: NodeJS.ProcessEnv;
  model?: string;
  conflictAllowed: boolean;
  simulated: boolean;
  toolVersion: string;
  /** The roster a stub-less run saw, from the roster gate. */
  rosterInit?: InitInfo;
  debug?: boolean;
  /** Told when the loop stopped for a reason of its own (no temp project); the message may hold paths. */
  onStopped?: (message: string) => void;
  /** `--standby N`: the next runs' claudes started ahead, waiting for their prompts (0 or absent: cold runs). */
  standby?: number;
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
  deps: RunDeps = realRunDeps,
): Promise<MatrixReport> {
  const entrants = sortSkills(settings.entrants);
  const names = entrants.map((e) => e.name);
  const installed = new Set(names);
  const refs = shardQueries(
    matrixQueries(entrants.map((e) => ({ name: e.name, items: e.evalSet?.items ?? null }))),
    settings.shard,
  );
  const plan = planMatrix(refs.length, settings.runsPerQuery);
  // Each owner's project: its stub, and every other skill as a sibling, in name order.
  const stubOf = new Map<string, StubSpec>(
    entrants.map((owner) => [
      owner.name,
      {
        layout: settings.stub,
        skillName: owner.name,
        ...stubFieldsFor(owner.listed),
        siblings: entrants
          .filter((e) => e.name !== owner.name)
          .map((e) => ({ skillName: e.name, ...stubFieldsFor(e.listed) })),
      },
    ]),
  );
  const environment = await inheritedEnvironment(settings.env, os.tmpdir());
  const runs: MatrixRun[][] = refs.map(() => []);
  const results: RunResult[] = [];
  let aborted = false;
  let interrupted = false;
  const run = {
    timeoutMs: settings.timeoutSeconds * 1000,
    claudeBin: settings.claudeBin,
    env: claudeEnvironment(settings.env, settings.maxRetries),
    ...(settings.model ? { model: settings.model } : {}),
    ...(settings.debug ? { debug: true } : {}),
  };
  // The loop of run's speed-up (docs/speed.md): the next run's project is made while this one runs, the
  // last one's folder removed while the next starts; keyed by owner, whose stub each project holds.
  const projects = projectPrefetch<string>(deps.createProject);
  // With standbys, each owner's runs get claudes started ahead in projects holding its stub.
  const standbys = settings.standby ?? defaultStandbyCount(os.availableParallelism(), os.freemem());
  const launch = standbys > 0 ? ('standby' as const) : ('cold' as const);
  const pool = standbyPool<WaitingRun>(standbys, {
    start: (owner) => {
      const stub = stubOf.get(owner);
      return stub ? startWaiting({ ...run, stub }, deps) : Promise.reject(new Error(`no skill ${owner}`));
    },
    discard: discardWaiting,
  });
  const ownerAt = (index: number): string | undefined => {
    const slot = plan[index];
    return slot && refs[slot.query]?.owner;
  };
  try {
    await measurePlan();
  } finally {
    await Promise.all([pool.settle(), projects.settle()]);
  }

  async function measurePlan(): Promise<void> {
    for (const [index, slot] of plan.entries()) {
      const ref = refs[slot.query];
      const stub = ref && stubOf.get(ref.owner);
      if (!ref || !stub) continue;
      let result: RunResult;
      try {
        const standby = pool.take(ref.owner);
        const running = runOnce({ ...run, query: ref.item.query, stub, launch }, signal, deps, {
          ...projects.optionsFor(ref.owner),
          ...(standby ? { standby } : {}),
        });
        if (launch === 'standby') {
          const upcoming: string[] = [];
          for (let next = index + 1; next <= index + standbys; next++) {
            const owner = ownerAt(next);
            if (owner !== undefined) upcoming.push(owner);
          }
          pool.fill(upcoming);
        } else {
          const owner = ownerAt(index + 1);
          const nextStub = owner === undefined ? undefined : stubOf.get(owner);
          if (owner !== undefined && nextStub) projects.prefetch(owner, nextStub);
        }
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
  const firstInit = settings.rosterInit ?? results.find((r) => r.init)?.init;
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
      cliVersion: firstInit?.cliVersion ?? null,
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
