import { describe, expect, it } from 'vitest';
import { judgeRoster } from '../../../../src/agents/claude/gates/roster.js';

const environment = { memoryFiles: { project: 1, user: 0 }, hooks: 2 };

describe('judgeRoster', () => {
  it('counts what the model sees besides the stub, names shared by a command and a skill once, singular and plural', () => {
    const result = judgeRoster({
      init: {
        model: 'claude-test',
        cliVersion: '2.1.328',
        slashCommands: ['review', 'init'],
        skills: ['review'],
        mcpServers: 1,
      },
      environment,
    });
    expect(result).toEqual({
      gate: 'roster',
      status: 'ok',
      reason:
        '2 slash commands and 1 skill (2 names) beside the stub; model claude-test, claude 2.1.328; inherited: 1 memory file, 2 hooks, 1 MCP server',
    });
  });

  it('never fails: no finding is a skip with the reason given, or the default one', () => {
    expect(judgeRoster(undefined, 'the round trip failed')).toEqual({
      gate: 'roster',
      status: 'skip',
      reason: 'the round trip failed',
    });
    expect(judgeRoster(undefined).reason).toBe('no init event from the stub-less run');
  });

  it('an init without model or version says unknown; zero counts are plural', () => {
    const { reason } = judgeRoster({
      init: { slashCommands: [], skills: [], mcpServers: 0 },
      environment: { memoryFiles: { project: 0, user: 0 }, hooks: 0 },
    });
    expect(reason).toBe(
      '0 slash commands and 0 skills (0 names) beside the stub; model unknown, claude unknown; inherited: 0 memory files, 0 hooks, 0 MCP servers',
    );
  });
});
