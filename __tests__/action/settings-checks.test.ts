import { describe, expect, it } from 'vitest';
import { modelFields } from '../../src/action/settings-checks.js';
import { leavesWorkspace } from '../../src/action/settings-job.js';

describe('modelFields', () => {
  it('gives no model field when several agents carry their own models', () => {
    expect(
      modelFields(
        [
          { agent: 'claude', model: 'a' },
          { agent: 'codex', model: 'b' },
        ],
        ['a', 'b'],
        'a',
      ),
    ).toEqual({});
  });

  it('gives models for two or more, model for one, preferring models over model', () => {
    expect(modelFields(undefined, ['a', 'b'], 'c')).toEqual({ models: ['a', 'b'] });
    expect(modelFields(undefined, ['a'], 'c')).toEqual({ model: 'a' });
    expect(modelFields([{ agent: 'codex' }], [], 'c')).toEqual({ model: 'c' });
    expect(modelFields(undefined, [], undefined)).toEqual({});
  });
});

describe('leavesWorkspace', () => {
  it('refuses absolute paths, drive letters and any .. segment, either separator', () => {
    for (const path of ['/etc', '\\x', 'C:reports', 'a/../../b', 'a\\..\\b', '..']) {
      expect(leavesWorkspace(path), path).toBe(true);
    }
  });

  it('accepts folders inside the workspace, dots in names included', () => {
    for (const path of ['skilltrigger-results', 'a/b', '.github/prices.json', 'a..b/c']) {
      expect(leavesWorkspace(path), path).toBe(false);
    }
  });
});
