import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { UsageError } from '../../src/errors.js';

const env = { SKILLTRIGGER_CLAUDE: '/bin/claude-x' };
const usage = (argv: string[]): string => {
  try {
    parseCli(argv, env);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
};

describe('matrix flags', () => {
  it('measures --skills with run-like defaults', () => {
    expect(parseCli(['matrix', '--skills', 'skills'], env)).toEqual({
      command: 'matrix',
      skills: 'skills',
      merge: [],
      runs: 2,
      timeoutSeconds: 30,
      stub: 'command',
      out: './skilltrigger-results',
      json: false,
      allowConflict: false,
      maxRetries: 2,
      bins: { claude: '/bin/claude-x', codex: 'codex', gemini: 'gemini' },
      debug: false,
    });
    expect(
      parseCli(['matrix', '--skills', 's', '--shard', '2/3', '--runs', '4', '--model', 'm', '--json'], env),
    ).toMatchObject({
      shard: { index: 2, count: 3 },
      runs: 4,
      model: 'm',
      json: true,
    });
  });

  it('--merge takes the files after it, or repeated', () => {
    expect(parseCli(['matrix', '--merge', 'a.json', 'b.json', 'c.json'], env)).toMatchObject({
      merge: ['a.json', 'b.json', 'c.json'],
    });
    expect(parseCli(['matrix', '--merge', 'a.json', '--merge', 'b.json', '--json'], env)).toMatchObject({
      merge: ['a.json', 'b.json'],
      json: true,
    });
  });

  it('--agent codex or gemini measures the matrix on that agent; one agent per matrix', () => {
    expect(
      parseCli(['matrix', '--skills', 's', '--agent', 'codex'], { ...env, SKILLTRIGGER_CODEX: '/bin/cx' }),
    ).toMatchObject({
      agent: 'codex',
      bins: { codex: '/bin/cx' },
    });
    expect(
      parseCli(['matrix', '--skills', 's', '--agent', 'codex', '--codex', '/opt/codex'], env),
    ).toMatchObject({
      bins: { codex: '/opt/codex' },
    });
    expect(parseCli(['matrix', '--skills', 's', '--agent', 'claude'], env)).not.toHaveProperty('agent');
    expect(usage(['matrix', '--skills', 's', '--agent', 'claude,codex'])).toMatch(
      /matrix measures one agent per report.*Fix: run matrix --agent claude and matrix --agent codex as two calls/,
    );
    expect(usage(['matrix', '--skills', 's', '--agent', 'copilot'])).toMatch(/unknown agent "copilot"/);
    expect(
      parseCli(['matrix', '--skills', 's', '--agent', 'gemini', '--gemini', '/opt/gemini'], env),
    ).toMatchObject({ agent: 'gemini', bins: { gemini: '/opt/gemini' } });
  });

  it('--context and --context-fill give the queries without their own context earlier turns', () => {
    expect(parseCli(['matrix', '--skills', 's', '--context', 'c.json'], env)).toMatchObject({
      context: 'c.json',
    });
    expect(parseCli(['matrix', '--skills', 's', '--context-fill', '2000'], env)).toMatchObject({
      contextFill: 2000,
    });
  });

  it('refuses what makes no sense, saying why', () => {
    expect(usage(['matrix'])).toMatch(/matrix needs --skills <dir>/);
    expect(usage(['matrix', '--skills', 's', '--merge', 'a.json'])).toMatch(/not both/);
    expect(usage(['matrix', '--merge', 'a.json', '--shard', '1/2'])).toMatch(/takes no --shard/);
    expect(usage(['matrix', '--skills', 's', '--shard', '3/2'])).toMatch(/--shard must be i\/n.*got "3\/2"/);
    expect(usage(['matrix', '--skills', 's', '--runs', 'auto'])).toMatch(/--runs must be a whole number/);
    expect(usage(['matrix', '--skills', 's', 'extra'])).toMatch(/matrix takes no arguments/);
    expect(usage(['matrix', '--skills', 's', '--workers', '4'])).toMatch(/one claude at a time/);
  });
});

describe('matrix progress', () => {
  it('one line per run names the owner and where the run went; a terminal gets run’s bar', async () => {
    const { matrixProgressLine } = await import('../../src/cli/matrix-command.js');
    const { LineProgress } = await import('../../src/cli/progress.js');
    const p = {
      query: 6,
      queries: 20,
      owner: 'alpha',
      pass: 1,
      runsPerQuery: 2,
      went: { to: 'skill' as const, skill: 'beta' },
      durationMs: 1400,
      done: 27,
      planned: 40,
    };
    expect(matrixProgressLine(p)).toBe('query 7/20 · alpha · run 2/2 · → beta · 1.4 s');
    expect(matrixProgressLine({ ...p, went: { to: 'lost', outcome: 'error:api', status: 500 } })).toContain(
      '· error:api ·',
    );
    let written = '';
    const progress = new LineProgress(
      { isTTY: true, write: (t: string) => (written += t) },
      matrixProgressLine,
    );
    progress.onRun(p);
    expect(written).toBe(`${matrixProgressLine(p)}\n[####################----------] 27/40`);
  });
});
