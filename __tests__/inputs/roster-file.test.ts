import { describe, expect, it } from 'vitest';
import { hashedName, rosterFile } from '../../src/inputs/roster-file.js';
import { rosterFileSchema } from '../../src/schemas/roster-file.js';

/** A roster file from what an agent lists: plain, or with hashed names that keep the budget's arithmetic. */
const ENTRIES = [
  {
    kind: 'skill' as const,
    source: 'user' as const,
    name: 'pdf-tables',
    description: 'Extract tables 漢',
    usage: { usageCount: 2, lastUsedAt: 9 },
  },
  { kind: 'command' as const, source: 'user' as const, name: 'd', description: 'Ship' },
];

describe('rosterFile', () => {
  it('keeps each name, description, its length in characters and its use record', () => {
    const file = rosterFile('claude', '2.1.328', ENTRIES, { hashNames: false });
    expect(rosterFileSchema.parse(file)).toEqual(file);
    expect(file.entries[0]).toEqual({ ...ENTRIES[0], chars: 16 });
    expect(file.hashedNames).toBeUndefined();
  });

  it('with hashed names: a name of the same length that does not say it, and the length alone', () => {
    const file = rosterFile('codex', undefined, ENTRIES, { hashNames: true });
    expect(file.agentVersion).toBeNull();
    expect(file.hashedNames).toBe(true);
    const [skill, command] = file.entries;
    expect(skill).toEqual({
      kind: 'skill',
      source: 'user',
      name: hashedName('pdf-tables'),
      chars: 16,
      usage: { usageCount: 2, lastUsedAt: 9 },
    });
    expect(skill?.name).toMatch(/^h[0-9a-f]{9}$/);
    expect(command?.name).toMatch(/^h[0-9a-f]$/);
    expect(JSON.stringify(file)).not.toMatch(/pdf|Extract|Ship/);
    expect(hashedName('x'.repeat(200))).toHaveLength(200);
  });
});
