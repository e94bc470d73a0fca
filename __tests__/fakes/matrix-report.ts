import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EvalItem } from '../../src/inputs/types.js';
import { buildMatrixReport, describeMatrixSkill, type MatrixMeta } from '../../src/matrix/build.js';
import { matrixQueries, type Shard, shardQueries } from '../../src/matrix/plan.js';
import { summarizeMatrixQuery } from '../../src/matrix/tally.js';
import { type MatrixReport, type MatrixRun, matrixReportSchema } from '../../src/schemas/matrix.js';

/** A matrix report built through the real rules from scripted runs: `runsOf(owner, id)` says where each run went. */
const item = (id: string, shouldTrigger: boolean): EvalItem => ({
  id,
  query: `query ${id}`,
  shouldTrigger,
  extra: {},
});

export const FIXTURE_SKILLS = [
  { name: 'alpha', listed: 'Alpha things.', items: [item('a1', true), item('a2', true), item('a3', false)] },
  { name: 'beta', listed: 'Beta things.', items: [item('b1', true), item('b2', false)] },
  { name: 'gamma', listed: 'Gamma, no eval set.', items: null },
];

export function matrixFixture(
  runsOf: (owner: string, id: string) => MatrixRun[],
  options: { shard?: Shard; meta?: Partial<MatrixMeta>; skills?: typeof FIXTURE_SKILLS } = {},
): MatrixReport {
  const skills = options.skills ?? FIXTURE_SKILLS;
  const refs = shardQueries(matrixQueries(skills), options.shard);
  const queries = refs.map((ref) => summarizeMatrixQuery(ref, runsOf(ref.owner, ref.item.id)));
  return buildMatrixReport(
    {
      toolVersion: '0.0.0-test',
      createdAt: new Date('2026-12-01T10:00:00Z'),
      simulated: true,
      cliVersion: '2.1.328',
      requestedModel: null,
      reportedModels: { 'claude-sonnet-4-5': queries.reduce((n, q) => n + q.runs.length, 0) },
      roster: { slashCommands: 3, skills: 0, members: ['0123456789ab'] },
      environment: { memoryFiles: { project: 0, user: 0 }, hooks: 0, mcpServers: 0 },
      settings: {
        runsPerQuery: 2,
        timeoutSeconds: 30,
        noVerdictShare: 0.1,
        stub: 'command',
        maxRetries: 2,
        launch: 'standby',
      },
      conflictAllowed: false,
      shard: options.shard ?? null,
      skills: skills.map((s) => describeMatrixSkill(s.name, s.listed, s.items)),
      planned: refs.length * 2,
      aborted: false,
      interrupted: false,
      ...options.meta,
    },
    queries,
  );
}

/** Two runs per query: positives to their owner once and to beta once (alpha's a2 twice to beta). */
export const scriptedRuns = (owner: string, id: string): MatrixRun[] => {
  const to = (skill: string): MatrixRun => ({ to: 'skill', skill });
  if (id === 'a2') return [to('beta'), to('beta')];
  if (id.endsWith('1')) return [to(owner), to(owner)];
  return [{ to: 'none-other' }, to('gamma')];
};

/**
 * The matrix report a CLI call wrote into `out`, or undefined when it wrote none (the test that
 * checks the exit code then fails with the call's stderr).
 */
export async function writtenMatrix(out: string): Promise<MatrixReport | undefined> {
  const [json] = (await readdir(out).catch(() => [])).filter((f) => f.endsWith('-matrix.json'));
  if (json === undefined) return undefined;
  return matrixReportSchema.parse(JSON.parse(await readFile(path.join(out, json), 'utf8')));
}
