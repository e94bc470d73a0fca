import { describe, expect, it } from 'vitest';
import { startEarlyWaiting } from '../../../src/agents/process/early-start.js';

/** A starter whose waiting process is its spec and a serial, recording starts and discards. */
function recordingStarter(options: { failDiscard?: boolean; failStart?: boolean } = {}) {
  const events: string[] = [];
  let serial = 0;
  return {
    events,
    starter: {
      start: async (spec: { side: number; model?: string }) => {
        if (options.failStart) throw new Error('no temp project');
        const name = `${spec.side}/${spec.model ?? ''}#${serial++}`;
        events.push(`started ${name}`);
        return name;
      },
      discard: async (waiting: string) => {
        events.push(`discarded ${waiting}`);
        if (options.failDiscard) throw new Error('already gone');
      },
      same: (a: { side: number; model?: string }, b: { side: number; model?: string }) =>
        a.side === b.side && a.model === b.model,
    },
  };
}

describe('startEarlyWaiting', () => {
  it('hands the waiting process to a first run started the same way, once; release then leaves it alone', async () => {
    const { events, starter } = recordingStarter();
    const early = startEarlyWaiting({ side: 1 }, starter);
    expect(await early.claim({ side: 1 })).toBe('1/#0');
    expect(early.claim({ side: 1 })).toBeUndefined();
    await early.release();
    expect(events).toEqual(['started 1/#0']);
  });

  it.each([
    ['another side', { side: 0 }],
    ['another model', { side: 1, model: 'gpt-x' }],
    ['no first run of its agent', undefined],
  ])('discards it for %s, and release waits for the discard', async (_what, wanted) => {
    const { events, starter } = recordingStarter();
    const early = startEarlyWaiting<{ side: number; model?: string }, string>({ side: 1 }, starter);
    expect(early.claim(wanted)).toBeUndefined();
    await early.release();
    expect(events).toEqual(['started 1/#0', 'discarded 1/#0']);
  });

  it('release before any claim (a gate failed) discards it once, and never throws', async () => {
    const { events, starter } = recordingStarter({ failDiscard: true });
    const early = startEarlyWaiting({ side: 0 }, starter);
    await early.release();
    await early.release();
    expect(early.claim({ side: 0 })).toBeUndefined();
    expect(events).toEqual(['started 0/#0', 'discarded 0/#0']);
  });

  it('a start that failed is handed over as it failed, and release does not throw on it', async () => {
    const { starter } = recordingStarter({ failStart: true });
    await expect(startEarlyWaiting({ side: 0 }, starter).claim({ side: 0 })).rejects.toThrow(
      'no temp project',
    );
    await expect(startEarlyWaiting({ side: 0 }, starter).release()).resolves.toBeUndefined();
  });

  it('starts nothing without a spec', async () => {
    const { events, starter } = recordingStarter();
    const early = startEarlyWaiting(undefined, starter);
    expect(early.claim({ side: 0 })).toBeUndefined();
    await early.release();
    expect(events).toEqual([]);
  });
});
