import { describe, expect, it } from 'vitest';
import { AGENT_IDS } from '../../src/agents/agent.js';
import { agentFacts, DEFAULT_AGENT } from '../../src/agents/registry.js';
import { loopRuntimeOf, runtimeOf } from '../../src/agents/runtime.js';
import { MATRIX_AGENTS } from '../../src/schemas/matrix.js';

describe('the runtimes and the routing matrix', () => {
  it('gives every agent the registry says routes a matrix, but the default one, a matrix loop agent', () => {
    for (const id of AGENT_IDS) {
      const routes = agentFacts(id).routesMatrix;
      if (id === DEFAULT_AGENT) expect(routes, id).toBe(true);
      else expect(runtimeOf(id)?.matrix !== undefined, id).toBe(routes);
    }
  });

  it('gives every agent the registry says routes a matrix, the default one included, a matrix loop agent through its loop runtime', () => {
    for (const id of AGENT_IDS)
      expect(loopRuntimeOf(id).matrix !== undefined, id).toBe(agentFacts(id).routesMatrix);
  });

  it('lists the matrix agents in registry order, from the facts', () => {
    expect(MATRIX_AGENTS).toEqual(AGENT_IDS.filter((id) => agentFacts(id).routesMatrix));
    expect(MATRIX_AGENTS).toEqual(['claude', 'codex', 'gemini']);
  });
});
