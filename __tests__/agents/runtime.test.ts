import { describe, expect, it } from 'vitest';
import { AGENT_IDS } from '../../src/agents/ids.js';
import type { ListedText } from '../../src/agents/listed.js';
import { agentFacts, DEFAULT_AGENT } from '../../src/agents/registry.js';
import { listedTextProbe, loopRuntimeOf } from '../../src/agents/runtime.js';
import { InputError } from '../../src/errors.js';
import { composeListing } from '../../src/inputs/listing.js';
import { MATRIX_AGENTS } from '../../src/schemas/matrix.js';

describe('the runtimes and the routing matrix', () => {
  it('gives every agent the registry says routes a matrix, the default one included, a matrix loop agent through its loop runtime', () => {
    for (const id of AGENT_IDS)
      expect(loopRuntimeOf(id).matrix !== undefined, id).toBe(agentFacts(id).routesMatrix);
  });

  it('lists the matrix agents in registry order, from the facts', () => {
    expect(MATRIX_AGENTS).toEqual(AGENT_IDS.filter((id) => agentFacts(id).routesMatrix));
    expect(MATRIX_AGENTS).toEqual(['claude', 'codex', 'gemini']);
  });
});

describe('how each agent lists a skill', () => {
  it('is one way per agent: the default agent through its listed-text probe, every other off the SKILL.md', () => {
    for (const id of AGENT_IDS) {
      const runtime = loopRuntimeOf(id);
      expect(runtime.listedText !== undefined, id).toBe(id === DEFAULT_AGENT);
      expect(runtime.fileListing !== undefined, id).toBe(id !== DEFAULT_AGENT);
    }
  });
});

describe('the listed-text probe', () => {
  const skill = {
    name: 'alpha',
    file: 'alpha/SKILL.md',
    description: 'Does  alpha.',
    whenToUse: 'When alpha.',
  };

  it("is the default agent's loop runtime's, and foresees the emulation's listing", () => {
    const probe = listedTextProbe(DEFAULT_AGENT);
    expect(loopRuntimeOf(DEFAULT_AGENT).listedText).toBe(probe);
    expect(probe.foreseen(skill)).toBe(composeListing(skill.description, skill.whenToUse));
    expect(probe.foreseen({ ...skill, emulatedListing: 'as emulated' })).toBe('as emulated');
    expect(probe.override('Other.', skill)).toBe(composeListing('Other.', skill.whenToUse));
  });

  it('calls a skill read but left out of the listing a defect, unless its frontmatter asks for that', () => {
    const probe = listedTextProbe(DEFAULT_AGENT);
    const left: ListedText = { text: 'x', source: 'emulation', why: probe.unlistedReason, warnings: [] };
    expect(probe.unlistedDefect(skill, left)).toBeInstanceOf(InputError);
    expect(probe.unlistedDefect({ ...skill, disableModelInvocation: true }, left)).toBeUndefined();
    expect(probe.unlistedDefect(skill, { ...left, why: 'no listing' })).toBeUndefined();
  });

  it('is refused for an agent without one, naming it', () => {
    const without = AGENT_IDS.filter((id) => loopRuntimeOf(id).listedText === undefined);
    expect(without.length).toBeGreaterThan(0);
    for (const id of without) expect(() => listedTextProbe(id)).toThrow(id);
  });
});
