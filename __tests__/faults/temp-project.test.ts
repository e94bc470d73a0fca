import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaudeProcess } from '../../src/agents/claude/process.js';
import type { RunDeps } from '../../src/agents/claude/run-once.js';
import { createStubProject, StubProjectError } from '../../src/agents/process/stub-project.js';
import { ExitCode } from '../../src/errors.js';
import type { EvalItem } from '../../src/inputs/types.js';
import { measureAll } from '../../src/measure/loop.js';
import type { MeasureSettings } from '../../src/measure/measure-settings.js';
import { measureSkill } from '../../src/measure/measure-skill.js';
import { claudeOver, withClaude } from '../fakes/claude-loop.js';
import { faultTitle } from './cases.js';

/**
 * The machine stops hosting runs: the temp folder fills up or disappears. The temp projects are
 * real (createStubProject); claude is a stand-in that answers with a Skill call, because the fault
 * is not in claude. Runs already measured must survive into the report.
 */

let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-temp-faults-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A claude that calls the stub it finds in its project, and then (once) breaks the temp root. */
function standIn(root: string, breakRootAfterFirstRun: boolean): RunDeps {
  let runs = 0;
  return {
    now: () => performance.now(),
    createProject: (spec) => createStubProject({ ...spec, root }),
    spawn: (options): ClaudeProcess => {
      let found: string[];
      try {
        found = readdirSync(path.join(options.cwd, '.claude', 'commands'));
      } catch {
        // A standby whose project went with the temp folder: a claude cannot start in it.
        return {
          lines: (async function* () {})(),
          exited: Promise.resolve({ spawnFailed: true }),
          stop: async () => {},
          kill: async () => {},
          hasExited: () => true,
          send: async () => {},
          pid: undefined,
        };
      }
      const stub = (found[0] ?? '').replace(/\.md$/, '');
      // A run starts when its prompt reaches claude: at the spawn, or a standby's when written.
      const prompted = (): void => {
        runs++;
        // A cleanup job removes the temp folder while the first run is still going.
        if (breakRootAfterFirstRun && runs === 1) rmSync(root, { recursive: true, force: true });
      };
      if (!options.promptOnStdin) prompted();
      const lines = [
        JSON.stringify({ type: 'system', subtype: 'init', model: 'm', slash_commands: [stub], skills: [] }),
        JSON.stringify({
          type: 'assistant',
          message: {
            id: 'm1',
            model: 'm',
            content: [{ type: 'tool_use', name: 'Skill', input: { skill: stub } }],
          },
          parent_tool_use_id: null,
        }),
      ];
      return {
        lines: (async function* () {
          yield* lines;
        })(),
        exited: Promise.resolve({ spawnFailed: false, exitCode: 0 }),
        stop: async () => {},
        kill: async () => {},
        hasExited: () => false,
        send: async () => prompted(),
        pid: undefined,
      };
    },
  };
}

const items: EvalItem[] = [
  { id: 'p1', query: 'write the handoff', shouldTrigger: true, extra: {} },
  { id: 'n1', query: 'rename a variable', shouldTrigger: false, extra: {} },
];

function settings(): MeasureSettings {
  return {
    skill: {
      dir: work,
      file: path.join(work, 'SKILL.md'),
      name: 'handoff',
      description: 'x',
      descriptionLine: 3,
      warnings: [],
    },
    evalSet: { file: 'evals.json', format: 'skill-creator-json', items },
    description: 'Write HANDOFF.md',
    overridden: false,
    rules: { runsPerQuery: 2, triggerThreshold: 0.5, noVerdictShare: 0.1 },
    timeoutSeconds: 5,
    stub: 'command',
    maxRetries: 0,
    defaultBin: 'claude',
    env: {},
    conflictAllowed: false,
    simulated: true,
    toolVersion: '0.0.0-test',
  };
}

describe('a temp folder that stops taking projects', () => {
  it(faultTitle('temp-folder-fails-mid-run'), async () => {
    const root = path.join(work, 'mid-run');
    await mkdir(root);
    const loop = await measureAll(
      withClaude(
        {
          items,
          sides: [
            { label: 'candidate', stub: { layout: 'command', skillName: 'handoff', description: 'x' } },
          ],
          rules: settings().rules,
          run: { timeoutMs: 5000, claudeBin: 'claude', env: {} },
        },
        standIn(root, true),
      ),
      () => {},
      undefined,
    );
    expect(loop.aborted).toBe(true);
    expect(loop.interrupted).toBe(false);
    expect(loop.failure).toBeInstanceOf(StubProjectError);
    expect(loop.failure?.message).toContain(`cannot create a temporary project in ${root}: ENOENT`);
    expect(loop.records[0]?.map((runs) => runs.map((r) => r.outcome.kind))).toEqual([['triggered'], []]);

    // The same fault through measureSkill: the report keeps the first run and has no verdict.
    await mkdir(root);
    const report = await measureSkill(settings(), () => {}, undefined, claudeOver(standIn(root, true)));
    expect(report.verdict).toBe('no-verdict');
    expect(report.candidate.aborted).toBe(true);
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([['triggered'], []]);
    expect(report.candidate.noVerdictReasons.join(' ')).toMatch(/stopped before every planned run finished/);
  });

  it('a temp folder removed while a project is being made is never re-created (both layouts, siblings)', async () => {
    // The loop makes the next project while a run goes on; a cleanup job may remove the folder at
    // any step of that. Whatever step it hits, nothing may exist afterwards: a recursive mkdir
    // would quietly re-create the folder and every later run would go on in it.
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    let failed = 0;
    for (let i = 0; i < 60; i++) {
      const root = path.join(work, `vanish-${i}`);
      await mkdir(root);
      const layout = i % 2 === 0 ? 'command' : 'skill';
      const made = createStubProject({
        layout,
        skillName: 'handoff',
        description: 'x',
        siblings: [{ skillName: 'review', description: 'y' }],
        root,
      }).then(
        (project) => project,
        (error: unknown) => {
          expect(error).toBeInstanceOf(StubProjectError);
          failed++;
          return undefined;
        },
      );
      for (let t = 0; t < i % 15; t++) await tick();
      // Removed at once, between two steps of the creation. A write already on libuv's threads may
      // land in a folder being emptied (ENOTEMPTY): then finish the removal as a cleanup job would.
      try {
        rmSync(root, { recursive: true, force: true });
      } catch {
        await rm(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 1 });
      }
      await made;
      expect(existsSync(root), `step ${i % 15} (${layout})`).toBe(false);
    }
    // Some removals came mid-creation (else this test proves nothing).
    expect(failed).toBeGreaterThan(0);
  });

  it(faultTitle('temp-folder-fails-at-start'), async () => {
    const root = path.join(work, 'a-file');
    await writeFile(root, '');
    const error = await measureSkill(settings(), () => {}, undefined, claudeOver(standIn(root, false))).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StubProjectError);
    if (!(error instanceof StubProjectError)) return;
    expect(error.exitCode).toBe(ExitCode.input);
    expect(error.message).toMatch(new RegExp(`cannot create a temporary project in ${root}: ENOTDIR`));
  });
});
