import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { joinMemory, memoryFor, memorySummaries } from '../../src/inputs/memory.js';

/** How several `--memory` files become the one file an agent reads, and what a report says of them. */
describe('joinMemory', () => {
  it('keeps a file alone byte for byte, and none is nothing', () => {
    expect(joinMemory([{ file: 'a', text: 'no newline at the end' }])).toBe('no newline at the end');
    expect(joinMemory([])).toBeUndefined();
  });

  it('joins several in order, each ending in a line break, a blank line between two', () => {
    const text = joinMemory([
      { file: 'a', text: '# A\nfirst' },
      { file: 'b', text: 'second\n' },
      { file: 'c', text: 'third' },
    ]);
    expect(text).toBe('# A\nfirst\n\nsecond\n\nthird\n');
  });
});

describe('memorySummaries', () => {
  it('says each file by the SHA-256 of its UTF-8 bytes and their number, never its text', () => {
    const text = 'Route handoffs to the handoff skill ✓\n';
    const [summary] = memorySummaries([{ file: '/private/CLAUDE.md', text }]);
    expect(summary).toEqual({
      sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
      bytes: Buffer.byteLength(text),
    });
    expect(JSON.stringify(summary)).not.toContain('private');
  });
});

describe('memoryFor', () => {
  it('gives an agent the files without agents and those naming it, in order', () => {
    const files = [
      { file: 'CLAUDE.md', text: 'c', agents: ['claude' as const] },
      { file: 'shared.md', text: 's' },
      { file: 'AGENTS.md', text: 'a', agents: ['codex' as const, 'claude' as const] },
    ];
    expect(memoryFor(files, 'claude').map((f) => f.file)).toEqual(['CLAUDE.md', 'shared.md', 'AGENTS.md']);
    expect(memoryFor(files, 'codex').map((f) => f.file)).toEqual(['shared.md', 'AGENTS.md']);
    expect(memoryFor(files, 'gemini').map((f) => f.file)).toEqual(['shared.md']);
    expect(memorySummaries(files)[0]?.agents).toEqual(['claude']);
    expect(memorySummaries(files)[1]).not.toHaveProperty('agents');
  });
});
