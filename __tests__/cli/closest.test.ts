import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/cli/closest.js';
import { COMMAND_HELP, COMMAND_NAMES } from '../../src/cli/help/commands.js';

const optionsOf = (command: keyof typeof COMMAND_HELP) => COMMAND_HELP[command].options.map((o) => o.name);

describe('editDistance', () => {
  it('counts inserts, deletes, replacements and a swap of neighbours as one edit each', () => {
    expect(editDistance('run', 'runs')).toBe(1);
    expect(editDistance('timout', 'timeout')).toBe(1);
    expect(editDistance('tiemout', 'timeout')).toBe(1);
    expect(editDistance('modle', 'model')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('closest: the option or command a typo meant', () => {
  it.each([
    ['run', 'runs'],
    ['timout', 'timeout'],
    ['sibling', 'siblings'],
    ['dryrun', 'dry-run'],
    ['junt', 'junit'],
    ['max-cost', 'max-cost-usd'],
    ['skills', 'skill'],
    ['evals', 'eval'],
  ])('run --%s → --%s', (typed, meant) => {
    expect(closest(typed, optionsOf('run'))).toBe(meant);
  });

  it('suggests nothing for a name near no option, or the start of two', () => {
    expect(closest('csv', optionsOf('compare'))).toBeUndefined();
    expect(closest('late', optionsOf('improve'))).toBeUndefined();
    expect(closest('x', optionsOf('check'))).toBeUndefined();
    expect(closest('baseline', optionsOf('run'))).toBeUndefined();
  });

  it('finds a mistyped command', () => {
    expect(closest('improv', COMMAND_NAMES)).toBe('improve');
    expect(closest('rn', COMMAND_NAMES)).toBe('run');
    expect(closest('measure', COMMAND_NAMES)).toBeUndefined();
  });
});
