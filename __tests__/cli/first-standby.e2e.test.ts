import type { ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matrixReportSchema } from '../../src/schemas/matrix.js';
import { reportSchema } from '../../src/schemas/report.js';
import { authorPromptKind, descriptionRule } from '../../src/simulated/description-script.js';
import { GATE_QUERY, type Script } from '../../src/simulated/model.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { expectOneAtATime } from '../fakes/one-at-a-time.js';
import { liveProcessesIn, liveProjectsUnder, projectUnder } from '../fakes/process-group.js';
import { killPids } from '../faults/support.js';

/**
 * The first run's claude is started before the gates (src/agents/claude/early-standby.ts), through the
 * real claude and the CLI as a user runs it. At the round trip's request the model looks for a
 * live claude in a temp project other than the gate's own: that is the waiting standby. Then:
 * the run it serves talks to the model only after every gate exchange has ended, and a failed
 * gate or a Ctrl-C during the gates leaves no process and no temp project.
 * `improve` starts the original's first run the same way, and so does `matrix`, whose stubs hold
 * every skill of the matrix.
 * Real runs: one measurement of 2 queries × 1 run (2 measured claudes), two gate-only calls, one
 * improve session of 4 queries (4 runs of the original, a rewrite call, 4 paired runs on train),
 * one matrix of 2 queries × 1 run (2 measured claudes) and one more gate-only call.
 */
let world: CliWorld;
let skillDir: string;
let evalPath: string;
let splitEvalPath: string;
let matrixDir: string;
let mode: 'serve' | 'fail' | 'interrupt' = 'serve';
let tmp = '';
let cli: ChildProcess | undefined;
/** The temp projects (top folder under `tmp`) with a live process while the round trip was asked. */
let waitingAtGate: string[] = [];

/** The temp project a path lies in (its top folder under this call's `tmp`). */
const projectOf = (dir: string | undefined) => projectUnder(tmp, dir);

const script: Script = (req, ctx) => {
  if (req.query === GATE_QUERY) {
    const gate = projectOf(req.cwd);
    waitingAtGate = liveProjectsUnder(tmp).filter((p) => p !== gate);
    if (mode === 'fail') return { kind: 'api-error', status: 401, noRetry: true };
    if (mode === 'interrupt') {
      cli?.kill('SIGINT');
      return { kind: 'hang' };
    }
    return undefined;
  }
  // improve's rewrite call gets the simulated model's own answer.
  if (authorPromptKind(req.query) !== undefined) return descriptionRule()(req, ctx);
  return req.query.startsWith('p') ? { kind: 'skill' } : { kind: 'text' };
};

beforeAll(async () => {
  world = await startCliWorld({ name: 'first-standby', model: { script } });
  skillDir = path.dirname(
    await world.write(
      'handoff/SKILL.md',
      '---\nname: handoff\ndescription: Write HANDOFF.md so a fresh session can resume the work\n---\n\nBody.\n',
    ),
  );
  evalPath = await world.write(
    'eval.json',
    JSON.stringify([
      { query: 'p write the handoff note', should_trigger: true },
      { query: 'n what is the weather', should_trigger: false },
    ]),
  );
  // The matrix: handoff owns the two queries, notes competes without an eval set.
  matrixDir = path.join(world.work, 'matrix');
  await world.write(
    'matrix/handoff/SKILL.md',
    '---\nname: handoff\ndescription: Write HANDOFF.md so a fresh session can resume the work\n---\n\nBody.\n',
  );
  await world.write('matrix/handoff/evals/evals.json', await readFile(evalPath, 'utf8'));
  await world.write(
    'matrix/notes/SKILL.md',
    '---\nname: notes\ndescription: Keep meeting notes\n---\n\nBody.\n',
  );
  splitEvalPath = await world.write(
    'split.json',
    JSON.stringify([
      { query: 'p write the handoff note', should_trigger: true },
      { query: 'n what is the weather', should_trigger: false },
      { query: 'p leave notes for the next session', should_trigger: true, split: 'holdout' },
      { query: 'n rename this variable', should_trigger: false, split: 'holdout' },
    ]),
  );
});

afterAll(async () => {
  // A leftover would already have failed its test; it must not outlive the file either.
  cli?.kill('SIGKILL');
  if (world) killPids(liveProcessesIn(world.work).map((row) => Number(row.split(' ')[0])));
  await world?.close();
});

async function call(name: string, callMode: typeof mode, command: 'run' | 'improve' | 'matrix' = 'run') {
  mode = callMode;
  waitingAtGate = [];
  const dir = path.join(world.work, `tmp-${name}`);
  await mkdir(dir);
  tmp = await realpath(dir);
  const out = path.join(world.work, `out-${name}`);
  const before = world.model.requests.length;
  const result = await runCli(
    [
      command,
      ...(command === 'matrix'
        ? ['--skills', matrixDir]
        : ['--skill', skillDir, '--eval', command === 'run' ? evalPath : splitEvalPath]),
      ...(command === 'improve' ? ['--iterations', '1'] : []),
      '--runs',
      '1',
      '--standby',
      '1',
      '--out',
      out,
      '--claude',
      CLAUDE_BIN,
    ],
    {
      env: { ...world.claude.env, TMPDIR: tmp },
      onStart: (child) => {
        cli = child;
      },
    },
  );
  return { result, out, requests: world.model.requests.slice(before).filter((r) => r.view !== undefined) };
}

/** Nothing of ours is left: no live process in the temp folder, no temp project, no session file. */
async function expectNothingLeft(): Promise<void> {
  expect(liveProcessesIn(tmp)).toEqual([]);
  expect((await readdir(tmp)).filter((n) => n.startsWith('skilltrigger-'))).toEqual([]);
  const sessions = path.join(world.claude.home, '.claude', 'sessions');
  expect(await readdir(sessions).catch(() => [])).toEqual([]);
}

describe('the first standby, started beside the gates', () => {
  it('waits through the gates without a request, then serves the first run, strictly after them', async () => {
    const { result, out, requests } = await call('serve', 'serve');
    expect(result.code, result.stderr).toBe(0);
    // While the round trip talked to the model, the first run's claude already waited in its project.
    expect(waitingAtGate).toHaveLength(1);
    const ordered = [...requests].sort((a, b) => a.at - b.at);
    expect(ordered.map((r) => r.view?.query)).toEqual([
      GATE_QUERY,
      'p write the handoff note',
      'n what is the weather',
    ]);
    // That claude served the first run: its request came from that project, and only after every
    // earlier exchange (the gate's) had ended. No two exchanges overlap.
    expect(projectOf(ordered[1]?.view?.cwd)).toBe(waitingAtGate[0]);
    expectOneAtATime(ordered);
    // Each run was decided as scripted, from its own init event (the roster check: the stub was listed).
    const json = (await readdir(out)).find((f) => f.endsWith('.json')) ?? '';
    const report = reportSchema.parse(JSON.parse(await readFile(path.join(out, json), 'utf8')));
    expect(report.settings.launch).toBe('standby');
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([['triggered'], ['not-triggered']]);
    expect(report.candidate.queries.every((q) => q.models[0] !== null)).toBe(true);
    await expectNothingLeft();
  });

  it('a failed gate (exit 2) kills the waiting claude and removes its project', async () => {
    const { result, requests } = await call('fail', 'fail');
    expect(result.code, result.stderr).toBe(2);
    expect(waitingAtGate).toHaveLength(1);
    expect(requests.every((r) => r.view?.query === GATE_QUERY)).toBe(true);
    await expectNothingLeft();
  });

  it('Ctrl-C during the gates (exit 3) kills the waiting claude and removes its project', async () => {
    const { result, requests } = await call('interrupt', 'interrupt');
    expect(result.code, result.stderr).toBe(3);
    expect(waitingAtGate).toHaveLength(1);
    expect(requests.every((r) => r.view?.query === GATE_QUERY)).toBe(true);
    await expectNothingLeft();
  });

  it("improve: the original's first run waits through the gates, then serves that run", async () => {
    const { result, requests } = await call('improve', 'serve', 'improve');
    expect(result.code, result.stderr).toBe(0);
    expect(waitingAtGate).toHaveLength(1);
    const ordered = [...requests].sort((a, b) => a.at - b.at);
    expect(ordered[0]?.view?.query).toBe(GATE_QUERY);
    expect(ordered[1]?.view?.query).toBe('p write the handoff note');
    expect(projectOf(ordered[1]?.view?.cwd)).toBe(waitingAtGate[0]);
    expectOneAtATime(ordered);
    await expectNothingLeft();
  });

  it('improve: a failed gate (exit 2) kills the waiting claude and removes its project', async () => {
    const { result, requests } = await call('improve-fail', 'fail', 'improve');
    expect(result.code, result.stderr).toBe(2);
    expect(waitingAtGate).toHaveLength(1);
    expect(requests.every((r) => r.view?.query === GATE_QUERY)).toBe(true);
    await expectNothingLeft();
  });

  it('matrix: the first run waits through the gates in a project holding every skill, then serves that run', async () => {
    const { result, out, requests } = await call('matrix', 'serve', 'matrix');
    expect(result.code, result.stderr).toBe(0);
    expect(waitingAtGate).toHaveLength(1);
    const ordered = [...requests].sort((a, b) => a.at - b.at);
    expect(ordered.map((r) => r.view?.query)).toEqual([
      GATE_QUERY,
      'p write the handoff note',
      'n what is the weather',
    ]);
    expect(projectOf(ordered[1]?.view?.cwd)).toBe(waitingAtGate[0]);
    expectOneAtATime(ordered);
    // Its stub was the matrix's: both skills listed beside each other.
    const listed = (ordered[1]?.view?.listing ?? []).map((e) => e.name);
    expect(listed.some((n) => n.startsWith('handoff-stub-'))).toBe(true);
    expect(listed.some((n) => n.startsWith('notes-stub-'))).toBe(true);
    const json = (await readdir(out)).find((f) => f.endsWith('-matrix.json')) ?? '';
    const report = matrixReportSchema.parse(JSON.parse(await readFile(path.join(out, json), 'utf8')));
    expect(report.settings.launch).toBe('standby');
    expect(report.totals.measured).toBe(2);
    await expectNothingLeft();
  });

  it('matrix: a failed gate (exit 2) kills the waiting claude and removes its project', async () => {
    const { result, requests } = await call('matrix-fail', 'fail', 'matrix');
    expect(result.code, result.stderr).toBe(2);
    expect(waitingAtGate).toHaveLength(1);
    expect(requests.every((r) => r.view?.query === GATE_QUERY)).toBe(true);
    await expectNothingLeft();
  });
});
