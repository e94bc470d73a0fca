import { describe, expect, it } from 'vitest';
import { startEarlyStandby } from '../../../src/agents/claude/early-standby.js';
import type { ClaudeProcess } from '../../../src/agents/claude/process.js';
import type { WaitingDeps, WaitingSpec } from '../../../src/agents/claude/waiting-run.js';
import type { StubProject, StubSpec } from '../../../src/agents/process/stub-project.js';

/**
 * The early standby's hand-over rule, with a recording stand-in for the project and the process
 * (the real claude's part is in __tests__/cli/first-standby.e2e.test.ts).
 */
function recordingDeps() {
  const events: string[] = [];
  let serial = 0;
  const deps: WaitingDeps = {
    createProject: async (spec: StubSpec) => {
      const name = `${spec.description}#${serial++}`;
      events.push(`project ${name}`);
      return {
        dir: name,
        remove: async () => {
          events.push(`removed ${name}`);
        },
      } as unknown as StubProject;
    },
    spawn: (options) => {
      events.push(`spawned in ${options.cwd}`);
      return {
        kill: async () => {
          events.push(`killed in ${options.cwd}`);
        },
      } as unknown as ClaudeProcess;
    },
  };
  return { deps, events };
}

const spec = (description: string, extra: Partial<WaitingSpec> = {}): WaitingSpec => ({
  stub: { layout: 'command', skillName: 'handoff', description },
  claudeBin: 'claude',
  env: { HOME: '/home/me' },
  ...extra,
});

describe('startEarlyStandby', () => {
  it('hands the waiting claude to a first run started the same way, once, and release then leaves it alone', async () => {
    const { deps, events } = recordingDeps();
    const early = startEarlyStandby(spec('x'), deps);
    // A run's spec carries more than what fixes a standby at its spawn (its timeout): that is no difference.
    const handed = early.claim({ ...spec('x'), timeoutMs: 30_000 } as WaitingSpec);
    expect(handed).toBeDefined();
    expect((await handed)?.project.dir).toBe('x#0');
    expect(early.claim(spec('x'))).toBeUndefined();
    await early.release();
    expect(events).toEqual(['project x#0', 'spawned in x#0']);
  });

  it.each([
    ['another listed text', spec('y')],
    ['another model', spec('x', { model: 'opus' })],
    ['another environment', spec('x', { env: { HOME: '/elsewhere' } })],
    ['no first claude run', undefined],
  ])('discards it for %s: its group killed and its project removed', async (_what, wanted) => {
    const { deps, events } = recordingDeps();
    const early = startEarlyStandby(spec('x'), deps);
    expect(early.claim(wanted)).toBeUndefined();
    await early.release();
    expect(events).toEqual(['project x#0', 'spawned in x#0', 'killed in x#0', 'removed x#0']);
  });

  it('release before any claim (a gate failed) discards it, and a second release does nothing more', async () => {
    const { deps, events } = recordingDeps();
    const early = startEarlyStandby(spec('x'), deps);
    await early.release();
    await early.release();
    expect(early.claim(spec('x'))).toBeUndefined();
    expect(events).toEqual(['project x#0', 'spawned in x#0', 'killed in x#0', 'removed x#0']);
  });

  it('starts nothing without a spec (a dry run, or runs that go cold)', async () => {
    const { deps, events } = recordingDeps();
    const early = startEarlyStandby(undefined, deps);
    expect(early.claim(spec('x'))).toBeUndefined();
    await early.release();
    expect(events).toEqual([]);
  });
});
