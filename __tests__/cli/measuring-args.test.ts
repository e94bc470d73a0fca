import { describe, expect, it } from 'vitest';
import { measuringFlags, skillAndEvalSet } from '../../src/cli/measuring-args.js';
import { parseOptions } from '../../src/cli/parse-options.js';
import { UsageError } from '../../src/errors.js';

describe('measuringFlags', () => {
  it('without flags: the defaults every measuring command shares', () => {
    expect(measuringFlags(parseOptions('matrix', []), { SKILLTRIGGER_CLAUDE: '/bin/claude' })).toStrictEqual({
      timeoutSeconds: 30,
      stub: 'command',
      out: './skilltrigger-results',
      allowConflict: false,
      maxRetries: 2,
      bins: { claude: '/bin/claude', codex: 'codex', gemini: 'gemini' },
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
      bins: { claude: 'c', codex: 'codex', gemini: 'gemini' },
      debug: true,
      standby: 0,
    };
    for (const command of ['run', 'improve', 'matrix'] as const)
      expect(measuringFlags(parseOptions(command, [...argv, '--claude', 'c']), {})).toStrictEqual(expected);
  });

  it('refuses a value out of range, naming the flag', () => {
    expect(() => measuringFlags(parseOptions('run', ['--timeout', '2']), {})).toThrow(UsageError);
    expect(() => measuringFlags(parseOptions('run', ['--stub', 'plugin']), {})).toThrow(/--stub must be/);
  });
});

describe('skillAndEvalSet', () => {
  it('is the skill folder and the eval set', () => {
    const parsed = parseOptions('run', ['--skill', 's', '--eval', 'e.json']);
    expect(skillAndEvalSet(parsed, 'run', 'x')).toStrictEqual({ skill: 's', eval: 'e.json' });
  });

  it('refuses a missing --skill first, then a missing --eval saying what the set must be', () => {
    expect(() => skillAndEvalSet(parseOptions('improve', []), 'improve', 'a set')).toThrow(
      /^improve needs --skill <dir> \(the folder holding SKILL\.md\)\n\nskilltrigger improve /,
    );
    expect(() => skillAndEvalSet(parseOptions('improve', ['--skill', 's']), 'improve', 'a set')).toThrow(
      /^improve needs --eval <file> \(a set\)/,
    );
  });

  it('refuses an argument', () => {
    const parsed = parseOptions('run', ['extra', '--skill', 's', '--eval', 'e.json']);
    expect(() => skillAndEvalSet(parsed, 'run', 'x')).toThrow(/^run takes no arguments; got "extra"/);
  });
});
