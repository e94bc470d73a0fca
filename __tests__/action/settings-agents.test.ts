import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/action/settings.js';
import { UsageError } from '../../src/errors.js';

/** The inputs a Codex measurement needs besides `agents` (the default competition measures siblings). */
const ISOLATED = { competition: 'isolated' };

function reader(values: Record<string, string>) {
  return (name: string) => values[name] ?? '';
}

function refusal(values: Record<string, string>): UsageError {
  try {
    readSettings(reader(values));
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError, got settings');
}

describe('readSettings: agents', () => {
  it('measures Claude Code alone by default, and says nothing of agents then', () => {
    const settings = readSettings(reader({}));
    expect(settings.agents).toBeUndefined();
    expect(settings.install.codex.version).toBe('0.169.0');
    expect(readSettings(reader({ agents: 'claude' })).agents).toBeUndefined();
  });

  it('reads codex alone with its model, path, version and key', () => {
    expect(
      readSettings(
        reader({
          ...ISOLATED,
          agents: ' Codex ',
          model: 'gpt-5',
          'codex-version': '0.170.1',
          'codex-path': '/opt/codex',
          'openai-api-key': 'sk-openai-x',
        }),
      ),
    ).toMatchObject({
      agents: [{ agent: 'codex' }],
      model: 'gpt-5',
      install: { codex: { version: '0.170.1', path: '/opt/codex', apiKey: 'sk-openai-x' } },
    });
  });

  it('gives each of several agents its own model, named with the agent, from models or model', () => {
    const both = readSettings(
      reader({ ...ISOLATED, agents: 'claude,codex', models: 'codex:gpt-5\nclaude:claude-haiku-4-5' }),
    );
    expect(both.agents).toEqual([
      { agent: 'claude', model: 'claude-haiku-4-5' },
      { agent: 'codex', model: 'gpt-5' },
    ]);
    expect(both.model).toBeUndefined();
    expect(both.models).toBeUndefined();
    expect(
      readSettings(reader({ ...ISOLATED, agents: 'codex,claude', model: 'codex:gpt-5' })).agents,
    ).toEqual([{ agent: 'codex', model: 'gpt-5' }, { agent: 'claude' }]);
  });

  it('one agent: its own prefix is not part of the model id, as with the CLI', () => {
    expect(readSettings(reader({ ...ISOLATED, agents: 'codex', model: 'codex:gpt-5' })).model).toBe('gpt-5');
    expect(readSettings(reader({ ...ISOLATED, model: 'claude:claude-sonnet-4-5' })).model).toBe(
      'claude-sonnet-4-5',
    );
    expect(readSettings(reader({ ...ISOLATED, agents: 'codex', models: 'codex:gpt-5,o3' })).models).toEqual([
      'gpt-5',
      'o3',
    ]);
    // A colon after anything else stays part of the id (a Bedrock id ends in :0).
    expect(readSettings(reader({ ...ISOLATED, model: 'anthropic.claude-v2:0' })).model).toBe(
      'anthropic.claude-v2:0',
    );
  });

  it.each([
    [
      { agents: 'copilot' },
      'input agents: unknown agent "copilot"; the agents are claude, codex and gemini, e.g. agents: claude,codex',
    ],
    [{ agents: 'claude,,codex' }, 'input agents has an empty entry in "claude,,codex"'],
    [{ agents: ',' }, 'input agents has an empty entry'],
    [
      { agents: 'codex,claude,codex' },
      'input agents names "codex" twice in "codex,claude,codex"; each agent is measured once. Fix: drop the repeat',
    ],
    [
      { agents: 'claude,codex', model: 'claude-sonnet-4-5' },
      'input model "claude-sonnet-4-5": with several agents each model names its agent, e.g. model: claude:<model>,codex:<model>',
    ],
    [
      { agents: 'claude,codex', models: 'claude:a,claude:b' },
      'input models names two models for claude; with several agents each runs one model',
    ],
    [
      { agents: 'codex', model: 'claude:opus' },
      'input model "claude:opus" is for claude, but the agent measured is codex',
    ],
    [{ 'codex-version': 'latest' }, 'input codex-version: expected an exact version such as 0.169.0'],
    [{ 'codex-version': '~0.169.0' }, 'input codex-version: expected an exact version'],
  ])('refuses %j before anything is spent (exit 1)', (values, message) => {
    const error = refusal({ ...ISOLATED, ...values });
    expect(error.message).toContain(message);
    expect(error.exitCode).toBe(1);
  });

  it('takes max-cost-usd with Codex, alone or beside Claude Code, as the CLI does', () => {
    for (const agents of ['codex', 'claude,codex']) {
      expect(readSettings(reader({ agents, ...ISOLATED, 'max-cost-usd': '5' })).maxCostUsd).toBe(5);
    }
  });

  it('measures the routing matrix on Codex too, as `matrix --agent codex` does', () => {
    expect(readSettings(reader({ agents: 'codex', 'routing-matrix': 'true' })).routingMatrix).toBe(true);
  });

  it('measures the siblings on Codex too, as the CLI does (the default competition)', () => {
    expect(readSettings(reader({ agents: 'codex' })).competition).toBe('siblings');
    expect(readSettings(reader({ agents: 'claude,codex' })).competition).toBe('siblings');
  });

  it('keeps those inputs for Claude Code alone', () => {
    expect(readSettings(reader({ 'max-cost-usd': '5' })).maxCostUsd).toBe(5);
    expect(readSettings(reader({})).competition).toBe('siblings');
  });
});
