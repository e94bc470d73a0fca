import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actionMemory, autoMemoryPlan, readMemoryInput } from '../../src/action/memory-input.js';
import type { AgentChoice } from '../../src/agents/ids.js';
import { UsageError } from '../../src/errors.js';

/**
 * The Action's `memory: auto` (docs/action.md): the repository's own root CLAUDE.md, AGENTS.md and
 * GEMINI.md, each installed for the measured agents that read it, read and checked before the gates.
 */
const ALL: AgentChoice[] = [{ agent: 'claude' }, { agent: 'codex' }, { agent: 'gemini' }];
let workspace = '';

beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), 'skilltrigger-memory-input-'));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe('readMemoryInput', () => {
  it('takes auto or empty, and refuses anything else with the fix', () => {
    expect(readMemoryInput('')).toBeUndefined();
    expect(readMemoryInput(' auto ')).toBe('auto');
    expect(() => readMemoryInput('CLAUDE.md')).toThrow(UsageError);
    expect(() => readMemoryInput('yes')).toThrow(/input memory: expected auto or empty, got "yes"\. Fix: /);
  });
});

describe('autoMemoryPlan', () => {
  it('gives each agent its own file, for the agents measured', () => {
    const present = new Set(['CLAUDE.md', 'AGENTS.md', 'GEMINI.md']);
    expect(autoMemoryPlan(present, ALL)).toEqual([
      { name: 'CLAUDE.md', agents: ['claude'] },
      { name: 'AGENTS.md', agents: ['codex'] },
      { name: 'GEMINI.md', agents: ['gemini'] },
    ]);
    expect(autoMemoryPlan(present, [{ agent: 'codex' }])).toEqual([{ name: 'AGENTS.md', agents: ['codex'] }]);
  });

  it('gives Claude Code the AGENTS.md when the root has no CLAUDE.md, as it reads it then', () => {
    expect(autoMemoryPlan(new Set(['AGENTS.md']), ALL)).toEqual([
      { name: 'AGENTS.md', agents: ['claude', 'codex'] },
    ]);
    expect(autoMemoryPlan(new Set(), ALL)).toEqual([]);
  });
});

describe('actionMemory', () => {
  it('reads the root files present, each for its agents; empty input reads nothing', async () => {
    await writeFile(path.join(workspace, 'CLAUDE.md'), 'Use the handoff skill for handoffs.\n');
    await writeFile(path.join(workspace, 'AGENTS.md'), 'Codex: route handoffs.\n');
    const files = await actionMemory(workspace, 'auto', ALL);
    expect(files).toEqual([
      { file: 'CLAUDE.md', text: 'Use the handoff skill for handoffs.\n', agents: ['claude'] },
      { file: 'AGENTS.md', text: 'Codex: route handoffs.\n', agents: ['codex'] },
    ]);
    expect(await actionMemory(workspace, undefined, ALL)).toEqual([]);
  });

  it("refuses a bad root file by the repository's name for it, never the runner's path", async () => {
    await writeFile(path.join(workspace, 'CLAUDE.md'), '\n');
    const error = await actionMemory(workspace, 'auto', ALL).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^input memory: CLAUDE\.md: the memory file is empty\. Fix: /);
    expect((error as Error).message).not.toContain(workspace);
  });
});
