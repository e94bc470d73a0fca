import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  type Naming,
  ownModels,
  parseAgents,
  qualifiedModels,
  refuseContext,
} from '../../src/inputs/agents.js';

const cli: Naming = {
  agent: '--agent',
  model: '--model',
  setAgent: (v) => `--agent ${v}`,
  setModel: (v) => `--model ${v}`,
};

function usageMessage(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('no UsageError thrown');
}

describe('parseAgents', () => {
  it('reads the agents in order, trimmed and lower-cased', () => {
    expect(parseAgents(' Codex , claude', cli)).toEqual(['codex', 'claude']);
  });

  it('refuses an empty value or entry, naming the flag and the agents it takes', () => {
    expect(usageMessage(() => parseAgents('', cli))).toMatch(
      /^--agent has an empty entry in ""; the agents are claude, codex and gemini, e\.g\. --agent claude,codex$/,
    );
    expect(usageMessage(() => parseAgents('claude,', cli))).toContain('empty entry in "claude,"');
  });

  it('refuses an unknown agent and a repeated one', () => {
    expect(usageMessage(() => parseAgents('claude,copilot', cli))).toContain(
      '--agent: unknown agent "copilot"',
    );
    expect(usageMessage(() => parseAgents('claude,CLAUDE', cli))).toContain('names "claude" twice');
  });
});

describe('qualifiedModels', () => {
  it('gives each agent its own model, and none to an agent left out', () => {
    expect(qualifiedModels(['claude', 'codex'], [' codex : gpt-5 '], cli)).toEqual([
      { agent: 'claude' },
      { agent: 'codex', model: 'gpt-5' },
    ]);
    expect(qualifiedModels(['claude', 'codex'], undefined, cli)).toEqual([
      { agent: 'claude' },
      { agent: 'codex' },
    ]);
  });

  it('refuses an unqualified model, with an example naming every agent', () => {
    const message = usageMessage(() => qualifiedModels(['claude', 'codex'], ['claude-sonnet-4-5'], cli));
    expect(message).toContain('--model "claude-sonnet-4-5"');
    expect(message).toContain('--model claude:<model>,codex:<model>');
  });

  it('refuses an empty model after the agent', () => {
    expect(usageMessage(() => qualifiedModels(['claude', 'codex'], ['codex:'], cli))).toContain(
      'each model names its agent',
    );
  });

  it('refuses a model for an agent not measured, and two models for one agent', () => {
    expect(usageMessage(() => qualifiedModels(['claude'], ['codex:gpt-5'], cli))).toContain(
      'is for codex, which --agent does not measure',
    );
    expect(usageMessage(() => qualifiedModels(['claude', 'codex'], ['claude:a', 'claude:b'], cli))).toContain(
      'names two models for claude',
    );
  });
});

describe('ownModels: one agent', () => {
  const n = {
    agent: '--agent',
    model: '--model',
    setAgent: (v: string) => `--agent ${v}`,
    setModel: (v: string) => `--model ${v}`,
  };
  it("strips a prefix naming the agent, refuses another agent's, keeps any other colon", () => {
    expect(ownModels('codex', 'codex:gpt-x', n)).toBe('gpt-x');
    expect(ownModels('claude', 'claude:opus,sonnet', n)).toBe('opus,sonnet');
    expect(ownModels('claude', 'anthropic.claude-v2:0', n)).toBe('anthropic.claude-v2:0');
    expect(() => ownModels('claude', 'codex:gpt-x', n)).toThrow(
      '--model "codex:gpt-x" is for codex, but the agent measured is claude. Fix: --agent codex',
    );
  });
});

describe('refuseContext', () => {
  const entry = [{ context: { turns: [] } }];
  it('throws for a context an agent cannot start from, naming where it came from', () => {
    const gemini = [{ agent: 'claude' as const }, { agent: 'gemini' as const }];
    expect(usageMessage(() => refuseContext(gemini, { context: true, fill: true }, [], 'e.json'))).toContain(
      '--context-fill: Gemini CLI cannot be measured with a context yet',
    );
    expect(
      usageMessage(() => refuseContext(gemini, { context: false, fill: false }, entry, 'e.json')),
    ).toContain("e.json: an entry's context: Gemini CLI");
    expect(() => refuseContext(gemini, { context: false, fill: false }, [{}], 'e.json')).not.toThrow();
    expect(
      usageMessage(() => refuseContext([{ agent: 'gemini' }], { context: true, fill: false }, [], 'e.json')),
    ).toContain('--context: Gemini CLI');
  });

  it('lets every context through on agents that start from one', () => {
    expect(() =>
      refuseContext([{ agent: 'claude' }], { context: true, fill: false }, entry, 'e.json'),
    ).not.toThrow();
  });
});
