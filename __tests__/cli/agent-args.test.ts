import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { UsageError } from '../../src/errors.js';

describe('preflight --agent and --codex', () => {
  it('defaults to Claude Code and codex on PATH (or $SKILLTRIGGER_CODEX)', () => {
    expect(parseCli(['preflight'], {})).toMatchObject({ agents: ['claude'], codex: 'codex' });
    expect(parseCli(['preflight'], { SKILLTRIGGER_CODEX: '/opt/codex' })).toMatchObject({
      codex: '/opt/codex',
    });
  });

  it('takes codex, or both in the order given, each once', () => {
    expect(parseCli(['preflight', '--agent', 'codex', '--codex', './bin/codex'], {})).toMatchObject({
      agents: ['codex'],
      codex: './bin/codex',
    });
    expect(parseCli(['preflight', '--agent', 'codex,claude,codex'], {})).toMatchObject({
      agents: ['codex', 'claude'],
    });
  });

  it('refuses an unknown agent with the fix', () => {
    expect(() => parseCli(['preflight', '--agent', 'copilot'], {})).toThrow(UsageError);
    expect(() => parseCli(['preflight', '--agent', 'copilot'], {})).toThrow(
      /unknown agent "copilot".*claude,codex/,
    );
  });
});
