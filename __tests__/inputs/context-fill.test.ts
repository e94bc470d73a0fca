import { describe, expect, it } from 'vitest';
import { describeContext } from '../../src/inputs/context.js';
import { contextFillTurns } from '../../src/inputs/context-fill.js';
import { FILL_TURNS } from '../../src/inputs/fill-conversation.js';

/**
 * `--context-fill N` (docs/context.md, "Filling context"): N characters of the shipped coding
 * conversation, in order, from its start again once used up, ending on an assistant turn, the same
 * for the same N every time.
 */
const chars = (text: string) => [...text].length;
const conversation = describeContext(FILL_TURNS).chars;

describe('contextFillTurns', () => {
  it('holds exactly N characters of the conversation, in order, ending on an answer', () => {
    for (const n of [600, 2_000, 20_000, conversation, conversation + 777, 123_457]) {
      const turns = contextFillTurns(n);
      const total = describeContext(turns).chars;
      // Exactly N, or short of it by less than the user turn N ended in.
      expect(total).toBeLessThanOrEqual(n);
      expect(n - total).toBeLessThan(Math.max(...FILL_TURNS.map((t) => chars(t.content))));
      expect(turns.at(-1)?.role).toBe('assistant');
      turns.forEach((turn, i) => {
        const shipped = FILL_TURNS[i % FILL_TURNS.length];
        expect(turn.role).toBe(shipped?.role);
        expect(shipped?.content.startsWith(turn.content)).toBe(true);
      });
    }
    expect(describeContext(contextFillTurns(20_000)).chars).toBe(20_000);
  });

  it('is the same for the same N on every call, and uses the whole conversation before repeating', () => {
    expect(describeContext(contextFillTurns(20_000))).toEqual(describeContext(contextFillTurns(20_000)));
    expect(contextFillTurns(conversation)).toEqual(FILL_TURNS);
  });

  it('stops at the exchange before when N ends inside a user turn', () => {
    const first = FILL_TURNS.slice(0, 2);
    const upToFirst = describeContext(first).chars;
    const inSecondUser = upToFirst + Math.floor(chars(FILL_TURNS[2]?.content ?? '') / 2);
    expect(contextFillTurns(inSecondUser)).toEqual(first);
    // One character past the second user turn: that turn, and one character of its answer.
    const past = upToFirst + chars(FILL_TURNS[2]?.content ?? '') + 1;
    expect(contextFillTurns(past).at(-1)?.content).toHaveLength(1);
  });

  it('refuses a fill outside the flag’s range', () => {
    expect(() => contextFillTurns(499)).toThrow(RangeError);
    expect(() => contextFillTurns(1_000_001)).toThrow(RangeError);
  });
});
