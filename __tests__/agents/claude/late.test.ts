import { describe, expect, it } from 'vitest';
import type { ContentBlock, StreamEvent } from '../../../src/agents/claude/events.js';
import { LateWatch } from '../../../src/agents/claude/late.js';
import type { StubIdentity } from '../../../src/agents/runs.js';

const STUB: StubIdentity = {
  name: 'handoff-stub-0123abcd',
  filePath: '/tmp/p/project/.claude/commands/handoff-stub-0123abcd.md',
  projectDir: '/tmp/p/project',
};

function assistant(
  id: string,
  blocks: ContentBlock[],
  extra: Partial<Extract<StreamEvent, { type: 'assistant' }>> = {},
): StreamEvent {
  return { type: 'assistant', messageId: id, synthetic: false, parentToolUseId: null, blocks, ...extra };
}
const skill = (name = STUB.name) => ({ kind: 'tool_use' as const, name: 'Skill', input: { skill: name } });
const bash = { kind: 'tool_use' as const, name: 'Bash', input: { command: 'ls' } };

describe('LateWatch', () => {
  it('notes a load in the next turn', () => {
    const watch = new LateWatch(STUB, 'm1', 2);
    expect(watch.feed(assistant('m1', [bash]))).toBe(false);
    expect(watch.feed({ type: 'status' })).toBe(false);
    expect(watch.feed(assistant('m2', [skill()]))).toBe(true);
    expect(watch.loaded).toBe(true);
  });

  it('notes a Read of the stub file as a load too', () => {
    const watch = new LateWatch(STUB, 'm1', 1);
    watch.feed(assistant('m2', [{ kind: 'tool_use', name: 'Read', input: { file_path: STUB.filePath } }]));
    expect(watch.loaded).toBe(true);
  });

  it('does not look past N turns', () => {
    const watch = new LateWatch(STUB, 'm1', 2);
    watch.feed(assistant('m2', [bash]));
    watch.feed(assistant('m3', [bash]));
    expect(watch.done).toBe(false);
    expect(watch.feed(assistant('m4', [skill()]))).toBe(true);
    expect(watch.loaded).toBe(false);
  });

  it('counts the blocks of one message as one turn', () => {
    const watch = new LateWatch(STUB, 'm1', 1);
    watch.feed(assistant('m2', [bash]));
    watch.feed(assistant('m2', [skill()]));
    expect(watch.loaded).toBe(true);
  });

  it('ignores another skill, a subagent, and ends on an API error or the result', () => {
    const other = new LateWatch(STUB, 'm1', 3);
    other.feed(assistant('m2', [skill('dataviz')]));
    other.feed(assistant('m3', [skill()], { parentToolUseId: 'toolu_1' }));
    expect(other.loaded).toBe(false);
    expect(other.done).toBe(false);
    other.feed(assistant('m4', [], { synthetic: true }));
    expect(other.done).toBe(true);
    const ended = new LateWatch(STUB, 'm1', 3);
    ended.feed({ type: 'result', isError: false });
    expect(ended.done).toBe(true);
    expect(ended.loaded).toBe(false);
  });

  it('with N = 0 watches nothing', () => {
    const watch = new LateWatch(STUB, 'm1', 0);
    expect(watch.done).toBe(true);
    watch.feed(assistant('m2', [skill()]));
    expect(watch.loaded).toBe(false);
  });
});
