import { describe, expect, it } from 'vitest';
import { standbyPool } from '../../../src/agents/process/standby-pool.js';

/** A starter that records what it started and discarded; each standby is its key and a serial. */
function recordingStarter() {
  let serial = 0;
  const started: string[] = [];
  const discarded: string[] = [];
  return {
    started,
    discarded,
    starter: {
      start: async (key: string) => {
        const name = `${key}#${serial++}`;
        started.push(name);
        return name;
      },
      discard: async (standby: string) => {
        discarded.push(standby);
      },
    },
  };
}

describe('standbyPool', () => {
  it('hands over an adopted standby (the one started before the gates) and settles it when unused', async () => {
    const { started, discarded, starter } = recordingStarter();
    const pool = standbyPool(1, starter);
    pool.adopt('a', Promise.resolve('early'));
    pool.fill(['a']);
    expect(started).toEqual([]);
    expect(await pool.take('a')).toBe('early');
    const unused = standbyPool(1, starter);
    unused.adopt('b', Promise.resolve('early-b'));
    await unused.settle();
    expect(discarded).toEqual(['early-b']);
  });

  it('starts one standby per upcoming run, at most size in all, and hands them over oldest first', async () => {
    const { started, starter } = recordingStarter();
    const pool = standbyPool(2, starter);
    pool.fill(['a', 'a', 'b']);
    expect(started).toEqual(['a#0', 'a#1']);
    expect(await pool.take('a')).toBe('a#0');
    expect(pool.take('b')).toBeUndefined();
    pool.fill(['a', 'b']);
    expect(started).toEqual(['a#0', 'a#1', 'b#2']);
    expect(await pool.take('b')).toBe('b#2');
  });

  it('keeps a standby no upcoming run needs while there is room, and discards it for one that is needed', async () => {
    const { started, discarded, starter } = recordingStarter();
    const pool = standbyPool(1, starter);
    pool.fill(['a']);
    pool.fill([]); // e.g. the query was settled: nothing is killed yet
    expect(discarded).toEqual([]);
    pool.fill(['b']);
    expect(started).toEqual(['a#0', 'b#1']);
    await pool.settle();
    expect(discarded).toEqual(['a#0', 'b#1']);
  });

  it('never starts anything with size 0', () => {
    const { started, starter } = recordingStarter();
    const pool = standbyPool(0, starter);
    pool.fill(['a', 'b']);
    expect(started).toEqual([]);
    expect(pool.take('a')).toBeUndefined();
  });

  it('a standby that failed to start surfaces when taken, and settle does not throw for it', async () => {
    const pool = standbyPool(1, {
      start: () => Promise.reject(new Error('no temp folder')),
      discard: async () => {},
    });
    pool.fill(['a']);
    await expect(pool.take('a')).rejects.toThrow('no temp folder');
    pool.fill(['a']);
    await expect(pool.settle()).resolves.toBeUndefined();
  });
});
