import { describe, expect, it } from 'vitest';
import { machineCodexStandbyCount } from '../../src/agents/codex/standby.js';
import { matrixStandbyCount } from '../../src/matrix/agent.js';

describe('matrixStandbyCount', () => {
  const claude = { id: 'claude' as const, bin: 'claude' };
  const codex = { id: 'codex' as const, bin: 'codex' };
  const gemini = { id: 'gemini' as const, bin: 'gemini' };

  it('gives an agent with a warm standby what --standby asks, and the machine default without it', () => {
    expect(matrixStandbyCount({ agent: claude, standby: 2 })).toBe(2);
    expect(matrixStandbyCount({ agent: codex, standby: 2 })).toBe(2);
    expect(matrixStandbyCount({ agent: codex, standby: 0 })).toBe(0);
    // Codex's own default for this machine's free memory (docs/codex.md "A warm standby").
    expect(matrixStandbyCount({ agent: codex })).toBe(machineCodexStandbyCount());
  });

  it('starts nothing ahead on an agent without a warm standby, whatever --standby says', () => {
    expect(matrixStandbyCount({ agent: gemini, standby: 2 })).toBe(0);
    expect(matrixStandbyCount({ agent: gemini })).toBe(0);
  });
});
