/**
 * A loop spec whose claude agent runs on a test's stand-ins (`RunDeps`): the loop as
 * `openLoopAgents` would open claude, written in the spec's old, claude-shaped form, so a test
 * names its stubs and run settings and hands the processes.
 */
import { claudeLoopAgent } from '../../src/agents/claude/agent.js';
import type { EarlyStandby } from '../../src/agents/claude/early-standby.js';
import type { RunDeps, RunSpec } from '../../src/agents/claude/run-once.js';
import { claudeLoopRuntime } from '../../src/agents/claude/runtime.js';
import type { StubSpec } from '../../src/agents/process/stub-project.js';
import type { EarlyStart } from '../../src/agents/runs.js';
import { loopRuntimeOf } from '../../src/agents/runtime.js';
import type { LoopSpec, SideLabel } from '../../src/measure/loop-spec.js';
import { loopTargets, type PlanSpec, warmStartsOf } from '../../src/measure/loop-targets.js';
import type { RuntimeLookup } from '../../src/measure/measurement-loop.js';

export interface ClaudeLoopSpec extends Omit<PlanSpec, 'sides' | 'timeoutMs'> {
  sides: Array<{ label: SideLabel; stub: StubSpec }>;
  run: Omit<RunSpec, 'query' | 'stub'>;
  standby?: number;
  early?: EarlyStandby & EarlyStart;
  seam?: LoopSpec['seam'];
  budget?: LoopSpec['budget'];
}

/** `spec` as the loop takes it, claude opened over `deps` beside any agent the spec already holds. */
export function withClaude(spec: ClaudeLoopSpec, deps: RunDeps): LoopSpec {
  const { sides, run, standby = 0, early, seam, budget, ...plan } = spec;
  const { timeoutMs, ...claudeRun } = run;
  const planSpec: PlanSpec = {
    ...plan,
    sides: sides.map((s) => ({ label: s.label })),
    timeoutMs,
    ...(run.model === undefined ? {} : { model: run.model }),
  };
  const warm = warmStartsOf(planSpec, loopTargets(planSpec), 'claude', standby, early);
  const claude = claudeLoopAgent(
    {
      stubs: sides.map((s) => s.stub),
      run: claudeRun,
      standby: warm.count,
      ...(warm.first ? { first: warm.first } : {}),
      ...(early ? { early } : {}),
    },
    deps,
  );
  return { ...planSpec, seam: { claude, ...seam }, ...(budget ? { budget } : {}) };
}

/** The runtimes of a measurement whose claude runs on `deps`; every other agent's is the registry's. */
export function claudeOver(deps: RunDeps): RuntimeLookup {
  const claude = claudeLoopRuntime(deps);
  return (id) => (id === 'claude' ? claude : loopRuntimeOf(id));
}
