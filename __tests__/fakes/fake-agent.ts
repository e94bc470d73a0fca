import type { AgentId } from '../../src/agents/ids.js';
import type { Agent, AgentRunRequest, AgentRunResult, UpcomingRun } from '../../src/agents/runs.js';
import { NO_USAGE, type Outcome } from '../../src/outcome.js';

/**
 * What a fake agent answers one run with: an outcome it returns at once, or `hang`, a run that
 * never decides and ends only when the loop aborts it (as a real agent's process is killed).
 */
export type FakeAnswer = Outcome | { kind: 'hang' };

/** A fake agent on the spec (src/agents/runs.ts), and what the loop did with it. */
export interface FakeAgent extends Agent {
  /** Every run the loop asked for, in order. */
  readonly requests: AgentRunRequest[];
  /** Every `ahead` call's upcoming runs, in order. */
  readonly prepared: UpcomingRun[][];
  /** How many times `settle` was called. */
  settled: number;
  /** Set when a run was asked for while another of this agent's runs was still going. */
  overlapped: boolean;
}

/**
 * A scripted agent: `answer` decides each run from its request and how many runs of that query came
 * before. It never starts a process, so the loop's rules can be held to the spec on their own.
 */
export function fakeAgent(
  id: AgentId,
  answer: (request: AgentRunRequest, nth: number) => FakeAnswer,
): FakeAgent {
  const seen = new Map<string, number>();
  let running = false;
  const agent: FakeAgent = {
    id,
    requests: [],
    prepared: [],
    settled: 0,
    overlapped: false,
    async run(request) {
      if (running) agent.overlapped = true;
      running = true;
      agent.requests.push(request);
      const nth = seen.get(request.query) ?? 0;
      seen.set(request.query, nth + 1);
      try {
        const got = answer(request, nth);
        if (got.kind === 'hang') return await hang(request);
        const result: AgentRunResult = {
          outcome: got,
          usage: NO_USAGE,
          durationMs: 1,
          agent: id,
          ...(request.model === undefined ? {} : { model: request.model }),
          ...(got.kind === 'triggered' ? { loaded: { kind: 'stub' as const } } : {}),
          ...(got.kind === 'not-triggered' ? { loaded: { kind: 'none' as const } } : {}),
        };
        return result;
      } finally {
        running = false;
      }
    },
    ahead(upcoming) {
      agent.prepared.push([...upcoming]);
    },
    async settle() {
      agent.settled++;
    },
  };
  return agent;
}

/** A run that waits until its signal aborts, then rejects as a killed run does. */
function hang(request: AgentRunRequest): Promise<never> {
  return new Promise((_, reject) => {
    const signal = request.signal;
    if (!signal) return; // never settles: the test must abort it
    if (signal.aborted) reject(new Error('aborted'));
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
}
