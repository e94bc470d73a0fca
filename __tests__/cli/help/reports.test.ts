import { describe, expect, it } from 'vitest';
import { AGENT_IDS } from '../../../src/agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../../../src/agents/registry.js';
import { CHECK_HELP, ROSTER_HELP } from '../../../src/cli/help/reports.js';

// The agents a roster is read on come from the registry, so a new agent that places one is named
// without an edit to the help.
const placing = AGENT_IDS.filter((id) => agentFacts(id).placesRoster);
const others = placing.filter((id) => id !== DEFAULT_AGENT);

describe('the roster helps', () => {
  it("list exactly the agents whose facts place a roster, and each one's executable but the default's", () => {
    expect(ROSTER_HELP.usage[0]).toContain(`[--agent ${placing.join('|')}]`);
    expect(CHECK_HELP.usage[1]).toContain(`[--agent ${placing.join('|')}]`);
    const bins = (options: readonly { name: string }[]) =>
      options.filter((o) => AGENT_IDS.some((id) => agentFacts(id).binOption === o.name)).map((o) => o.name);
    expect(bins(ROSTER_HELP.options)).toEqual(placing.map((id) => agentFacts(id).binOption));
    expect(bins(CHECK_HELP.options)).toEqual(placing.map((id) => agentFacts(id).binOption));
    for (const id of others) {
      const a = agentFacts(id);
      expect(ROSTER_HELP.usage[1]).toContain(`[--${a.binOption} <path>]`);
      expect(ROSTER_HELP.options).toContainEqual({
        name: a.binOption,
        value: '<path>',
        text: `the ${a.bin} binary (default: $${a.binVariable}, else ${a.bin} on PATH)`,
      });
    }
  });
});
