import { describe, expect, it } from 'vitest';
import {
  CONTEXTS_CLOSE,
  CONTEXTS_OPEN,
  contextsPrompt,
  DRAFTED_CONTEXT_MAX_CHARS,
  presupposingQueries,
  readContextsPrompt,
  readDraftedContexts,
} from '../../src/author/contexts.js';
import { contextsAnswer } from '../../src/simulated/author-answers.js';
import { authorPromptKind } from '../../src/simulated/description-script.js';

/** `init`'s contexts (pure): which prompts get one, the prompt, and the answer read and checked. */

const TURNS = [
  { role: 'user', content: 'We renamed the env file and fixed deploy.sh.' },
  { role: 'assistant', content: 'Done: deploy.sh reads .env.production now; CI is green.' },
];
const answer = (items: unknown) => `Sure.\n${CONTEXTS_OPEN}\n${JSON.stringify(items)}\n${CONTEXTS_CLOSE}`;

describe('presupposingQueries', () => {
  it('takes the positives that read as if they presuppose a session, by check’s cues, never a negative', () => {
    expect(
      presupposingQueries([
        { query: 'write up what we did so far for tomorrow', should_trigger: true },
        { query: 'write the release notes for v2', should_trigger: true },
        { query: 'summarise this conversation in one line', should_trigger: false },
        { query: 'hand over where we left off', should_trigger: true },
      ]),
    ).toEqual(['write up what we did so far for tomorrow', 'hand over where we left off']);
  });
});

describe('the contexts prompt', () => {
  it('carries the skill and the prompts, and reads back as the simulated model reads it', () => {
    const queries = ['write up what we did so far', 'hand over where we left off'];
    const prompt = contextsPrompt({
      skillName: 'handoff',
      description: 'Write  HANDOFF.md',
      body: '# b',
      queries,
    });
    expect(authorPromptKind(prompt)).toBe('contexts');
    expect(readContextsPrompt(prompt)).toEqual({
      skillName: 'handoff',
      description: 'Write HANDOFF.md',
      body: '# b',
      queries,
    });
    expect(prompt).toContain(`At most ${DRAFTED_CONTEXT_MAX_CHARS} characters`);
    expect(readContextsPrompt('Reply with exactly: pong')).toBeUndefined();
  });
});

describe('readDraftedContexts', () => {
  const queries = ['write up what we did so far', 'hand over where we left off'];

  it('takes each prompt’s turns, matched on its text whatever the spacing', () => {
    const read = readDraftedContexts(
      answer([
        { query: 'write up what we did  so far', context: TURNS },
        { query: 'hand over where we left off', context: TURNS },
      ]),
      queries,
    );
    expect(read.problems).toEqual([]);
    expect([...read.turns.keys()]).toEqual(queries);
    expect(read.turns.get(queries[0] ?? '')).toEqual(TURNS);
  });

  it('refuses a context that is no conversation the prompt continues, or too long, and says which', () => {
    const long = [
      { role: 'user', content: 'x'.repeat(DRAFTED_CONTEXT_MAX_CHARS) },
      { role: 'assistant', content: 'ok' },
    ];
    const read = readDraftedContexts(
      answer([
        { query: queries[0], context: [TURNS[0]] },
        { query: queries[1], context: long },
      ]),
      queries,
    );
    expect(read.turns.size).toBe(0);
    expect(read.problems).toEqual([
      'item #1: ends the context with a user turn; the query is the next user message',
      `item #2: ${DRAFTED_CONTEXT_MAX_CHARS + 2} characters, more than ${DRAFTED_CONTEXT_MAX_CHARS}`,
    ]);
  });

  it('says what is wrong with the whole answer, and counts the prompts it left out', () => {
    expect(readDraftedContexts('no tags here', queries).problems).toEqual([
      `no ${CONTEXTS_OPEN}…${CONTEXTS_CLOSE} in the answer`,
    ]);
    expect(readDraftedContexts(`${CONTEXTS_OPEN}[{x}]${CONTEXTS_CLOSE}`, queries).problems).toEqual([
      'the text between the tags is not JSON',
    ]);
    const partial = readDraftedContexts(answer([{ query: queries[1], context: TURNS }]), queries);
    expect([...partial.turns.keys()]).toEqual([queries[1]]);
    expect(partial.problems).toEqual(['1 prompt left out of the answer']);
  });

  it('takes the simulated model’s answer whole: two turns each, naming the prompt’s file', () => {
    const asked = ['before I stop: notes from what we did so far, see docs/plan.md'];
    const read = readDraftedContexts(
      contextsAnswer({ skillName: 'handoff', description: 'Write session notes', body: '', queries: asked }),
      asked,
    );
    expect(read.problems).toEqual([]);
    const turns = read.turns.get(asked[0] ?? '');
    expect(turns?.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(turns?.[0]?.content).toBe(
      'We are working in docs/plan.md today: first look at the notes and the before.',
    );
  });
});
