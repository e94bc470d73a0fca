import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';

describe('init and improve flags', () => {
  it('init: defaults, and the values it takes', () => {
    expect(parseCli(['init', '--skill', 's'], {})).toEqual({
      command: 'init',
      skill: 's',
      count: 20,
      timeoutSeconds: 180,
      maxRetries: 2,
      bins: { claude: 'claude', codex: 'codex', gemini: 'gemini' },
    });
    expect(
      parseCli(['init', '--skill', 's', '--out', 'o.json', '--count', '8', '--model', 'sonnet'], {}),
    ).toMatchObject({
      out: 'o.json',
      count: 8,
      model: 'sonnet',
    });
  });

  it('improve: defaults to --runs auto, 5 iterations, no --write', () => {
    expect(
      parseCli(['improve', '--skill', 's', '--eval', 'e.json'], { SKILLTRIGGER_CLAUDE: '/c' }),
    ).toMatchObject({
      command: 'improve',
      iterations: 5,
      runs: 6,
      runsAuto: true,
      write: false,
      out: './skilltrigger-results',
      bins: { claude: '/c', codex: 'codex', gemini: 'gemini' },
    });
    expect(parseCli(['improve', '--skill', 's', '--eval', 'e', '--runs', '3', '--write'], {})).toMatchObject({
      runs: 3,
      runsAuto: false,
      write: true,
    });
  });

  it.each([
    [['init'], /init needs --skill <dir>/],
    [['init', '--skill', 's', '--count', '2'], /--count must be a whole number from 4 to 100; got "2"/],
    [['init', '--skill', 's', 'extra'], /init takes no arguments; got "extra"/],
    [['improve', '--skill', 's'], /improve needs --eval <file>/],
    [
      ['improve', '--skill', 's', '--eval', 'e', '--iterations', '0'],
      /--iterations must be a whole number from 1 to 20/,
    ],
    [
      ['improve', '--skill', 's', '--eval', 'e', '--max-cost-usd', '0'],
      /--max-cost-usd must be a number of US dollars above 0/,
    ],
    [['improve', '--skill', 's', '--eval', 'e', '--model', ' '], /--model must not be empty/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseCli(argv, {})).toThrow(message);
  });
});
