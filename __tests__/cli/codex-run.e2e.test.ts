import type { ChildProcess } from 'node:child_process';
import { mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/schemas/privacy.js';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { GATE_QUERY, type Routes, routeScript, type Script } from '../../src/simulated/model.js';
import { type CliWorld, CODEX_BIN, runCli, startCliWorld } from '../fakes/cli.js';
import { expectOneAtATime } from '../fakes/one-at-a-time.js';
import { liveProcessesIn, processesIn, projectUnder } from '../fakes/process-group.js';
import { killPids } from '../faults/support.js';

/**
 * `run --agent codex` with what it used to refuse: `--siblings` installed as Codex lists them,
 * `--max-cost-usd` stopping a Codex measurement, and a SKILL.md Codex leaves out refused. Through
 * the real `codex` against the simulated model's Responses API; one world for the file.
 * Then the first run's Codex started before the gates, waiting through them for its prompt.
 * Codex runs (`codex exec` with a model call): 3 measured + 1 round-trip gate (siblings), 1 gate
 * (the unpriced refusal), 1 gate (the dry run), 2 measured + 1 gate (the budget), 2 measured +
 * 1 gate (the early start served), 1 gate (failed), 1 gate (interrupted): 15; the unlisted
 * skill runs nothing.
 */

// The tested skill, two siblings Codex lists, and one it leaves out (a byte-order mark before the
// frontmatter; Claude Code would list it).
const FILES: Record<string, string> = {
  'skills/handoff/SKILL.md':
    '---\nname: handoff\ndescription: Write HANDOFF.md summarising the session\n---\n\nBody.\n',
  'skills/xlsx/SKILL.md': `---\nname: xlsx\ndescription: |\n  Edit spreadsheets\n  and workbooks\n---\n\nBody.\n`,
  'skills/office/pdf/SKILL.md':
    '---\nname: pdf\ndescription: "Fill PDF forms: tax, visa, leases"\n---\n\nBody.\n',
  'skills/notes/SKILL.md': '\uFEFF---\nname: notes\ndescription: Keep meeting notes\n---\n\nBody.\n',
};
// Long budget queries make a measured run dearer than the round trip the estimate starts from.
const PAD = 'the session notes '.repeat(200).trim();
// One choice per query, so each run's outcome is known: the stub, a sibling, another sibling;
// every other query is answered in text.
const ROUTES: Routes = {
  'sib: write the handoff note': { handoff: 1 },
  'sib: fix the formula in my workbook': { xlsx: 1 },
  'sib: fill this tax form': { pdf: 1 },
  [`budget a: ${PAD}`]: { handoff: 1 },
  'early: write the handoff note': { handoff: 1 },
};

let world: CliWorld;
let skillsDir: string;

/**
 * The early start's watch (the last describe): at the round trip's request, the temp projects under
 * the call's TMPDIR, other than the gate's own, where a live Codex reads its prompt from stdin (the
 * query `-`; the roster probe beside the round trip has its query on argv); the gate then answers,
 * fails, or is interrupted.
 */
const gateWatch = {
  tmp: '',
  mode: 'serve' as 'serve' | 'fail' | 'interrupt',
  cli: undefined as ChildProcess | undefined,
  waiting: [] as string[],
};
const watchGate: Script = (req) => {
  if (req.query !== GATE_QUERY || gateWatch.tmp === '') return undefined;
  const gate = projectUnder(gateWatch.tmp, req.cwd);
  const onStdin = processesIn(gateWatch.tmp).filter((p) => p.argv.slice(-2).join(' ') === '-- -');
  gateWatch.waiting = [...new Set(onStdin.map((p) => projectUnder(gateWatch.tmp, p.cwd)))].filter(
    (p) => p !== undefined && p !== gate,
  ) as string[];
  if (gateWatch.mode === 'fail') return { kind: 'api-error', status: 401, noRetry: true };
  if (gateWatch.mode === 'interrupt') {
    gateWatch.cli?.kill('SIGINT');
    return { kind: 'hang' };
  }
  return undefined;
};

beforeAll(async () => {
  const routed = routeScript(ROUTES, () => ({ kind: 'text' }));
  world = await startCliWorld({
    name: 'codex-run-e2e',
    model: {
      script: (req, ctx) => watchGate(req, ctx) ?? routed(req, ctx),
      isStub: (e) => /^handoff-stub-[0-9a-f]{8}$/.test(e.name),
    },
  });
  for (const [file, text] of Object.entries(FILES)) await world.write(file, text);
  skillsDir = path.join(world.work, 'skills');
});

afterAll(async () => {
  // A leftover would already have failed its test; it must not outlive the file either.
  gateWatch.cli?.kill('SIGKILL');
  if (world) killPids(liveProcessesIn(world.work).map((row) => Number(row.split(' ')[0])));
  await world?.close();
});

const env = () => world.agentEnv('codex');

const codexRun = (args: string[]) =>
  runCli(['run', '--agent', 'codex', '--codex', CODEX_BIN, '--runs', '1', ...args], { env: env() });

async function readReport(out: string): Promise<Report> {
  const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
  return reportSchema.parse(JSON.parse(await readFile(path.join(out, json ?? ''), 'utf8')));
}

/** The Responses requests of measured runs (the gates' queries are their own). */
const measured = (from: number, prefix: string) =>
  world.model.requests
    .slice(from)
    .filter((r) => r.path.endsWith('/responses') && r.turn === 1 && r.view?.query.startsWith(prefix));

describe('run --agent codex --siblings', () => {
  it('installs the siblings Codex lists, as it lists them; a sibling read is recorded as that sibling', async () => {
    const evalFile = await world.write(
      'sib.json',
      JSON.stringify([
        { query: 'sib: write the handoff note', should_trigger: true },
        { query: 'sib: fix the formula in my workbook', should_trigger: false, owner: 'xlsx' },
        { query: 'sib: fill this tax form', should_trigger: true },
      ]),
    );
    const out = path.join(world.work, 'out-sib');
    const from = world.model.requests.length;
    const r = await codexRun([
      '--skill',
      path.join(skillsDir, 'handoff'),
      '--eval',
      evalFile,
      '--siblings',
      skillsDir,
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('siblings: notes is not listed by Codex (no frontmatter between --- lines)');
    // The early count is of what a Codex run installs, not of every SKILL.md found.
    expect(r.stderr).toContain(
      'siblings: 2 installed beside the stub in every run (pdf, xlsx); notes left out',
    );
    const report = await readReport(out);
    const [hit, formula, tax] = report.candidate.queries;
    expect(hit?.outcomes).toEqual(['triggered']);
    expect(formula?.outcomes).toEqual(['not-triggered']);
    expect(formula?.siblingHits).toEqual({ xlsx: 1 });
    expect(tax?.outcomes).toEqual(['not-triggered']);
    expect(tax?.siblingHits).toEqual({ pdf: 1 });
    // Codex's listing: each sibling beside the stub with the text Codex lists for it, notes absent.
    const requests = measured(from, 'sib: ');
    expect(requests).toHaveLength(3);
    for (const request of requests) {
      const listing = request.view?.listing ?? [];
      const byName = (name: string) => listing.find((e) => e.name.startsWith(`${name}-stub-`));
      expect(byName('xlsx')?.description).toBe('Edit spreadsheets and workbooks');
      expect(byName('pdf')?.description).toBe('Fill PDF forms: tax, visa, leases');
      expect(byName('handoff')?.description).toBe('Write HANDOFF.md summarising the session');
      expect(listing.some((e) => e.name.startsWith('notes'))).toBe(false);
    }
    expect(report.siblings?.members).toEqual([
      { name: 'pdf', sha256: sha256Hex('Fill PDF forms: tax, visa, leases') },
      { name: 'xlsx', sha256: sha256Hex('Edit spreadsheets and workbooks') },
    ]);
    // Codex's listing through its runtime's probe: the stub whole beside its siblings, and each
    // run's state read from its own rollout.
    const listing = report.candidate.listing?.codex;
    expect(listing?.stub.state).toBe('whole');
    expect(listing?.unit).toBe('bytes');
    expect(listing?.members.map((m) => m.state).filter((s) => s !== 'whole')).toEqual([]);
    expect(listing?.runs).toEqual({ whole: 3, cut: 0, bare: 0, fromRequest: 3 });
    expect(report.candidate.queries.map((q) => q.listing)).toEqual([['whole'], ['whole'], ['whole']]);
    // The positive read as pdf is lost to it; the negative xlsx owns went to its owner.
    expect(report.candidate.totals.siblings).toMatchObject({
      lostPositives: 1,
      positiveRuns: 2,
      lostTo: { pdf: 1 },
      ownedNegativeRuns: 1,
      toOwner: 1,
    });
  }, 240_000);
});

describe('run --agent codex with a SKILL.md Codex does not list', () => {
  it('is refused before anything runs (exit 1), naming the file, what Codex does and the fix', async () => {
    const evalFile = await world.write(
      'notes.json',
      JSON.stringify([
        { query: 'notes: take notes', should_trigger: true },
        { query: 'notes: rename a variable', should_trigger: false },
      ]),
    );
    const from = world.model.requests.length;
    const r = await codexRun(['--skill', path.join(skillsDir, 'notes'), '--eval', evalFile]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(path.join(skillsDir, 'notes', 'SKILL.md'));
    expect(r.stderr).toContain('Codex leaves this skill out of its listing');
    expect(r.stderr).toContain('no byte-order mark');
    expect(world.model.requests.length).toBe(from);
  });
});

describe('run --agent codex --max-cost-usd', () => {
  // The first query reads the stub: its run is killed at the decision and reports no tokens. The
  // others are answered in text and reach turn.completed with theirs.
  let prices: string;
  let evalFile: string;
  beforeAll(async () => {
    prices = path.join(world.work, 'prices.json');
    await writeFile(
      prices,
      JSON.stringify({
        source: 'test rates',
        asOf: '2026-12-01',
        models: { 'gpt-6.1-sol': { input: 1000, output: 0, cacheWrite: 1000, cacheRead: 0 } },
      }),
    );
    evalFile = await world.write(
      'budget.json',
      JSON.stringify([
        { query: `budget a: ${PAD}`, should_trigger: true },
        { query: `budget b: ${PAD}`, should_trigger: false },
        { query: `budget c: ${PAD}`, should_trigger: false },
      ]),
    );
  });
  const budgetArgs = () => ['--skill', path.join(skillsDir, 'handoff'), '--eval', evalFile];

  it("Codex's default model without a price is refused before any measured run, with --prices as the fix", async () => {
    const from = world.model.requests.length;
    const r = await codexRun([...budgetArgs(), '--max-cost-usd', '5']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"gpt-6.1-sol"');
    expect(r.stderr).toContain('--prices <file>');
    expect(measured(from, 'budget ')).toHaveLength(0);
  });

  it('stops a Codex measurement before a run that could pass it: exit 3, reason budget, the runs kept', async () => {
    const dry = await codexRun([...budgetArgs(), '--prices', prices, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const estimate = Number(/^estimate total: \$([\d.]+)/m.exec(dry.stdout)?.[1]);
    const perRun = Number(/^estimate codex:default: 3 runs, the first \$([\d.]+)/m.exec(dry.stdout)?.[1]);
    expect(perRun).toBeGreaterThan(0);
    expect(estimate).toBeCloseTo(3 * perRun, 1);
    const out = path.join(world.work, 'out-budget');
    const from = world.model.requests.length;
    // 1% over the dry run's estimate: Codex's round trip varies by a few tokens from one start to
    // the next, far less than a padded query adds to a run.
    const max = (estimate * 1.01).toFixed(2);
    const r = await codexRun([...budgetArgs(), '--prices', prices, '--max-cost-usd', max, '--out', out]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/^NO VERDICT .*budget: /m);
    const m = (await readReport(out)).candidate;
    expect(m.noVerdictReasons[0]).toMatch(/^budget: /);
    // The silent read counted as one round trip, the text run as its dearer tokens: a third run
    // could pass the budget, so two ran. (Counted as $0, the read would have let the third run.)
    expect(m.totals.executed).toBe(2);
    expect(m.queries[0]?.outcomes).toEqual(['triggered']);
    expect(m.queries[1]?.outcomes).toEqual(['not-triggered']);
    // Nothing measured is lost: every run Codex made is in the report, priced as the default model.
    expect(measured(from, 'budget ')).toHaveLength(2);
    expect(m.cost?.pricedRuns).toBe(2);
    expect(m.cost?.byModel['gpt-6.1-sol']).toBeGreaterThan(0);
    // The budget's spend is the report's cost (the text run) plus the read's estimate.
    expect(Math.abs((m.budgetStop?.spentUsd ?? 0) - (m.cost?.usd ?? 0) - perRun)).toBeLessThan(perRun * 0.01);
    expect((m.budgetStop?.spentUsd ?? 0) + (m.budgetStop?.nextEstimateUsd ?? 0)).toBeGreaterThan(Number(max));
  }, 240_000);
});

describe("run --agent codex: the first run's Codex, started before the gates", () => {
  let evalFile: string;
  beforeAll(async () => {
    evalFile = await world.write(
      'early.json',
      JSON.stringify([
        { query: 'early: write the handoff note', should_trigger: true },
        { query: 'early: what is the weather', should_trigger: false },
      ]),
    );
  });

  /** One `run` with its own TMPDIR, the gate scripted as `mode`; the measured and gate requests in arrival order. */
  async function earlyRun(name: string, mode: typeof gateWatch.mode) {
    const dir = path.join(world.work, `tmp-early-${name}`);
    await mkdir(dir);
    Object.assign(gateWatch, { tmp: await realpath(dir), mode, waiting: [] });
    const out = path.join(world.work, `out-early-${name}`);
    const from = world.model.requests.length;
    try {
      const result = await runCli(
        [
          'run',
          '--agent',
          'codex',
          '--codex',
          CODEX_BIN,
          '--runs',
          '1',
          '--standby',
          '1',
          '--skill',
          path.join(skillsDir, 'handoff'),
          '--eval',
          evalFile,
          '--out',
          out,
        ],
        {
          env: { ...env(), TMPDIR: gateWatch.tmp },
          onStart: (child) => {
            gateWatch.cli = child;
          },
        },
      );
      const requests = world.model.requests
        .slice(from)
        .filter((r) => r.path.endsWith('/responses') && r.view !== undefined)
        .sort((a, b) => a.at - b.at);
      return { result, out, requests, tmp: gateWatch.tmp, waiting: gateWatch.waiting };
    } finally {
      gateWatch.tmp = '';
    }
  }

  /** No live process in the call's TMPDIR (by working folder or environment), no temp folder left. */
  async function expectNothingLeft(tmp: string): Promise<void> {
    expect(liveProcessesIn(tmp)).toEqual([]);
    expect((await readdir(tmp)).filter((n) => n.startsWith('skilltrigger-'))).toEqual([]);
  }

  it('waits through the gates without a request, then serves the first run, strictly after them', async () => {
    const { result, out, requests, tmp, waiting } = await earlyRun('serve', 'serve');
    expect(result.code, result.stderr).toBe(0);
    // While the round trip talked to the model, the first run's Codex already waited in a project of its own.
    expect(waiting).toHaveLength(1);
    const firsts = requests.filter((r) => r.turn === 1);
    expect(firsts.map((r) => r.view?.query)).toEqual([
      GATE_QUERY,
      'early: write the handoff note',
      'early: what is the weather',
    ]);
    // That Codex served the first run: its request came from that project, after the gate's exchange had ended.
    expect(projectUnder(tmp, firsts[1]?.view?.cwd)).toBe(waiting[0]);
    expectOneAtATime(requests);
    const report = await readReport(out);
    expect(report.settings.launch).toBe('standby');
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([['triggered'], ['not-triggered']]);
    await expectNothingLeft(tmp);
  }, 120_000);

  it('a failed gate (exit 2) kills the waiting Codex and removes its project', async () => {
    const { result, requests, tmp, waiting } = await earlyRun('fail', 'fail');
    expect(result.code, result.stderr).toBe(2);
    expect(waiting).toHaveLength(1);
    expect(requests.every((r) => r.view?.query === GATE_QUERY)).toBe(true);
    await expectNothingLeft(tmp);
  }, 120_000);

  it('Ctrl-C during the gates (exit 3) kills the waiting Codex and removes its project', async () => {
    const { result, requests, tmp, waiting } = await earlyRun('interrupt', 'interrupt');
    expect(result.code, result.stderr).toBe(3);
    expect(waiting).toHaveLength(1);
    expect(requests.every((r) => r.view?.query === GATE_QUERY)).toBe(true);
    await expectNothingLeft(tmp);
  }, 120_000);
});
