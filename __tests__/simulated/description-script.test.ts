import { describe, expect, it } from 'vitest';
import { CONTEXT_FACTOR, descriptionRule } from '../../src/simulated/description-script.js';
import type { RequestView } from '../../src/simulated/request.js';

/**
 * The simulated model's rule for prior turns (docs/cli.md, "The simulated model"): a run that
 * starts with a context loads the stub with the text rule's probability times a factor, the
 * default CONTEXT_FACTOR or one a test scripts; a fresh run is never changed.
 */
const stub = { name: 'handoff-stub-0a1b2c3d', description: 'Write HANDOFF.md' };
const view = (priorTurns: number): RequestView => ({
  query: 'write the handoff',
  listing: [stub],
  stub,
  stubs: [stub],
  model: 'm',
  stream: true,
  followUp: false,
  toolResultIds: [],
  priorTurns,
});
/** The outcome with the random draw fixed at `draw`. */
const at = (draw: number) => ({ occurrence: 0, random: () => draw });

describe('a context and the load rate', () => {
  it('multiplies the probability by the default factor mid-session, never fresh', () => {
    const rule = descriptionRule({ rate: () => 0.5 });
    // Fresh: 0.5. Mid-session: 0.5 × 0.6 = 0.3.
    expect(CONTEXT_FACTOR).toBe(0.6);
    expect(rule(view(0), at(0.4))).toEqual({ kind: 'skill' });
    expect(rule(view(2), at(0.4))).toEqual({ kind: 'text' });
    expect(rule(view(2), at(0.29))).toEqual({ kind: 'skill' });
  });

  it('takes a factor a test scripts, fixed or by the number of earlier messages', () => {
    expect(descriptionRule({ rate: () => 1, contextFactor: 0 })(view(2), at(0))).toEqual({ kind: 'text' });
    expect(descriptionRule({ rate: () => 1, contextFactor: 1 })(view(2), at(0.99))).toEqual({
      kind: 'skill',
    });
    const byTurns = descriptionRule({ rate: () => 1, contextFactor: (turns) => 1 / turns });
    expect(byTurns(view(4), at(0.2))).toEqual({ kind: 'skill' });
    expect(byTurns(view(4), at(0.3))).toEqual({ kind: 'text' });
  });
});
