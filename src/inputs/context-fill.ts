/**
 * `--context-fill <N>` (docs/context.md, "Filling context"): N characters of the shipped coding
 * conversation (fill-conversation.ts) as a context, the same for the same N on every run. Pure.
 */
import type { ContextTurn } from '../agents/transcript.js';
import { CONTEXT_FILL_MAX, CONTEXT_FILL_MIN } from '../numeric-settings.js';
import { FILL_TURNS } from './fill-conversation.js';

const codePoints = (text: string): string[] => [...text];

/**
 * The turns of an N-character fill: whole exchanges of the conversation in order (from its start
 * again once it is used up), then the next exchange's user turn and its answer cut so that the
 * turns hold exactly N characters. When N ends inside that user turn, the fill stops at the exchange
 * before, at most one user turn short of N. It always ends on an assistant turn.
 */
export function contextFillTurns(chars: number): ContextTurn[] {
  if (!Number.isInteger(chars) || chars < CONTEXT_FILL_MIN || chars > CONTEXT_FILL_MAX)
    // The flag's value was read against the same range (src/numeric-settings.ts).
    throw new RangeError(
      `a context fill of ${chars} characters is outside ${CONTEXT_FILL_MIN}–${CONTEXT_FILL_MAX}`,
    );
  const turns: ContextTurn[] = [];
  let total = 0;
  for (let k = 0; total < chars; k += 2) {
    const user = FILL_TURNS[k % FILL_TURNS.length] as ContextTurn;
    const answer = FILL_TURNS[(k + 1) % FILL_TURNS.length] as ContextTurn;
    const userLength = codePoints(user.content).length;
    const answerText = codePoints(answer.content);
    const room = chars - total - userLength;
    if (room < 1) break;
    turns.push(user, { role: 'assistant', content: answerText.slice(0, room).join('') });
    total += userLength + Math.min(room, answerText.length);
  }
  return turns;
}
