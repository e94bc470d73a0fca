import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultsFileSchema } from '../../src/action/results/results-file.js';
import { type MatrixReport, matrixReportSchema, NONE_OTHER } from '../../src/schemas/matrix.js';
import type { RecordedRequest } from '../../src/simulated/model.js';
import { stubSkillName } from '../../src/simulated/request.js';
import { type Routes, routeScript } from '../../src/simulated/route.js';
import { type ActionWorld, actionLog as log, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type ActionResult, evalsJson, pullRequestPayload, runAction, skillFile } from './harness.js';

/**
 * `routing-matrix: true` over a workflow matrix, through the bundled Action: a PR that
 * rewords alpha, in a repository of three skills (alpha and beta with eval sets, gamma a
 * competitor only), measured by two legs (`shard: 1/2`, `2/2`). Leg 1 measures alpha (with its
 * siblings, listed by the probe) and its slice of the matrix; leg 2 has no changed skill but still
 * measures its slice. The merge job joins the slices: its summary's matrix cells are what the
 * simulated model decided, run by run. A leg measured with another timeout is refused by the merge
 * (exit 1, nothing posted). Real git, the real `claude`, the loopback GitHub and cache fakes.
 */

const TOKEN = 'ghs_routing_matrix_token';
const file = (name: string) => `.claude/skills/${name}/SKILL.md`;

/** Seeded splits, so the cells are not a fixed diagonal; the rest of each route is a plain answer. */
const ROUTES: Routes = {
  'alpha-pos 1: draft the alpha notes': { alpha: 0.5, beta: 0.5 },
  'alpha-pos 2: alpha notes for the release': { alpha: 0.3, gamma: 0.7 },
  'alpha-neg 1: what is the capital of France': { beta: 0.5 },
  'alpha-neg 2: format this JSON file': {},
  'beta-pos 1: write the beta changelog': { beta: 0.8, alpha: 0.2 },
  'beta-pos 2: beta changelog from the merged PRs': { gamma: 0.6, beta: 0.4 },
  'beta-neg 1: sort these numbers': { alpha: 0.5 },
  'beta-neg 2: what time is it in Tokyo': {},
};
const QUERIES = Object.keys(ROUTES);
const RUNS = 2;

let world: ActionWorld;
let base: string;
let head: string;

function evalsOf(owner: string): string {
  return evalsJson(
    QUERIES.filter((q) => q.startsWith(`${owner}-`)).map((query) => ({
      query,
      should_trigger: query.includes('-pos '),
    })),
  );
}

const payload = () =>
  pullRequestPayload({ number: 12, baseSha: base, headSha: head, headRef: 'reword-alpha' });
const env = () => world.env({ GITHUB_SHA: head, GITHUB_REF: 'refs/pull/12/merge' });

/** One leg on its own runner; its results folder copied as download-artifact keeps it (one folder per artifact). */
async function leg(
  shard: string,
  into: string,
  extra: Record<string, string> = {},
): Promise<{ result: ActionResult; requests: RecordedRequest[] }> {
  await world.freshJob();
  const before = world.model.requests.length;
  const result = await runAction({
    cwd: world.repo.dir,
    eventName: 'pull_request',
    payload: payload(),
    inputs: {
      'anthropic-api-key': 'sk-test',
      'github-token': TOKEN,
      'claude-path': CLAUDE_BIN,
      runs: String(RUNS),
      timeout: '30',
      baseline: 'none',
      'routing-matrix': 'true',
      shard,
      ...extra,
    },
    env: env(),
  });
  await cp(path.join(world.repo.dir, 'skilltrigger-results'), into, { recursive: true });
  return { result, requests: world.model.requests.slice(before) };
}

/** With SKILLTRIGGER_ACTION_DUMP set, a run's log and summary are kept there for a reader. */
async function dump(name: string, result: ActionResult): Promise<void> {
  const dir = process.env.SKILLTRIGGER_ACTION_DUMP;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `routing-matrix-${name}.log`), log(result));
}

async function merge(dir: string): Promise<ActionResult> {
  return runAction({
    cwd: world.work,
    eventName: 'pull_request',
    payload: payload(),
    inputs: { mode: 'merge', 'results-dir': dir, 'github-token': TOKEN },
    env: env(),
  });
}

/** Where each run the model answered went: the skill its Skill call named, else none/other. */
function destination(request: RecordedRequest): string {
  const b = request.behaviour;
  return b?.kind === 'skill' && b.name !== undefined ? stubSkillName(b.name) : NONE_OTHER;
}

/** The first turns of the matrix's queries, in the order the model answered them. */
function firstTurns(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.turn === 1 && QUERIES.includes(r.view?.query ?? ''));
}

/** The one matrix report in `dir`: a leg's is named after its shard (`-matrix-shard-1-of-2.json`), a merged one `-matrix.json`. */
async function matrixFile(dir: string, leg?: string): Promise<MatrixReport> {
  const suffix = leg === undefined ? '-matrix.json' : `-matrix-shard-${leg.replace('/', '-of-')}.json`;
  const names = (await readdir(dir)).filter((f) => /-matrix[-.]/.test(f) && f.endsWith('.json'));
  expect(names).toEqual([
    expect.stringMatching(new RegExp(`^\\d{4}-\\d{2}-\\d{2}${suffix.replace(/\./g, '\\.')}$`)),
  ]);
  return matrixReportSchema.parse(JSON.parse(await readFile(path.join(dir, names[0] ?? ''), 'utf8')));
}

/** The `reports` output, one path per line. */
const reportsOutput = (result: ActionResult) =>
  (result.outputs.reports ?? '').split('\n').filter((l) => l !== '');

beforeAll(async () => {
  world = await startActionWorld({
    name: 'routing-matrix-e2e',
    seed: 23,
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: routeScript(ROUTES),
  });
  base = await world.repo.commit('Add three skills', {
    'README.md': '# skills\n',
    [file('alpha')]: skillFile('alpha', 'Draft alpha release notes. Use when asked for alpha notes.'),
    '.claude/skills/alpha/evals.json': evalsOf('alpha'),
    [file('beta')]: skillFile('beta', 'Write beta changelog entries. Use when asked for a beta changelog.'),
    '.claude/skills/beta/evals.json': evalsOf('beta'),
    [file('gamma')]: skillFile('gamma', 'Summarise gamma release history. Use for gamma history.'),
  });
  world.repo.git('checkout', '-q', '-b', 'reword-alpha');
  head = await world.repo.commit('Reword alpha', {
    [file('alpha')]: skillFile('alpha', 'Draft the alpha release notes from the changelog.'),
  });
});

afterAll(async () => {
  await world?.close();
});

describe('routing-matrix: true, sharded over a workflow matrix, then mode: merge', () => {
  it('two legs measure their slices; the merge shows the whole matrix as the model decided it; a leg that disagrees is refused', {
    timeout: 900_000,
  }, async () => {
    const downloaded = path.join(world.work, 'downloaded');
    const legs: { result: ActionResult; requests: RecordedRequest[]; report: MatrixReport }[] = [];
    for (const shard of ['1/2', '2/2']) {
      const into = path.join(downloaded, `leg-${shard.replace('/', '-of-')}`);
      const { result, requests } = await leg(shard, into);
      expect(result.code, log(result)).toBe(0);
      // The reports output: the leg's skills' reports (alpha, in leg 1), then its matrix report, last.
      const listed = reportsOutput(result);
      const matrixPath = listed.at(-1) ?? '';
      expect(path.basename(matrixPath)).toMatch(
        new RegExp(`-matrix-shard-${shard.replace('/', '-of-')}\\.json$`),
      );
      const listedMatrix = matrixReportSchema.parse(JSON.parse(await readFile(matrixPath, 'utf8')));
      expect(listedMatrix.shard).toEqual({ index: Number(shard[0]), count: 2 });
      expect(listed.slice(0, -1).map((p) => path.basename(p))).toEqual(
        shard === '1/2' ? [expect.stringMatching(/-alpha\.json$/)] : [],
      );
      for (const p of listed.slice(0, -1)) expect(JSON.parse(await readFile(p, 'utf8')).skill).toBe('alpha');
      // The leg's matrix rides in its results file, and its own report is beside it.
      const resultsName = `skilltrigger-results.shard-${shard.replace('/', '-of-')}.json`;
      const stored = resultsFileSchema.parse(
        JSON.parse(await readFile(path.join(into, resultsName), 'utf8')),
      );
      expect(stored.run.matrix?.kind).toBe('measured');
      const report = await matrixFile(into, shard);
      expect(listedMatrix).toEqual(report);
      if (stored.run.matrix?.kind === 'measured') expect(stored.run.matrix.report).toEqual(report);
      expect(report.shard).toEqual({ index: Number(shard[0]), count: 2 });
      expect(report.skills.map((s) => [s.name, s.evalSet === null])).toEqual([
        ['alpha', false],
        ['beta', false],
        ['gamma', true],
      ]);
      // Every skill listed by Claude Code itself (the probe), for the matrix and for alpha's siblings.
      expect(result.stdout).toContain(
        'listing: the routing matrix: all 3 read from Claude Code (the listing probe)',
      );
      expect(result.summary).toContain(`This is leg ${shard} of the routing matrix`);
      expect(world.github.comments(12)).toHaveLength(0);
      legs.push({ result, requests, report });
    }
    // Alpha, the changed skill, falls to leg 1; leg 2 has no skill of its own but measures its slice.
    expect(legs[0]?.result.stdout).toContain('::group::Measure alpha');
    expect(legs[0]?.result.stdout).toContain(
      'listing: the siblings of alpha: all 2 read from Claude Code (the listing probe)',
    );
    expect(legs[1]?.result.stdout).not.toContain('::group::Measure alpha');
    expect(legs[1]?.result.summary).toContain(
      'Shard 2/2: no skill to measure falls to this shard, so it measured only its slice of the routing matrix',
    );
    // Leg i holds every 2nd query from the i-th (skills by name, each set in its order).
    expect(legs.map((l) => l.report.queries.map((q) => q.query))).toEqual([
      QUERIES.filter((_, k) => k % 2 === 0),
      QUERIES.filter((_, k) => k % 2 === 1),
    ]);

    // Run by run, each leg's matrix recorded what the model did: its last runs are the matrix's
    // (after alpha's own in leg 1), round-robin over the leg's queries.
    const decided = new Map<string, string[]>();
    for (const { requests, report } of legs) {
      const turns = firstTurns(requests).slice(-report.totals.executed);
      expect(turns).toHaveLength(report.queries.length * RUNS);
      for (const [k, turn] of turns.entries()) {
        const q = report.queries[k % report.queries.length];
        expect(turn.view?.query).toBe(q?.query);
        const went = destination(turn);
        const run = q?.runs[Math.floor(k / report.queries.length)];
        expect(run).toEqual(went === NONE_OTHER ? { to: 'none-other' } : { to: 'skill', skill: went });
        decided.set(turn.view?.query ?? '', [...(decided.get(turn.view?.query ?? '') ?? []), went]);
      }
    }

    // Downloaded with merge-multiple: true, the legs' artifacts land in one folder; each leg's
    // matrix report is named after its shard, so neither overwrites the other.
    const flat = path.join(world.work, 'merge-multiple');
    for (const shard of ['1-of-2', '2-of-2'])
      await cp(path.join(downloaded, `leg-${shard}`), flat, { recursive: true });
    const legFiles = (await readdir(flat)).filter((f) => /-matrix-shard-\d-of-2\.json$/.test(f)).sort();
    expect(legFiles.map((f) => f.replace(/^\d{4}-\d{2}-\d{2}/, ''))).toEqual([
      '-matrix-shard-1-of-2.json',
      '-matrix-shard-2-of-2.json',
    ]);
    for (const [k, f] of legFiles.entries())
      expect(matrixReportSchema.parse(JSON.parse(await readFile(path.join(flat, f), 'utf8')))).toEqual(
        legs[k]?.report,
      );

    const merged = await merge('downloaded');
    await dump('merged', merged);
    await dump('leg-1', legs[0]?.result as ActionResult);
    expect(merged.code, log(merged)).toBe(0);
    const whole = await matrixFile(path.join(world.work, 'skilltrigger-results'));
    expect(whole.mergedLegs).toBe(2);
    // The merge's reports output: alpha's report (in leg 1's download), then the merged matrix's.
    const mergedReports = reportsOutput(merged);
    expect(mergedReports).toHaveLength(2);
    expect(JSON.parse(await readFile(mergedReports[0] ?? '', 'utf8')).skill).toBe('alpha');
    expect(path.dirname(mergedReports[1] ?? '')).toBe(path.join(world.work, 'skilltrigger-results'));
    expect(matrixReportSchema.parse(JSON.parse(await readFile(mergedReports[1] ?? '', 'utf8')))).toEqual(
      whole,
    );
    expect(whole.queries.map((q) => q.query)).toEqual(QUERIES);

    // Every cell of the merged summary is the count of the model's decisions for that row.
    const names = ['alpha', 'beta', 'gamma'];
    const expectedRows: string[] = [];
    for (const owner of ['alpha', 'beta']) {
      for (const label of ['positive', 'negative'] as const) {
        const went = QUERIES.filter((q) =>
          q.startsWith(`${owner}-${label === 'positive' ? 'pos' : 'neg'}`),
        ).flatMap((q) => decided.get(q) ?? []);
        const count = (to: string) => went.filter((w) => w === to).length;
        const cells = names.map((n) =>
          n === owner && label === 'positive' ? `**${count(n)}**` : String(count(n)),
        );
        expectedRows.push(
          `| ${owner} | ${label} | ${went.length} | ${cells.join(' | ')} | ${count(NONE_OTHER)} |`,
        );
        expect(whole.rows.find((r) => r.owner === owner && r.label === label)).toMatchObject({
          runs: went.length,
          cells: Object.fromEntries(names.map((n) => [n, count(n)])),
          noneOther: count(NONE_OTHER),
        });
      }
    }
    for (const row of expectedRows) expect(merged.summary).toContain(row);
    expect(merged.summary).toContain('Merged from 2 legs of a workflow matrix.');

    // The stolen queries are the positives another skill took more often than their owner.
    const stolen = QUERIES.filter((q) => q.includes('-pos ')).filter((q) => {
      const went = decided.get(q) ?? [];
      const owner = q.split('-')[0] ?? '';
      const own = went.filter((w) => w === owner).length;
      return names.some((n) => n !== owner && went.filter((w) => w === n).length > own);
    });
    expect(whole.stolen.map((s) => s.query).sort()).toEqual([...stolen].sort());
    for (const q of stolen) expect(merged.summary).toContain(q);

    // The one comment: alpha's section, and the matrix rows of the changed skill (alpha).
    const posted = world.github.comments(12);
    expect(posted).toHaveLength(1);
    const body = posted[0]?.body ?? '';
    expect(body).toContain('### Routing matrix');
    expect(body).toContain('Rows of the changed skills (alpha)');
    expect(body).toContain(expectedRows[0]);
    expect(body).toContain(expectedRows[1]);
    expect(body).not.toContain(expectedRows[2]);

    // Leg 2 again with another timeout: its matrix cannot be added to leg 1's; nothing is posted.
    const bad = path.join(world.work, 'bad');
    await cp(path.join(downloaded, 'leg-1-of-2'), path.join(bad, 'leg-1-of-2'), { recursive: true });
    const again = await leg('2/2', path.join(bad, 'leg-2-of-2'), { timeout: '31' });
    expect(again.result.code, log(again.result)).toBe(0);
    const refused = await merge('bad');
    await dump('refused', refused);
    expect(refused.code, log(refused)).toBe(1);
    expect(refused.failure).toContain('cannot merge the shards');
    expect(refused.stdout).toContain("the routing matrix's legs cannot be merged");
    expect(refused.stdout).toMatch(
      /skilltrigger-results\.shard-2-of-2\.json: was measured with other settings/,
    );
    expect(world.github.comments(12)).toHaveLength(1);
    expect(world.github.comments(12)[0]?.body).toBe(body);
  });

  it('without shard: a broken eval set anywhere in the repository stops the matrix before any of its runs, not the changed skill', {
    timeout: 600_000,
  }, async () => {
    world.repo.git('checkout', '-q', base);
    world.repo.git('checkout', '-q', '-b', 'broken-gamma-evals');
    const broken = await world.repo.commit('Reword alpha; gamma gains an eval set that does not parse', {
      [file('alpha')]: skillFile('alpha', 'Draft alpha notes, from the changelog.'),
      '.claude/skills/gamma/evals.json': '[{"query": 1}]\n',
    });
    await world.freshJob();
    const before = world.model.requests.length;
    const result = await runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({
        number: 13,
        baseSha: base,
        headSha: broken,
        headRef: 'broken-gamma-evals',
      }),
      inputs: {
        'anthropic-api-key': 'sk-test',
        'github-token': TOKEN,
        'claude-path': CLAUDE_BIN,
        runs: '1',
        timeout: '30',
        baseline: 'none',
        'routing-matrix': 'true',
      },
      env: world.env({ GITHUB_SHA: broken, GITHUB_REF: 'refs/pull/13/merge' }),
    });
    await dump('broken', result);
    expect(result.code, log(result)).toBe(1);
    // The defect is annotated on its file, and the step's failure names it.
    expect(
      result.annotations.some(
        (a) => a.level === 'error' && a.properties.file === '.claude/skills/gamma/evals.json',
      ),
    ).toBe(true);
    expect(result.stdout).toContain("input error: 2 problems in the routing matrix's inputs");
    // alpha, the changed skill, was measured all the same (its 4 queries once each), and nothing more.
    const turns = firstTurns(world.model.requests.slice(before));
    expect(turns.map((t) => t.view?.query)).toEqual(QUERIES.filter((q) => q.startsWith('alpha-')));
    expect(result.stdout).not.toContain('::group::Measure the routing matrix');
    const body = world.github.comments(13)[0]?.body ?? '';
    expect(body).toMatch(/### \S+ alpha · /);
    expect(body).toContain('### Routing matrix');
    expect(body).toContain('Not measured: its inputs have problems');
    expect(body).toContain('.claude/skills/gamma/evals.json');
  });
});
