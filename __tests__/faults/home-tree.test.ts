import { describe, expect, it } from 'vitest';
import { changes, onlyFirstUseKeysAdded } from './home-tree.js';

const config = (value: Record<string, unknown>) => JSON.stringify(value, null, 2);

describe('what a HOME may gain of its own accord', () => {
  const young = config({ firstStartTime: '2026-12-04T18:38:11.455Z', migrationVersion: 15 });

  it('~/.claude.json may gain the keys the CLI writes on its first uses, nothing else', () => {
    expect(
      onlyFirstUseKeysAdded(young, config({ ...JSON.parse(young), userID: 'ab', pluginUsage: {} })),
    ).toBe(true);
    expect(onlyFirstUseKeysAdded(young, config({ ...JSON.parse(young), projects: { '/tmp/x': {} } }))).toBe(
      false,
    );
  });

  it('a key it had may neither change nor vanish', () => {
    expect(onlyFirstUseKeysAdded(young, config({ ...JSON.parse(young), migrationVersion: 16 }))).toBe(false);
    expect(onlyFirstUseKeysAdded(young, config({ firstStartTime: '2026-12-04T18:38:11.455Z' }))).toBe(false);
    expect(onlyFirstUseKeysAdded(young, 'not json')).toBe(false);
  });

  it('changes() lists every other difference, and the config file made or removed', () => {
    const before = new Map([
      ['.claude.json', young],
      ['.claude/settings.json', 'h1'],
      ['.claude/plugins/store/builtin.json', 'p1'],
    ]);
    const after = new Map([
      ['.claude.json', config({ ...JSON.parse(young), userID: 'ab' })],
      ['.claude/settings.json', 'h2'],
      ['.claude/plugins/store/builtin.json', 'p2'],
      ['.claude/.last-cleanup', 'm'],
      ['.claude/projects/-tmp-skilltrigger-x/', 'dir'],
    ]);
    expect(changes(before, after)).toEqual([
      '+ .claude/projects/-tmp-skilltrigger-x/',
      '~ .claude/settings.json',
    ]);
    expect(changes(new Map(), new Map([['.claude.json', young]]))).toEqual(['+ .claude.json']);
    expect(changes(before, new Map())).toEqual(['- .claude.json', '- .claude/settings.json']);
  });
});
