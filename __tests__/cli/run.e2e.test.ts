import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/schemas/report.js';
import { type Behaviour, probabilistic, type Script } from '../../src/simulated/model.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import { actWhen, byQueryPrefix, type CliWorld, runArgs, runCli, startCliWorld } from '../fakes/cli.js';
import { parseJunit } from '../fakes/junit-shape.js';

/**
 * `skilltrigger run` end to end: the CLI process, the real claude binary, the simulated model.
 * One model serves every test; each test's queries are its own, so scripts do not collide.
 */
const DESCRIPTION = 'Write HANDOFF.md summarising the session so a fresh session can resume the work';
const CANARY_KEY = 'sk-ant-canary-7f3c9e1d2b4a6058';

let world: CliWorld;
let work: string;
let skillDir: string;
let claude: ClaudeEnv;
const scripts = new Map<string, Script>();

beforeAll(async () => {
  world = await startCliWorld({
    name: 'cli-e2e',
    model: { seed: 11, script: byQueryPrefix(scripts) },
    env: { ANTHROPIC_API_KEY: CANARY_KEY },
  });
  ({ work, claude } = world);
  skillDir = path.dirname(
    await world.write('handoff/SKILL.md', `---\nname: handoff\ndescription: ${DESCRIPTION}\n---\n\nBody.\n`),
  );
});

afterAll(async () => {
  await world?.close();
});

const evalFile = (name: string, items: Array<{ query: string; should_trigger: boolean; note?: string }>) =>
  world.write(`${name}.json`, JSON.stringify(items));

/** Temp projects left in a TMPDIR (claude itself keeps `cc-socks/` and `claude-<uid>/` there). */
async function projectsLeft(tmp: string): Promise<string[]> {
  return (await readdir(tmp)).filter((name) => name.startsWith('skilltrigger-'));
}

async function readReports(out: string) {
  const files = (await readdir(out)).sort();
  const json = files.filter((f) => f.endsWith('.json'));
  expect(json.length).toBe(1);
  const text = await readFile(path.join(out, json[0] ?? ''), 'utf8');
  const markdown = await readFile(path.join(out, (json[0] ?? '').replace(/\.json$/, '.md')), 'utf8');
  return { text, markdown, report: reportSchema.parse(JSON.parse(text)) };
}

/** Binomial(n, p) central interval holding at least 99% of the mass. */
function binomialInterval(n: number, p: number, mass = 0.99): [number, number] {
  const pmf: number[] = [];
  let logC = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logC += Math.log(n - k + 1) - Math.log(k);
    pmf.push(Math.exp(logC + k * Math.log(p) + (n - k) * Math.log(1 - p)));
  }
  const tail = (1 - mass) / 2;
  let lo = 0;
  let acc = 0;
  while (acc + (pmf[lo] ?? 0) <= tail) acc += pmf[lo++] ?? 0;
  let hi = n;
  acc = 0;
  while (acc + (pmf[hi] ?? 0) <= tail) acc += pmf[hi--] ?? 0;
  return [lo, hi];
}

function noClaudeLeft(): boolean {
  const out = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return !out.split('\n').some((line) => line.includes(CLAUDE_BIN) && line.includes('sigint-'));
}

describe('skilltrigger run', () => {
  it('measures rates that match the simulated truth (binomial 99% interval), with a private report', async () => {
    const items = [
      ...Array.from({ length: 10 }, (_, i) => ({
        query: `acc-pos ${i}: write the handoff notes`,
        should_trigger: true,
      })),
      ...Array.from({ length: 10 }, (_, i) => ({
        query: `acc-neg ${i}: unrelated chore`,
        should_trigger: false,
      })),
    ];
    const truth = Object.fromEntries(items.map((i) => [i.query, i.should_trigger ? 0.9 : 0.1]));
    scripts.set('acc-', probabilistic(truth, { kind: 'skill' }, { kind: 'text' }));
    const file = await evalFile('accuracy', items);
    const out = path.join(work, 'out-accuracy');
    const { env, tmp } = await world.tmpEnv('accuracy');
    const junit = path.join(work, 'junit-accuracy', 'results.xml');
    const r = await runCli(runArgs(skillDir, file, out, '--runs', '3', '--junit', junit), { env });
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.code).toBe(0);
    const { text, markdown, report } = await readReports(out);
    // check's weak-set warning (no holdout) comes before the first run is spent.
    const warning = r.stderr.indexOf(`warning: ${file}: no prompt is held out`);
    expect(warning).toBeGreaterThanOrEqual(0);
    expect(warning).toBeLessThan(r.stderr.indexOf('query 1/20 · run 1/3'));
    expect(r.stderr).toContain('[no-holdout]');
    // The headline gives the pass count.
    const { passed } = report.candidate.totals;
    expect(r.stdout).toMatch(new RegExp(`counted apart · ${passed}/20 queries pass\n`));
    // The JUnit file from this real run reads as JUnit, one testcase per query, agreeing with the report.
    expect(r.stdout).toContain(`junit:  ${junit}\n`);
    const doc = parseJunit(await readFile(junit, 'utf8'));
    expect(doc.suites).toHaveLength(1);
    expect(doc.tests).toBe(20);
    expect(doc.failures).toBe(report.candidate.totals.failed);
    expect(doc.errors).toBe(0);
    for (const [i, q] of report.candidate.queries.entries()) {
      const c = doc.suites[0]?.cases[i];
      expect(c?.name).toBe(`${q.id}: ${q.query}`);
      expect(c?.failure === undefined).toBe(q.pass === true);
      if (c?.failure) expect(c.failure.message).toContain(`triggered ${q.hits}/${q.runs} runs`);
    }
    const { positives, negatives } = report.candidate.totals;
    const [plo, phi] = binomialInterval(30, 0.9);
    const [nlo, nhi] = binomialInterval(30, 0.1);
    console.log(
      `accuracy: positives ${positives.triggered}/30 (99% interval ${plo}–${phi}), negatives ${negatives.fired}/30 (${nlo}–${nhi})`,
    );
    expect(positives.runs).toBe(30);
    expect(negatives.runs).toBe(30);
    expect(positives.triggered).toBeGreaterThanOrEqual(plo);
    expect(positives.triggered).toBeLessThanOrEqual(phi);
    expect(negatives.fired).toBeGreaterThanOrEqual(nlo);
    expect(negatives.fired).toBeLessThanOrEqual(nhi);
    expect(r.stdout).toContain(
      `positives triggered ${positives.triggered}/30 · negatives fired ${negatives.fired}/30 · 0 timeouts, 0 errors counted apart`,
    );
    // Progress: one line per run on stderr.
    expect(r.stderr).toMatch(/query 20\/20 · run 3\/3 · (triggered|not-triggered) · \d+\.\d s/);
    // Privacy: no description text, no path, no stub name, no key — in the report, the Markdown or the output.
    for (const blob of [text, markdown, r.stdout, r.stderr]) {
      expect(blob).not.toContain(DESCRIPTION);
      expect(blob).not.toContain('HANDOFF.md summarising');
      expect(blob).not.toContain(CANARY_KEY);
      expect(blob).not.toMatch(/-stub-[0-9a-f]{8}/);
    }
    for (const blob of [text, markdown]) {
      expect(blob).not.toContain(work);
      expect(blob).not.toContain(tmpdir());
      expect(blob).not.toContain(claude.home);
    }
    expect(report.candidate.description.bytes).toBe(Buffer.byteLength(DESCRIPTION));
    expect(report.$schema).toBe(
      `https://unpkg.com/skilltrigger@${report.tool.version}/schema/report.schema.json`,
    );
    expect(await projectsLeft(tmp)).toEqual([]);
  }, 600_000);

  it("without --eval measures the skill's own evals/evals.json, says so, and ends with the failing ids and what next", async () => {
    const own = path.dirname(
      await world.write('own/SKILL.md', `---\nname: handoff\ndescription: ${DESCRIPTION}\n---\n\nBody.\n`),
    );
    const items = [
      { id: 'p1', query: 'own-pos: write the handoff notes', should_trigger: true },
      { id: 'n1', query: 'own-neg: rename this variable', should_trigger: false },
    ];
    const file = await world.write('own/evals/evals.json', JSON.stringify(items));
    // Both fail: the positive never loads the stub, the negative always does.
    scripts.set('own-pos', () => ({ kind: 'text' }));
    scripts.set('own-neg', () => ({ kind: 'skill' }));
    const out = path.join(work, 'out-own');
    const { env } = await world.tmpEnv('own');
    const r = await runCli(['run', '--skill', own, '--out', out, '--claude', CLAUDE_BIN, '--runs', '1'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `eval set: ${file} (found in the skill's folder; --eval <file> measures another)\n`,
    );
    const { report } = await readReports(out);
    expect(report.candidate.queries.map((q) => q.id)).toEqual(['p1', 'n1']);
    const tail = r.stdout.slice(r.stdout.indexOf('failing:'));
    const json = (await readdir(out)).find((f) => f.endsWith('.json')) ?? '';
    expect(tail).toBe(
      'failing: positives p1 (1 of 1) · negatives n1 (1 of 1)\n' +
        `next: skilltrigger view ${path.join(out, json)} --open   # the HTML page: every query, its runs and interval\n` +
        `      skilltrigger improve --skill ${own} --eval ${file}   # a rewrite from the failing train queries, kept only if it measures better\n`,
    );
  });

  it('stops early with no verdict (exit 3) when more than 10% of runs are lost, and still writes the report', async () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ query: `share-q${i}`, should_trigger: i < 5 }));
    const error: Behaviour = { kind: 'api-error', status: 500, noRetry: true };
    scripts.set('share-', (req) =>
      ['share-q0', 'share-q1', 'share-q2'].includes(req.query) ? error : { kind: 'text' },
    );
    const file = await evalFile('share', items);
    const out = path.join(work, 'out-share');
    const { env, tmp } = await world.tmpEnv('share');
    const r = await runCli(runArgs(skillDir, file, out, '--max-retries', '0'), { env });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/NO VERDICT — this is not a measurement: 3 of 20 planned runs were lost/);
    const { report, markdown } = await readReports(out);
    expect(report.verdict).toBe('no-verdict');
    expect(report.candidate.aborted).toBe(true);
    expect(report.candidate.totals.executed).toBe(3); // stopped at the third loss: 10% of 20 is 2
    expect(report.candidate.totals.errorCauses).toEqual({ 'api:500': 3 });
    expect(markdown.split('\n').slice(0, 6).join('\n')).toMatch(/not a measurement/i);
    expect(await projectsLeft(tmp)).toEqual([]);
  }, 300_000);

  it('names a query that lost every run, even under the 10% share, and exits 3', async () => {
    const items = Array.from({ length: 10 }, (_, i) => ({
      query: `lost-q${i}`,
      should_trigger: i % 2 === 0,
    }));
    scripts.set('lost-', (req) =>
      req.query === 'lost-q0' ? { kind: 'api-error', status: 529, noRetry: true } : { kind: 'text' },
    );
    const file = await evalFile('lost', items);
    const out = path.join(work, 'out-lost');
    const { env } = await world.tmpEnv('lost');
    const r = await runCli(runArgs(skillDir, file, out, '--max-retries', '0'), { env });
    expect(r.code).toBe(3);
    const { report } = await readReports(out);
    expect(report.candidate.lostQueries).toEqual(['q1']);
    expect(report.candidate.totals.errors).toBe(2); // 10% of 20: within the share
    expect(report.candidate.noVerdictReasons.join(' ')).toMatch(/1 query lost every run/);
    // Stopped once q1's second run was lost: the whole first pass, then q1 again.
    expect(report.candidate.totals.executed).toBe(11);
  }, 300_000);

  it('SIGINT mid-run kills claude, removes the temp project, writes a no-verdict report and exits 3', async () => {
    const items = [
      { query: 'sigint-pos', should_trigger: true },
      { query: 'sigint-neg', should_trigger: false },
    ];
    scripts.set('sigint-', (req) => (req.query === 'sigint-pos' ? { kind: 'skill' } : { kind: 'hang' }));
    const file = await evalFile('sigint', items);
    const out = path.join(work, 'out-sigint');
    const { env, tmp } = await world.tmpEnv('sigint');
    // Once the first run is done and the second (hanging) one has its temp project, interrupt.
    const sent = actWhen(
      async (stderr) => stderr.includes('query 1/2') && (await projectsLeft(tmp).catch(() => [])).length > 0,
      (child) => setTimeout(() => child.kill('SIGINT'), 1500),
    );
    const r = await runCli(runArgs(skillDir, file, out, '--timeout', '60'), { env, onStart: sent.onStart });
    expect(sent.done()).toBe(true);
    expect(r.code).toBe(3);
    const { report } = await readReports(out);
    expect(report.candidate.interrupted).toBe(true);
    expect(report.candidate.noVerdictReasons[0]).toMatch(/interrupted/);
    expect(report.candidate.queries[0]?.outcomes).toEqual(['triggered']);
    expect(await projectsLeft(tmp)).toEqual([]);
    expect(noClaudeLeft()).toBe(true);
  }, 300_000);

  it('refuses --workers as an unknown option', async () => {
    const r = await runCli(['run', '--skill', skillDir, '--eval', 'x.json', '--workers', '4'], {
      env: claude.env,
    });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(
      'skilltrigger: unknown option --workers: skilltrigger runs strictly one claude at a time. Parallel workers each install a stub with the same description, the model loads whichever it likes, and each worker counts only its own: ten workers measure about a tenth of the true rate. A detected run ends in seconds; to spend fewer runs, use --runs auto',
    );
  });
});
