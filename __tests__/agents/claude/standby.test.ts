import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import {
  defaultStandbyCount,
  machineStandbyCount,
  QUICK_ANSWER_MS,
  STANDBY_MEMORY_BYTES,
  standbyStartsAt,
} from '../../../src/agents/claude/standby.js';

describe('defaultStandbyCount', () => {
  const plenty = 64 * STANDBY_MEMORY_BYTES;
  it('one on a small machine, two with four cores or more', () => {
    expect(defaultStandbyCount(1, plenty)).toBe(1);
    expect(defaultStandbyCount(2, plenty)).toBe(1);
    expect(defaultStandbyCount(4, plenty)).toBe(2);
    expect(defaultStandbyCount(64, plenty)).toBe(2);
  });
  it('fewer when the free memory cannot hold them beside the running claude', () => {
    expect(defaultStandbyCount(8, 2.5 * STANDBY_MEMORY_BYTES)).toBe(1);
    expect(defaultStandbyCount(8, 1.5 * STANDBY_MEMORY_BYTES)).toBe(0);
    expect(defaultStandbyCount(8, 0)).toBe(0);
  });
});

describe('machineStandbyCount', () => {
  it('is decided once a process, so the early standby and the loop agree when free memory moves', () => {
    const free = vi.spyOn(os, 'freemem').mockReturnValue(64 * STANDBY_MEMORY_BYTES);
    try {
      const first = machineStandbyCount();
      expect(first).toBe(defaultStandbyCount(os.availableParallelism(), 64 * STANDBY_MEMORY_BYTES));
      expect(first).toBeGreaterThan(0);
      free.mockReturnValue(0); // the default for no free memory is 0
      expect(machineStandbyCount()).toBe(first);
    } finally {
      free.mockRestore();
    }
  });
});

describe('standbyStartsAt', () => {
  it('starts with the prompt before any run has asked the model', () => {
    expect(standbyStartsAt(undefined)).toBe('prompt');
  });

  it('starts with the prompt after a quick answer, once the request is out after a slow one', () => {
    expect(standbyStartsAt(0)).toBe('prompt');
    expect(standbyStartsAt(90)).toBe('prompt');
    expect(standbyStartsAt(QUICK_ANSWER_MS - 1)).toBe('prompt');
    expect(standbyStartsAt(QUICK_ANSWER_MS)).toBe('asked');
    expect(standbyStartsAt(880)).toBe('asked');
    expect(standbyStartsAt(30_000)).toBe('asked');
  });
});
