import { describe, expect, it } from 'vitest';
import { measuringFlags } from '../../src/cli/measuring-args.js';
import { parseOptions } from '../../src/cli/parse-options.js';
import { UsageError } from '../../src/errors.js';

describe('measuringFlags', () => {
  it('without flags: the defaults every measuring command shares', () => {
    expect(measuringFlags(parseOptions('matrix', []), '/bin/claude')).toStrictEqual({
      timeoutSeconds: 30,
      stub: 'command',
      out: './skilltrigger-results',
      allowConflict: false,
      maxRetries: 2,
      claude: '/bin/claude',
      debug: false,
    });
  });

  it('reads each flag the same for run, improve and matrix', () => {
    const argv = [
      '--timeout',
      '60',
      '--stub',
      'skill',
      '--out',
      'r',
      '--allow-conflict',
      '--max-retries',
      '0',
      '--debug',
      '--standby',
      '0',
    ];
    const expected = {
      timeoutSeconds: 60,
      stub: 'skill',
      out: 'r',
      allowConflict: true,
      maxRetries: 0,
      claude: 'c',
      debug: true,
      standby: 0,
    };
    for (const command of ['run', 'improve', 'matrix'] as const)
      expect(measuringFlags(parseOptions(command, argv), 'c')).toStrictEqual(expected);
  });

  it('refuses a value out of range, naming the flag', () => {
    expect(() => measuringFlags(parseOptions('run', ['--timeout', '2']), 'c')).toThrow(UsageError);
    expect(() => measuringFlags(parseOptions('run', ['--stub', 'plugin']), 'c')).toThrow(/--stub must be/);
  });
});
