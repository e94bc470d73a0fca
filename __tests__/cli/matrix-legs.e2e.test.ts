import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MatrixReport, matrixReportSchema } from '../../src/schemas/matrix.js';
import { type Routes, routeScript, type SimulatedModel } from '../../src/simulated/model.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * `matrix` inputs and legs through the CLI: bad inputs refused before any model call (exit 1,
 * naming the file), `--shard` legs measured through the real claude and `--merge`d into the matrix
 * they make together, and a leg that does not match refused naming it.
 */
const ROUTES: Routes = {
  'lg one: first': { one: 0.5, two: 0.5 },
  'lg one: second': { two: 0.9 },
  'lg one: third': { one: 1 },
  'lg two: first': { two: 0.7 },
  'lg two: second': { one: 0.6, two: 0.2 },
};

let world: CliWorld;
let work: string;
let model: SimulatedModel;
let claude: ClaudeEnv;

async function skill(root: string, name: string, frontmatter: string, evals?: string) {
  const dir = path.join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'SKILL.md'), `---\n${frontmatter}\n---\n\nBody.\n`);
  if (evals !== undefined) await writeFile(path.join(dir, 'evals.json'), evals);
}

const evalsOf = (prefix: string) =>
  JSON.stringify(
    Object.keys(ROUTES)
      .filter((q) => q.startsWith(prefix))
      .map((query, i) => ({ query, should_trigger: i !== 1 })),
  );

beforeAll(async () => {
  // The Ctrl-C test's queries: one that loads its skill, one that hangs until the run is stopped.
  const sigint = routeScript({ 'sg first': { sig: 1 } }, (req) =>
    req.query === 'sg hang' ? { kind: 'hang' } : undefined,
  );
  world = await startCliWorld({
    name: 'matrix-legs',
    model: { seed: 3, script: routeScript(ROUTES, sigint) },
  });
  ({ work, model, claude } = world);
  const good = path.join(work, 'good');
  await skill(good, 'one', 'name: one\ndescription: Do the first kind of thing', evalsOf('lg one:'));
  await skill(good, 'two', 'name: two\ndescription: Do the second kind of thing', evalsOf('lg two:'));
});

afterAll(async () => {
  await world?.close();
});

const matrix = (args: string[]) => runCli(['matrix', ...args, '--claude', CLAUDE_BIN], { env: claude.env });

describe('matrix refuses bad input before anything is spent', () => {
  it.each([
    ['a SKILL.md without a description', 'broken', 'name: broken', /broken[/\\]SKILL\.md.*description/],
    ['two skills of one name', 'twin', 'name: one\ndescription: Another one', /a second skill named "one"/],
  ])('%s: exit 1 naming the file', async (_what, folder, frontmatter, message) => {
    const root = path.join(work, `bad-${folder}`);
    await skill(root, 'one', 'name: one\ndescription: Do the first kind of thing', evalsOf('lg one:'));
    await skill(root, folder, frontmatter);
    const before = model.requests.length;
    const r = await matrix(['--skills', root, '--out', path.join(work, `out-${folder}`)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/Fix: /);
    expect(model.requests.length).toBe(before);
  });

  it('an eval set that does not parse names that file; no eval set anywhere says what to add', async () => {
    const root = path.join(work, 'bad-evals');
    await skill(root, 'one', 'name: one\ndescription: Do the first kind of thing', '[{"query": 1}]');
    const r = await matrix(['--skills', root]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/one[/\\]evals\.json/);
    const none = path.join(work, 'no-evals');
    await skill(none, 'one', 'name: one\ndescription: Do the first kind of thing');
    const n = await matrix(['--skills', none]);
    expect(n.code).toBe(1);
    expect(n.stderr).toMatch(/none of its 1 skills has an eval set.*Fix: add evals\/evals\.json/);
  });
});

describe('matrix --shard and --merge (real claude)', () => {
  it('two legs merge into one matrix of every query; a leg that differs is refused naming it', async () => {
    const legs: string[] = [];
    const reports: MatrixReport[] = [];
    // One run a query: the legs' split, names and merge are under test, not a rate.
    for (const leg of ['1/2', '2/2']) {
      const out = path.join(work, `leg-${leg.replace('/', '-of-')}`);
      const r = await matrix([
        '--skills',
        path.join(work, 'good'),
        '--runs',
        '1',
        '--shard',
        leg,
        '--standby',
        '1',
        '--out',
        out,
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      // --json: stdout is the report alone, the same as the file.
      const printed = matrixReportSchema.parse(JSON.parse(r.stdout));
      // A leg's file is named after its shard, so legs gathered into one folder keep apart.
      const jsons = (await readdir(out)).filter((f) => f.endsWith('.json'));
      expect(jsons).toEqual([
        expect.stringMatching(
          new RegExp(`^\\d{4}-\\d{2}-\\d{2}-matrix-shard-${leg.replace('/', '-of-')}\\.json$`),
        ),
      ]);
      const [file] = jsons;
      const written = matrixReportSchema.parse(
        JSON.parse(await readFile(path.join(out, file ?? ''), 'utf8')),
      );
      expect(written).toEqual(printed);
      legs.push(path.join(out, file ?? ''));
      reports.push(written);
    }
    // Leg 1 holds queries 1, 3, 5 of the five; leg 2 queries 2 and 4; both installed both skills.
    expect(reports.map((r) => r.queries.map((q) => q.query))).toEqual([
      ['lg one: first', 'lg one: third', 'lg two: second'],
      ['lg one: second', 'lg two: first'],
    ]);
    expect(reports.every((r) => r.skills.map((s) => s.name).join() === 'one,two')).toBe(true);
    expect(reports.map((r) => r.settings.launch)).toEqual(['standby', 'standby']);

    const out = path.join(work, 'merged');
    const m = await matrix(['--merge', ...legs, '--out', out]);
    expect(m.code, m.stderr).toBe(0);
    const [file] = (await readdir(out)).filter((f) => f.endsWith('-matrix.json'));
    const merged = matrixReportSchema.parse(JSON.parse(await readFile(path.join(out, file ?? ''), 'utf8')));
    expect(merged.queries.map((q) => q.query)).toEqual(Object.keys(ROUTES));
    expect(merged.mergedLegs).toBe(2);
    expect(merged.settings.launch).toBe('standby');
    expect(merged.totals.executed).toBe(5);
    for (const q of merged.queries) {
      const from = reports.flatMap((r) => r.queries).find((x) => x.query === q.query);
      expect(q).toEqual(from);
    }
    const cell = (owner: string, skill: string) =>
      merged.queries
        .filter((q) => q.owner === owner && q.shouldTrigger)
        .reduce((n, q) => n + (q.loaded[skill] ?? 0), 0);
    expect(merged.rows.find((r) => r.owner === 'one' && r.label === 'positive')?.cells).toEqual({
      one: cell('one', 'one'),
      two: cell('one', 'two'),
    });

    // A leg measured with another CLI cannot be added: exit 1 naming it and the difference.
    const tampered = path.join(work, 'tampered.json');
    const other = { ...reports[1], cli: { version: '9.9.9' } };
    await writeFile(tampered, JSON.stringify(other));
    const t = await matrix(['--merge', legs[0] ?? '', tampered, '--out', path.join(work, 'merged-bad')]);
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(
      /tampered\.json: was measured with Claude CLI 9\.9\.9, .*leg-1-of-2.* with 2\.1\.328/,
    );

    // Leg 2 measured again with cold starts records it, and cannot be added to a leg of standbys.
    const coldOut = path.join(work, 'leg-2-cold');
    const c = await matrix([
      '--skills',
      path.join(work, 'good'),
      '--runs',
      '1',
      '--shard',
      '2/2',
      '--standby',
      '0',
      '--out',
      coldOut,
    ]);
    expect(c.code, c.stderr).toBe(0);
    const [coldFile] = (await readdir(coldOut)).filter((f) => f.endsWith('.json'));
    const coldLeg = path.join(coldOut, coldFile ?? '');
    expect(matrixReportSchema.parse(JSON.parse(await readFile(coldLeg, 'utf8'))).settings.launch).toBe(
      'cold',
    );
    const mixed = await matrix(['--merge', legs[0] ?? '', coldLeg, '--out', path.join(work, 'merged-mixed')]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toMatch(
      /leg-2-cold.*: ran its prompts cold \(launch cold, --standby 0 or a version 1 report\), .*leg-1-of-2.* through warm standbys/,
    );
  }, 600_000);
});

describe('matrix and Ctrl-C (real claude)', () => {
  it('SIGINT mid-matrix kills claude, removes the temp project, writes a no-verdict matrix and exits 3', async () => {
    const root = path.join(work, 'sigint');
    const evals = JSON.stringify([
      { query: 'sg first', should_trigger: true },
      { query: 'sg hang', should_trigger: false },
    ]);
    await skill(root, 'sig', 'name: sig\ndescription: Do the signal kind of thing', evals);
    await skill(root, 'other', 'name: other\ndescription: Do another kind of thing');
    const tmp = path.join(work, 'tmp-sigint');
    await mkdir(tmp);
    const out = path.join(work, 'out-sigint');
    const projectsLeft = async () => (await readdir(tmp)).filter((n) => n.startsWith('skilltrigger-'));
    let sent = false;
    const r = await runCli(
      ['matrix', '--skills', root, '--out', out, '--claude', CLAUDE_BIN, '--timeout', '60', '--runs', '1'],
      {
        env: { ...claude.env, TMPDIR: tmp },
        onStart: (child, stderr) => {
          const timer = setInterval(async () => {
            // Once the first run is done and the hanging one has its temp project, interrupt.
            if (
              !sent &&
              stderr().includes('query 1/2') &&
              (await projectsLeft().catch(() => [])).length > 0
            ) {
              sent = true;
              clearInterval(timer);
              setTimeout(() => child.kill('SIGINT'), 1500);
            }
          }, 100);
          child.on('close', () => clearInterval(timer));
        },
      },
    );
    expect(sent).toBe(true);
    expect(r.code, r.stderr).toBe(3);
    const [file] = (await readdir(out)).filter((f) => f.endsWith('-matrix.json'));
    const report = matrixReportSchema.parse(JSON.parse(await readFile(path.join(out, file ?? ''), 'utf8')));
    expect(report.interrupted).toBe(true);
    expect(report.verdict).toBe('no-verdict');
    expect(report.noVerdictReasons[0]).toMatch(/interrupted/);
    expect(report.queries.map((q) => q.runs)).toEqual([[{ to: 'skill', skill: 'sig' }], []]);
    expect(r.stdout).toMatch(/NO VERDICT/);
    expect(await projectsLeft()).toEqual([]);
    const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(ps.split('\n').some((line) => line.includes(CLAUDE_BIN) && line.includes('sg hang'))).toBe(false);
  }, 300_000);
});
