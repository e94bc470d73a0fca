import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Decider } from '../../src/agents/claude/decision.js';
import { parseEvent } from '../../src/agents/claude/events.js';
import type { StubIdentity } from '../../src/agents/runs.js';
import type { Outcome } from '../../src/outcome.js';
import { faultTitle } from './cases.js';

/**
 * Streams the real claude 2.1.328 printed when the simulated model's answer died after a complete
 * text block (recorded with `--permission-mode dontAsk`, CLAUDE_CODE_MAX_RETRIES=0). The CLI keeps
 * the text, prints a synthetic `message_stop` (never a `message_delta`), and starts a new turn
 * asking the model to resume. Before the fix, that new turn's `status` closed the cut message as a
 * finished text answer: not-triggered, whatever the resumed answer did.
 */

const STUB: StubIdentity = {
  name: 'handoff-stub-0123abcd',
  filePath: '/tmp/skilltrigger-rec/project/.claude/commands/handoff-stub-0123abcd.md',
  projectDir: '/tmp/skilltrigger-rec/project',
};

function recorded(name: string): string[] {
  const file = new URL(`../fixtures/faults/cut-after-text-${name}.jsonl`, import.meta.url);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

function decide(lines: string[], exit = { exitCode: 0 }): { outcome: Outcome; at: number } {
  const decider = new Decider(STUB);
  for (const [at, line] of lines.entries()) {
    const outcome = decider.feed(parseEvent(line));
    if (outcome) return { outcome, at };
  }
  return { outcome: decider.finish(exit), at: lines.length };
}

const isResumePrompt = (line: string) => line.includes('cut off mid-stream');

describe(faultTitle('cut-after-text-replay'), () => {
  it('resumed with a Skill call: triggered, at the resumed call', () => {
    const lines = recorded('resumed-skill');
    const { outcome, at } = decide(lines);
    expect(outcome).toEqual({ kind: 'triggered' });
    expect(lines.findIndex(isResumePrompt)).toBeLessThan(at);
  });

  it('resumed with text only: not-triggered, and only once the resumed message has ended', () => {
    const lines = recorded('resumed-text');
    const { outcome, at } = decide(lines);
    expect(outcome).toEqual({ kind: 'not-triggered' });
    expect(JSON.parse(lines[at] ?? '{}').type).toBe('result');
  });

  it('cut every time until the CLI gives up: a network error, never a miss', () => {
    expect(decide(recorded('cut-always')).outcome).toEqual({ kind: 'error', cause: 'network' });
  });

  it('the run ending right after a cut message (no resume, no error message) is a network error', () => {
    const lines = recorded('cut-always');
    const cutAt = lines.findIndex(isResumePrompt);
    const ended = [
      ...lines.slice(0, cutAt),
      JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: 'I will look' }),
    ];
    expect(decide(ended).outcome).toEqual({ kind: 'error', cause: 'network' });
  });

  it('a message that really ended still decides as before: the stream holds its message_delta', () => {
    const lines = recorded('resumed-text');
    const resumedStart = lines.findIndex(isResumePrompt);
    const tail = lines.slice(resumedStart + 1);
    expect(tail.some((l) => l.includes('"message_delta"'))).toBe(true);
    expect(lines.slice(0, resumedStart).some((l) => l.includes('"message_delta"'))).toBe(false);
  });
});
