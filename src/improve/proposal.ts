import type { AskResult } from '../agents/agent.js';
import { describeAskFailure } from '../agents/ask.js';
import type { AgentId } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { between, REWRITE_CLOSE, REWRITE_OPEN } from '../author/prompts.js';
import { SkilltriggerError } from '../errors.js';
import { specLengthWarning, validateDescription } from '../inputs/skill-fields.js';
import type { CandidateRecord } from '../schemas/improve.js';

/**
 * A rewrite call's answer read as a proposal (docs/author-loop.md): the text between the tags, checked as a
 * description and against the Agent Skills spec's limits, and new to the session.
 */

/** A proposal, or why there is none; `fatal`: the call itself failed, so the session stops. */
export type Proposal =
  | { kind: 'text'; text: string }
  | { kind: 'none'; proposal: CandidateRecord['proposal']; reason: string; fatal: boolean };

export function readProposal(
  answer: AskResult,
  seen: readonly string[],
  agent: AgentId = DEFAULT_AGENT,
): Proposal {
  if (answer.kind !== 'answer') {
    return {
      kind: 'none',
      proposal: 'no-answer',
      // Named as the agent's facts name its CLI and executable.
      reason: describeAskFailure(answer, agentFacts(agent)),
      fatal: true,
    };
  }
  const inner = between(answer.text, REWRITE_OPEN, REWRITE_CLOSE);
  if (inner === undefined) {
    return {
      kind: 'none',
      proposal: 'no-answer',
      reason: `no ${REWRITE_OPEN}…${REWRITE_CLOSE} in the answer`,
      fatal: false,
    };
  }
  let text: string;
  try {
    // The report keeps this reason: no path in it, only what is wrong with the text.
    text = validateDescription(inner, { file: 'the proposed description' });
  } catch (error) {
    if (!(error instanceof SkilltriggerError)) throw error;
    return {
      kind: 'none',
      proposal: 'invalid',
      reason: error.message.split('\n')[0] ?? 'invalid',
      fatal: false,
    };
  }
  // A rewrite is written into SKILL.md: it keeps to the Agent Skills spec, which measuring need not.
  const overLong = specLengthWarning(text);
  if (overLong) {
    return {
      kind: 'none',
      proposal: 'invalid',
      reason: `the proposed description: ${overLong}`,
      fatal: false,
    };
  }
  if (seen.includes(text))
    return {
      kind: 'none',
      proposal: 'repeat',
      reason: 'repeats the incumbent or an earlier candidate',
      fatal: false,
    };
  return { kind: 'text', text };
}
