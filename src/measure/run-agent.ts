/**
 * One run of an agent on the seam (src/adapters/agent.ts: Codex today): always cold, in a fresh
 * project its adapter makes and removes, and returned as the loop records a claude run, so the
 * verdicts and the reports read both alike.
 */
import type { Agent, AgentRunRequest } from '../adapters/agent.js';
import { RunInterrupted, type RunResult } from './run-once.js';

export async function runOnAgent(agent: Agent, request: AgentRunRequest): Promise<RunResult> {
  if (request.signal?.aborted) throw new RunInterrupted();
  let result: Awaited<ReturnType<Agent['run']>>;
  try {
    result = await agent.run(request);
  } catch (error) {
    // An interrupt kills the run and removes its files; like a claude run's, it is not recorded.
    if (request.signal?.aborted) throw new RunInterrupted();
    throw error;
  }
  const decided = result.outcome.kind === 'triggered' || result.outcome.kind === 'not-triggered';
  return {
    outcome: result.outcome,
    durationMs: result.durationMs,
    usage: result.usage,
    agent: agent.id,
    ...(result.model === undefined ? {} : { model: result.model }),
    ...(decided && result.loaded !== undefined ? { loaded: result.loaded } : {}),
  };
}
