import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { agentsRun, secondSignalText } from '../../src/cli/main.js';

/** The second signal names what it killed: the agents the command runs, not claude always. */

const agentsOf = (...argv: string[]) => agentsRun(parseCli(argv, {}));
const run = (...flags: string[]) => agentsOf('run', '--skill', 's', '--eval', 'e.json', ...flags);

describe('the second signal', () => {
  it('names the agents the command runs', () => {
    expect(run()).toEqual(['claude']);
    expect(run('--agent', 'codex')).toEqual(['codex']);
    expect(run('--agent', 'claude,codex')).toEqual(['claude', 'codex']);
    expect(agentsOf('preflight', '--agent', 'codex')).toEqual(['codex']);
    expect(agentsOf('check', '--skill', 's')).toEqual(['claude']);
    expect(agentsOf('compare', 'a.json', 'b.json')).toEqual([]);
  });

  it('says them by name, or the runs when the command runs no agent', () => {
    expect(secondSignalText('SIGINT', ['codex'])).toBe(
      '\nSIGINT again: codex killed; writing what was measured…\n',
    );
    expect(secondSignalText('SIGTERM', ['claude', 'codex'])).toBe(
      '\nSIGTERM again: claude and codex killed; writing what was measured…\n',
    );
    expect(secondSignalText('SIGHUP', ['claude'])).toContain('SIGHUP again: claude killed;');
    expect(secondSignalText('SIGINT', [])).toBe(
      '\nSIGINT again: every run killed; writing what was measured…\n',
    );
  });
});
