import { describe, expect, it } from 'vitest';
import type { ActionEvent, RunnerContext } from '../../src/action/context.js';
import { driftOffEvent } from '../../src/action/drift.js';

/** Which events a `mode: drift` step measures on: the default branch's schedule and dispatch runs. */

function ctx(event: ActionEvent, ref = 'refs/heads/main'): RunnerContext {
  return {
    event,
    owner: 'o',
    repo: 'r',
    ref,
    workspace: '/w',
    runnerOs: 'Linux',
    arch: 'x64',
    simulated: true,
  };
}

describe('driftOffEvent', () => {
  it.each(['schedule', 'workflow_dispatch'])('measures a %s run on the default branch', (name) => {
    expect(
      driftOffEvent(ctx({ kind: 'other', name, onDefaultBranch: true, defaultBranch: 'main' })),
    ).toBeUndefined();
  });

  it('says why it has nothing to do on another branch, a push or a pull request', () => {
    expect(
      driftOffEvent(
        ctx(
          { kind: 'other', name: 'schedule', onDefaultBranch: false, defaultBranch: 'main' },
          'refs/heads/dev',
        ),
      ),
    ).toBe(
      'mode: drift measures the default branch on a schedule or workflow_dispatch run; nothing to do for this schedule run on refs/heads/dev, not main',
    );
    expect(
      driftOffEvent(
        ctx({ kind: 'push', ref: 'refs/heads/main', after: 'a'.repeat(40), onDefaultBranch: true }),
      ),
    ).toMatch(/nothing to do for this push run$/);
    expect(
      driftOffEvent(
        ctx({
          kind: 'pull_request',
          name: 'pull_request',
          number: 3,
          baseSha: 'a'.repeat(40),
          headSha: 'b'.repeat(40),
          baseRef: 'main',
          fromFork: false,
        }),
      ),
    ).toMatch(/nothing to do for this pull_request run$/);
  });
});
