import { describe, expect, it } from 'vitest';
import { projectPrefetch } from '../../../src/agents/claude/prefetch.js';
import type { StubProject, StubSpec } from '../../../src/agents/process/stub-project.js';

/** A project that records its removal; no files (the loop's e2e tests use real ones). */
function recorder() {
  const made: string[] = [];
  const removed: string[] = [];
  const createProject = async (spec: StubSpec): Promise<StubProject> => {
    const id = `${spec.skillName}#${made.length}`;
    made.push(id);
    return {
      dir: `/nonexistent/${id}`,
      tmpDir: `/nonexistent/${id}/tmp`,
      stub: { name: id, filePath: `/nonexistent/${id}.md`, projectDir: `/nonexistent/${id}` },
      siblings: [],
      remove: async () => {
        removed.push(id);
      },
    };
  };
  return { made, removed, createProject };
}

const stub = (skillName: string): StubSpec => ({ layout: 'command', skillName, description: 'x' });

describe('projectPrefetch', () => {
  it('hands a prepared project to the first run of its key only, and makes one per key at a time', async () => {
    const r = recorder();
    const projects = projectPrefetch<string>(r.createProject);
    projects.prefetch('alpha', stub('alpha'));
    projects.prefetch('alpha', stub('alpha'));
    expect(r.made).toEqual(['alpha#0']);
    const first = projects.optionsFor('alpha');
    expect((await first.project)?.stub.name).toBe('alpha#0');
    expect(projects.optionsFor('alpha').project).toBeUndefined();
    expect(projects.optionsFor('beta').project).toBeUndefined();
    await projects.settle();
    expect(r.removed).toEqual([]); // taken: its run removes it
  });

  it('removes the projects no run took, and waits for the deferred removals', async () => {
    const r = recorder();
    const projects = projectPrefetch<number>(r.createProject);
    projects.prefetch(0, stub('cand'));
    projects.prefetch(1, stub('base'));
    let finished = false;
    projects.optionsFor(0).deferRemoval?.(
      new Promise<void>((resolve) =>
        setTimeout(() => {
          finished = true;
          resolve();
        }, 20),
      ),
    );
    // A removal that fails is not the loop's error: settle never throws.
    projects.optionsFor(0).deferRemoval?.(Promise.reject(new Error('EBUSY')));
    await projects.settle();
    expect(finished).toBe(true);
    expect(r.removed).toEqual(['base#1']); // cand#0 was taken
  });

  it('keeps a failed preparation for the run that takes it', async () => {
    const projects = projectPrefetch<string>(() => Promise.reject(new Error('ENOSPC')));
    projects.prefetch('alpha', stub('alpha'));
    await expect(projects.optionsFor('alpha').project).rejects.toThrow('ENOSPC');
    await projects.settle();
  });
});
