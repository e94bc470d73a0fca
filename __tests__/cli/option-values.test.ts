import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agentBins,
  crossNegativesOf,
  nonEmptyModel,
  noPositionals,
  numberOption,
  optional,
  outInSkillWarning,
  requiredOption,
  runsOption,
  standbyOption,
  stubOption,
} from '../../src/cli/option-values.js';
import type { ParsedOptions } from '../../src/cli/parse-options.js';
import { UsageError } from '../../src/errors.js';
import { DEFAULT_AUTO_MAX } from '../../src/verdict/sequential.js';

const parsed = (over: Partial<ParsedOptions> = {}): ParsedOptions => ({
  values: new Map(),
  lists: new Map(),
  switches: new Set(),
  positionals: [],
  ...over,
});
const usage = (call: () => unknown) => {
  try {
    call();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('expected a UsageError');
};

describe('numberOption and standbyOption', () => {
  it('the fallback when absent, the number when valid, else a message naming the flag, its range and the value', () => {
    expect(numberOption('runs', undefined, 3)).toBe(3);
    expect(numberOption('runs', '5', 3)).toBe(5);
    const message = usage(() => numberOption('runs', '0', 3));
    expect(message).toMatch(/^--runs must be a whole number from 1 to \d+; got "0"$/);
    expect(standbyOption(undefined)).toEqual({});
    expect(standbyOption('0')).toEqual({ standby: 0 });
    expect(usage(() => standbyOption('-1'))).toMatch(/^--standby must be .*; got "-1"$/);
  });
});

describe('runsOption', () => {
  it('a fixed number, or the fallback; "auto" is refused where a command measures fixed runs', () => {
    expect(runsOption('4', { fallback: 2, auto: true })).toEqual({ runs: 4, runsAuto: false });
    expect(runsOption(undefined, { fallback: 3, auto: false })).toEqual({ runs: 3, runsAuto: false });
    const fixed = usage(() => runsOption('auto', { fallback: 2, auto: false }));
    expect(fixed).toMatch(/^--runs must be a whole number from 1 to \d+; got "auto"$/);
  });

  it('auto: at most the default, or auto:N with its own range; auto as the fallback', () => {
    expect(runsOption('auto', { fallback: 2, auto: true })).toEqual({
      runs: DEFAULT_AUTO_MAX,
      runsAuto: true,
    });
    expect(runsOption(' auto:10 ', { fallback: 2, auto: true })).toEqual({ runs: 10, runsAuto: true });
    expect(runsOption(undefined, { fallback: 'auto', auto: true })).toEqual({
      runs: DEFAULT_AUTO_MAX,
      runsAuto: true,
    });
    expect(usage(() => runsOption('auto:1', { fallback: 2, auto: true }))).toMatch(
      /^--runs auto:<max> must have a max that is a whole number from 2 to \d+; got "auto:1"$/,
    );
    expect(usage(() => runsOption('often', { fallback: 2, auto: true }))).toContain(
      `or auto (stop each query once it is settled, at most ${DEFAULT_AUTO_MAX} runs) or auto:<max>; got "often"`,
    );
  });
});

describe('the other single-value checks', () => {
  it('noPositionals names the command and the stray argument', () => {
    expect(() => noPositionals('check', [])).not.toThrow();
    expect(usage(() => noPositionals('check', ['extra', 'more']))).toMatch(
      /^check takes no arguments; got "extra"\n\n/,
    );
  });

  it('--stub is command (the default) or skill', () => {
    expect(stubOption(parsed())).toBe('command');
    expect(stubOption(parsed({ values: new Map([['stub', 'skill']]) }))).toBe('skill');
    expect(usage(() => stubOption(parsed({ values: new Map([['stub', 'agent']]) })))).toBe(
      '--stub must be command or skill; got "agent"',
    );
  });

  it('--model may be absent but not blank', () => {
    expect(nonEmptyModel(parsed())).toBeUndefined();
    expect(nonEmptyModel(parsed({ values: new Map([['model', 'haiku']]) }))).toBe('haiku');
    expect(usage(() => nonEmptyModel(parsed({ values: new Map([['model', '  ']]) })))).toBe(
      '--model must not be empty',
    );
  });

  it('--cross-negatives needs --siblings', () => {
    expect(crossNegativesOf(parsed())).toBe(false);
    const on = parsed({ switches: new Set(['cross-negatives']) });
    expect(usage(() => crossNegativesOf(on))).toMatch(/^--cross-negatives needs --siblings <dir>/);
    expect(crossNegativesOf({ ...on, lists: new Map([['siblings', ['../skills']]]) })).toBe(true);
  });

  it('the binaries: the flag, else the environment variable (an empty one ignored), else the name', () => {
    expect(
      agentBins(parsed({ values: new Map([['claude', '/x/claude']]) }), { SKILLTRIGGER_CLAUDE: '/y' }).claude,
    ).toBe('/x/claude');
    expect(agentBins(parsed(), { SKILLTRIGGER_CLAUDE: '/y/claude' }).claude).toBe('/y/claude');
    expect(agentBins(parsed(), { SKILLTRIGGER_CLAUDE: '', SKILLTRIGGER_CODEX: '/z/codex' })).toStrictEqual({
      claude: 'claude',
      codex: '/z/codex',
      gemini: 'gemini',
    });
  });

  it('optional spreads a key only when it has a value', () => {
    expect(optional('model', undefined)).toEqual({});
    expect(optional('model', '')).toEqual({ model: '' });
  });
});

describe('outInSkillWarning', () => {
  const skill = path.join(os.tmpdir(), 'repo', 'skills', 'pdf');

  it('warns when --out is the skill folder or inside it, with the fix', () => {
    expect(outInSkillWarning(skill, skill)).toContain('is the skill folder itself');
    const inside = outInSkillWarning(path.join(skill, 'results'), skill);
    expect(inside).toContain('is inside the skill folder');
    expect(inside).toContain('Fix: pass --out a folder outside the skill');
  });

  it('is silent for a folder beside it or one whose name merely starts the same', () => {
    expect(outInSkillWarning(path.join(skill, '..', 'results'), skill)).toBeUndefined();
    expect(outInSkillWarning(`${skill}-results`, skill)).toBeUndefined();
    expect(outInSkillWarning('/elsewhere', skill)).toBeUndefined();
  });
});

describe('requiredOption', () => {
  it("is the flag's value when given", () => {
    expect(requiredOption(parsed({ values: new Map([['skill', 's']]) }), 'run', 'skill', '<dir> (x)')).toBe(
      's',
    );
  });

  it('refuses a missing or empty flag, saying what it is and showing the usage', () => {
    for (const values of [new Map<string, string>(), new Map([['skill', '']])]) {
      expect(() => requiredOption(parsed({ values }), 'init', 'skill', '<dir> (the folder)')).toThrow(
        /^init needs --skill <dir> \(the folder\)\n\nskilltrigger init --skill/,
      );
    }
  });
});
