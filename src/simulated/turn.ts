/**
 * One request's turn, alike for both APIs the fake serves (Messages for claude, Responses for
 * codex): a follow-up continues the run whose tool calls it answers; a first turn asks the script,
 * which sees how often the query came before. No I/O here: each API writes the plan its own way.
 */
import { messageOf } from '../errors.js';
import { type Continuation, type Plan, planFirstTurn, planFollowUp } from './plan.js';
import { seededRandom } from './random.js';
import type { RequestView } from './request.js';
import type { Behaviour, Script } from './script.js';

/** What the server keeps across requests: the scripts, and where each run stands. */
export interface RunState {
  script: Script;
  /** Seed of `ScriptContext.random`. */
  seed: number;
  /** How often each query was asked as a first turn. */
  occurrences: Map<string, number>;
  /** Keyed by the tool-call ids of the answers written so far. */
  continuations: Map<string, Continuation>;
}

/** The fields of a recorded request a turn fills in (model.ts's `RecordedRequest`). */
export interface TurnRecord {
  /** For a first turn the script's choice; for a follow-up the first-turn behaviour it continues. */
  behaviour?: Behaviour;
  /** 1 for a first turn, 2… for the follow-ups of the same run (0 when unknown). */
  turn?: number;
}

/** A turn's plan, or the message of a script that threw (the API answers it with a 500). */
export type Turn = { kind: 'plan'; plan: Plan } | { kind: 'script-failed'; message: string };

/**
 * Plans the answer to `view`. The plan's tool calls are registered here, before the answer is
 * written: the agent may run a call as soon as it reads it.
 */
export function planTurn(
  view: RequestView,
  state: RunState,
  record: TurnRecord,
  layout: 'command' | 'skill',
): Turn {
  const { continuations } = state;
  let plan: Plan;
  if (view.followUp) {
    const id = view.toolResultIds.find((candidate) => continuations.has(candidate));
    const next = id === undefined ? undefined : continuations.get(id);
    // Every tool call of the previous message shares one continuation; drop them all once used.
    for (const candidate of view.toolResultIds) continuations.delete(candidate);
    // A tool result the fake did not issue (another server's run): just finish the run.
    const resolved: Continuation = next ?? { origin: { kind: 'text' }, turn: 0, next: { kind: 'done' } };
    record.behaviour = resolved.origin;
    record.turn = resolved.turn;
    plan = planFollowUp(resolved, view);
  } else {
    const occurrence = state.occurrences.get(view.query) ?? 0;
    state.occurrences.set(view.query, occurrence + 1);
    let behaviour: Behaviour;
    try {
      const random = seededRandom(state.seed, view.query, occurrence);
      behaviour = state.script(view, { occurrence, random }) ?? { kind: 'text' };
    } catch (error) {
      return { kind: 'script-failed', message: `simulated model script failed: ${messageOf(error)}` };
    }
    record.behaviour = behaviour;
    record.turn = 1;
    plan = planFirstTurn(behaviour, view, layout);
  }
  if (plan.kind === 'answer' && plan.next !== undefined) {
    for (const block of plan.blocks) if (block.type === 'tool_use') continuations.set(block.id, plan.next);
  }
  return { kind: 'plan', plan };
}
