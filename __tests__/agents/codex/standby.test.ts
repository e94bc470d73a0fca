import { describe, expect, it } from 'vitest';
import { CODEX_STANDBY_MEMORY_BYTES, defaultCodexStandbyCount } from '../../../src/agents/codex/standby.js';

describe('defaultCodexStandbyCount', () => {
  it('keeps one standby when the memory free holds it beside the running Codex, else none', () => {
    expect(defaultCodexStandbyCount(64 * CODEX_STANDBY_MEMORY_BYTES)).toBe(1);
    expect(defaultCodexStandbyCount(2 * CODEX_STANDBY_MEMORY_BYTES)).toBe(1);
    expect(defaultCodexStandbyCount(2 * CODEX_STANDBY_MEMORY_BYTES - 1)).toBe(0);
  });
});
