import { describe, expect, it } from 'vitest';
import { agentsOption } from '../../src/cli/agent-args.js';
import { parseCli } from '../../src/cli/args.js';
import { UsageError } from '../../src/errors.js';

describe('preflight --agent and --codex', () => {
  it('defaults to Claude Code and codex on PATH (or $SKILLTRIGGER_CODEX)', () => {
    expect(parseCli(['preflight'], {})).toMatchObject({
      agents: [{ agent: 'claude' }],
      bins: { codex: 'codex' },
    });
    expect(parseCli(['preflight'], { SKILLTRIGGER_CODEX: '/opt/codex' })).toMatchObject({
      bins: { codex: '/opt/codex' },
    });
  });

  it('takes codex, or both in the order given, each once', () => {
    expect(parseCli(['preflight', '--agent', 'codex', '--codex', './bin/codex'], {})).toMatchObject({
      agents: [{ agent: 'codex' }],
      bins: { codex: './bin/codex' },
    });
    expect(parseCli(['preflight', '--agent', 'codex,claude'], {})).toMatchObject({
      agents: [{ agent: 'codex' }, { agent: 'claude' }],
    });
    expect(() => parseCli(['preflight', '--agent', 'codex,claude,codex'], {})).toThrow(/twice/);
  });

  it('refuses an unknown agent with the fix', () => {
    expect(() => parseCli(['preflight', '--agent', 'copilot'], {})).toThrow(UsageError);
    expect(() => parseCli(['preflight', '--agent', 'copilot'], {})).toThrow(
      /unknown agent "copilot".*claude, codex and gemini/,
    );
  });
});

describe('--agent with --model', () => {
  it('claude alone (or no --agent) leaves the models as they were', () => {
    expect(agentsOption(undefined, 'a,b')).toEqual({ models: ['a', 'b'] });
    expect(agentsOption('claude', 'sonnet')).toEqual({ model: 'sonnet' });
    expect(agentsOption(' Claude ', undefined)).toEqual({});
  });

  it('codex alone takes --model as its own', () => {
    expect(agentsOption('codex', 'gpt-5')).toEqual({ agents: [{ agent: 'codex' }], model: 'gpt-5' });
  });

  it('several agents: each model names its agent; one left out runs its default', () => {
    expect(agentsOption('claude,codex', 'codex:gpt-5')).toEqual({
      agents: [{ agent: 'claude' }, { agent: 'codex', model: 'gpt-5' }],
    });
    expect(agentsOption('codex,claude', 'claude:sonnet, codex:gpt-5')).toEqual({
      agents: [
        { agent: 'codex', model: 'gpt-5' },
        { agent: 'claude', model: 'sonnet' },
      ],
    });
  });

  it.each([
    ['copilot', undefined, 'unknown agent "copilot"'],
    ['claude,', undefined, 'empty entry'],
    ['codex,CODEX', undefined, 'twice'],
    ['claude,codex', 'sonnet', 'claude:<model>,codex:<model>'],
    ['claude,codex', 'claude:', 'claude:<model>,codex:<model>'],
    ['claude,codex', 'claude:a,claude:b', 'two models for claude'],
  ])('--agent %s --model %s is refused: %s', (agent, model, message) => {
    expect(() => agentsOption(agent, model)).toThrow(UsageError);
    expect(() => agentsOption(agent, model)).toThrow(message);
  });
});
