import { expect } from 'vitest';
import type { RecordedRequest } from '../../src/simulated/model.js';

/**
 * Serial towards the model: in arrival order, each exchange ended (answer written, or the
 * connection closed by a killed run) no later than the next one arrived. An exchange with no end
 * recorded never ended, so anything after it fails.
 */
export function expectOneAtATime(ordered: readonly RecordedRequest[]): void {
  for (let i = 1; i < ordered.length; i++)
    expect(ordered[i - 1]?.endedAt ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(ordered[i]?.at ?? 0);
}
