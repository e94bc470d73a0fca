/**
 * One run on the agent seam (src/agents/runs.ts), whichever agent runs it, returned as the loop
 * records it, so the verdicts and the reports read every agent's runs alike.
 */
import { type Agent, type AgentRunRequest, RunInterrupted } from '../agents/runs.js';
import type { RunResult } from './loop-spec.js';

export async function runOnAgent(agent: Agent, request: AgentRunRequest): Promise<RunResult> {
  let result: RunResult;
  try {
    result = await agent.run(request);
  } catch (error) {
    // An interrupt kills the run and removes its files; the run is not recorded.
    if (request.signal?.aborted) throw new RunInterrupted();
    throw error;
  }
  const decided = result.outcome.kind === 'triggered' || result.outcome.kind === 'not-triggered';
  if (decided || result.loaded === undefined) return result;
  const { loaded: _undecided, ...rest } = result;
  return rest;
}
