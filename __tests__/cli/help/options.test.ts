import { describe, expect, it } from 'vitest';
import { COMMAND_HELP, COMMAND_NAMES } from '../../../src/cli/help/commands.js';
import { type OptionHelp, SHARED_OPTIONS } from '../../../src/cli/help/options.js';

describe('SHARED_OPTIONS', () => {
  it.each(Object.entries(SHARED_OPTIONS))(
    '%s is explained by several commands, as one entry',
    (_, option) => {
      const users = COMMAND_NAMES.filter((name) =>
        (COMMAND_HELP[name].options as readonly OptionHelp[]).includes(option),
      );
      expect(users.length).toBeGreaterThanOrEqual(2);
    },
  );

  it('no command explains a shared text in a copy of its own', () => {
    for (const name of COMMAND_NAMES) {
      for (const option of COMMAND_HELP[name].options as readonly OptionHelp[]) {
        const shared = Object.values(SHARED_OPTIONS).find(
          (s) => s.name === option.name && s.text === option.text,
        );
        if (shared !== undefined) expect(option).toBe(shared);
      }
    }
  });
});

describe('every command help', () => {
  it.each(COMMAND_NAMES)('%s lists its required options first', (name) => {
    const options = COMMAND_HELP[name].options as readonly OptionHelp[];
    const required = options.map((o) => /\(required\)/.test(o.text));
    const firstOptional = required.indexOf(false);
    expect(firstOptional === -1 ? [] : required.slice(firstOptional).filter(Boolean), name).toEqual([]);
  });
});
