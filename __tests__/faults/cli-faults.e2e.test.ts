import { writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Behaviour } from '../../src/simulated/model.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { actWhen, type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { faultTitle } from './cases.js';
import {
  claudeProjectsLeft,
  faultCase,
  onlyReport,
  processesUnder,
  projectsLeft,
  scriptTable,
} from './support.js';

/**
 * Faults seen from outside: `skilltrigger run` as a process, with the real claude binary and the
 * simulated model. Each case checks the exit code, what stderr/stdout say, the report (written
 * whenever anything was measured) and that no temp project survives. Eval sets are the smallest
 * the loader accepts (one positive, one negative, one run each) to keep claude starts down: each
 * CLI run is the preflight gates plus two runs.
 */

const DESCRIPTION = 'Write HANDOFF.md summarising the session so a fresh session can resume the work';
const table = new Map<string, Behaviour>();
let world: CliWorld;
let skillDir: string;

beforeAll(async () => {
  // One HOME for the file, a TMPDIR per case: a case's leftovers are looked for in its own folder.
  world = await startCliWorld({ name: 'cli-faults', model: { script: scriptTable(table) } });
  skillDir = path.dirname(
    await world.write('handoff/SKILL.md', `---\nname: handoff\ndescription: ${DESCRIPTION}\n---\n\nBody.\n`),
  );
});

afterAll(async () => {
  await world?.close();
});

const setUp = (name: string, positive: Behaviour, negative: Behaviour) =>
  faultCase(world, table, skillDir, { name, positive, negative });

describe('skilltrigger run under faults', () => {
  it(faultTitle('cli-api-error-no-verdict'), async () => {
    const t = await setUp('api500', { kind: 'skill' }, { kind: 'api-error', status: 500 });
    const r = await runCli([...t.args, '--out', t.out, '--claude', CLAUDE_BIN], { env: t.env });
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/NO VERDICT — this is not a measurement/);
    const report = await onlyReport(t.out);
    expect(report.verdict).toBe('no-verdict');
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([['triggered'], ['error:api']]);
    expect(report.candidate.lostQueries).toEqual(['q2']);
    expect(report.candidate.totals.errorCauses).toEqual({ 'api:500': 1 });
    // Counted apart: the lost negative is not a negative that did not fire.
    expect(report.candidate.totals.negatives).toEqual({ fired: 0, runs: 0 });
    expect(await projectsLeft(t.tmp)).toEqual([]);
    expect(await claudeProjectsLeft(world.claude.home)).toEqual([]);
  });

  it(faultTitle('cli-claude-missing'), async () => {
    const t = await setUp('missing', { kind: 'skill' }, { kind: 'text' });
    const missing = path.join(world.work, 'no-such-claude');
    const r = await runCli([...t.args, '--out', t.out, '--claude', missing], { env: t.env });
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\bcli\b/);
    await expect(readdir(t.out)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await projectsLeft(t.tmp)).toEqual([]);
    expect(await claudeProjectsLeft(world.claude.home)).toEqual([]);
  });

  it(faultTitle('cli-report-enotdir'), async () => {
    const t = await setUp('enotdir', { kind: 'skill' }, { kind: 'text' });
    // Not there when the run starts (so the up-front check passes), a regular file by the end.
    const file = path.join(world.work, 'later-a-file');
    const out = path.join(file, 'results');
    const made = actWhen(
      (stderr) => stderr.includes('query 1/2'),
      () => writeFileSync(file, 'not a folder\n'),
      50,
    );
    const r = await runCli([...t.args, '--out', out, '--claude', CLAUDE_BIN], {
      env: t.env,
      onStart: made.onStart,
    });
    expect(made.done()).toBe(true);
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot write the report to ${out}: ENOTDIR`);
    const saved = /saved instead to (\S+\.json)/.exec(r.stderr)?.[1];
    expect(saved).toBeDefined();
    expect(path.dirname(path.dirname(saved ?? ''))).toBe(t.tmp);
    // The measurement is all there: both runs, the verdict they give.
    const report = await onlyReport(path.dirname(saved ?? ''));
    expect(report.verdict).toBe('ok');
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([['triggered'], ['not-triggered']]);
    expect(await readdir(path.dirname(saved ?? ''))).toHaveLength(3);
    expect(await projectsLeft(t.tmp)).toEqual([]);
    expect(await claudeProjectsLeft(world.claude.home)).toEqual([]);
  });

  it(faultTitle('cli-sigterm'), async () => {
    const t = await setUp('sigterm', { kind: 'skill' }, { kind: 'hang' });
    // Once the first run is recorded and the second (hanging) one has reached the model.
    const sent = actWhen(
      (stderr) =>
        stderr.includes('query 1/2') &&
        world.model.requests.some((q) => q.view?.query === t.queries.negative),
      (child) => child.kill('SIGTERM'),
    );
    const r = await runCli([...t.args, '--out', t.out, '--claude', CLAUDE_BIN, '--timeout', '60'], {
      env: t.env,
      onStart: sent.onStart,
    });
    expect(sent.done()).toBe(true);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/SIGTERM: stopping/);
    const report = await onlyReport(t.out);
    expect(report.verdict).toBe('no-verdict');
    expect(report.candidate.interrupted).toBe(true);
    expect(report.candidate.noVerdictReasons[0]).toMatch(/interrupted/);
    expect(report.candidate.queries[0]?.outcomes).toEqual(['triggered']);
    expect(await projectsLeft(t.tmp)).toEqual([]);
    expect(await claudeProjectsLeft(world.claude.home)).toEqual([]);
    // The hanging claude and its process group are gone, and so is any standby.
    expect(processesUnder(t.tmp)).toEqual([]);
  });
});
