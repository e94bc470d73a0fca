#!/usr/bin/env node
// `npm run bench`: speed and cost figures against the simulated model, printed side by side.
// Not a test: it asserts nothing, it measures. Figures depend on the machine; the README records
// the ones measured on the project's 2-core machine.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeArgs, claudeEnvironment } from '../lib/agents/claude/launch.js';
import { measureMatrix } from '../lib/matrix/measure.js';
import { measureAll } from '../lib/measure/loop.js';
import { runPreflight } from '../lib/preflight/preflight.js';
import { startSimulatedModel } from '../lib/simulated/model.js';
import { isDefaultStub } from '../lib/simulated/request.js';
import { skillCreatorLoop } from './bench-skill-creator.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const claude = path.join(root, 'node_modules', '.bin', 'claude');
const QUERIES = Number(process.env.BENCH_QUERIES ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
/** Bare and skilltrigger alternate this many times over the same queries, so a load drift hits both. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
const ms = (x) => `${x.toFixed(0)} ms`;
const medMax = (xs) => (xs.length === 0 ? 'none' : `${ms(median(xs))} / ${ms(Math.max(...xs))}`);

/**
 * The model server's view of a sequence of runs: when each run's first request (turn 1) arrived,
 * and the median time between consecutive ones — the per-run cycle, whatever the harness does
 * between two runs (kill, clean-up, project, spawn, start-up) included.
 */
function cycleOf(requests) {
  const firsts = requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages' && r.turn === 1);
  const gaps = firsts.slice(1).map((r, i) => r.at - (firsts[i]?.at ?? r.at));
  return { firsts, gaps, median: median(gaps) };
}

/** A phase of `RunResult.phases` in ms, for the runs that have both readings. */
function phase(runs, from, to) {
  return runs.flatMap((r) => {
    const p = r.phases;
    return p && p[from] !== undefined && p[to] !== undefined ? [p[to] - p[from]] : [];
  });
}

/** A fresh git project holding the same kind of stub, for a bare `claude -p`. */
async function bareProject(description) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'skilltrigger-bench-bare-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  await mkdir(path.join(dir, '.claude', 'commands'), { recursive: true });
  await writeFile(
    path.join(dir, '.claude', 'commands', 'bench-stub-0badcafe.md'),
    `---\ndescription: ${JSON.stringify(description)}\n---\n\nStub.\n`,
  );
  return dir;
}

/** A bare `claude -p` run to its end in a project made beforehand; its wall time. */
async function bareRunIn(dir, env, query) {
  const started = performance.now();
  await new Promise((resolve) => {
    const child = spawn(claude, claudeArgs(query), { cwd: dir, env, stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('close', resolve);
  });
  return performance.now() - started;
}

/** A bare `claude -p` in a fresh git project, run to its end (the project is made first, untimed). */
async function bareRun(env, query, description) {
  const dir = await bareProject(description);
  try {
    return await bareRunIn(dir, env, query);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  // The load average says how far the figures can be trusted: claude's start-up is CPU-bound.
  const loadAtStart = os.loadavg()[0];
  const behaviour = { current: { kind: 'text' } };
  // The old harness's project lists the skill under its real name (`bench`), skilltrigger's stub as
  // `bench-stub-<hex>`: the simulated model takes either for the skill under test.
  const model = await startSimulatedModel({
    script: (req, ctx) =>
      typeof behaviour.current === 'function' ? behaviour.current(req, ctx) : behaviour.current,
    isStub: (entry) => entry.name === 'bench' || isDefaultStub(entry),
  });
  const home = await mkdtemp(path.join(os.tmpdir(), 'skilltrigger-bench-home-'));
  const baseEnv = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'sk-bench',
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
  };
  const env = claudeEnvironment(baseEnv, 2);
  const description = 'Write HANDOFF.md summarising the session so a fresh session can resume';
  const items = Array.from({ length: QUERIES }, (_, i) => ({
    id: `q${i + 1}`,
    query: `bench query ${i + 1}`,
    shouldTrigger: i % 2 === 0,
    extra: {},
  }));
  const loop = (rules) => ({
    items,
    sides: [{ label: 'candidate', stub: { layout: 'command', skillName: 'bench', description } }],
    rules: { runsPerQuery: RUNS, triggerThreshold: 0.5, noVerdictShare: 0.1, ...rules },
    run: { timeoutMs: 60_000, claudeBin: claude, env },
  });
  const rows = [];
  const n = QUERIES * RUNS;
  try {
    // 1. Per-run cycle and harness overhead: the same runs, answered with text (both end at the end
    // of the turn), bare and skilltrigger alternating by rounds.
    behaviour.current = { kind: 'text' };
    let bare = 0;
    // This process's CPU (the harness and the simulated model, which both ways share), per run.
    let bareCpu = 0;
    let engineCpu = 0;
    let harness = 0;
    const bareGaps = [];
    const engineGaps = [];
    const engineRuns = [];
    const matrixGaps = [];
    let matrixTotal = 0;
    const half = Math.ceil(items.length / 2);
    const matrixSettings = {
      entrants: [
        { name: 'bench', listed: description, items: items.slice(0, half) },
        { name: 'rival', listed: 'Draw charts from a table of numbers', items: items.slice(half) },
      ].map(({ name, listed, items: own }) => ({
        name,
        listed,
        evalSet: { file: `${name}.json`, format: 'skill-creator-json', items: own },
      })),
      runsPerQuery: RUNS,
      noVerdictShare: 0.1,
      timeoutSeconds: 60,
      stub: 'command',
      maxRetries: 2,
      agent: { id: 'claude', bin: claude },
      env: baseEnv,
      conflictAllowed: false,
      simulated: true,
      toolVersion: 'bench',
    };
    const bareRound = async () => {
      const from = model.requests.length;
      // Every bare project is made before the loop: the bare cycle is claude after claude, nothing between.
      const dirs = await Promise.all(
        items.flatMap((item) =>
          Array.from({ length: RUNS }, () => bareProject(description).then((d) => [d, item.query])),
        ),
      );
      const started = performance.now();
      const cpu = process.cpuUsage();
      for (const [dir, query] of dirs) await bareRunIn(dir, env, query);
      bare += performance.now() - started;
      const used = process.cpuUsage(cpu);
      bareCpu += (used.user + used.system) / 1000;
      await Promise.all(dirs.map(([dir]) => rm(dir, { recursive: true, force: true })));
      bareGaps.push(...cycleOf(model.requests.slice(from)).gaps);
    };
    const engineRound = async () => {
      const from = model.requests.length;
      const started = performance.now();
      const cpu = process.cpuUsage();
      const engine = await measureAll(loop({}));
      harness += performance.now() - started;
      const used = process.cpuUsage(cpu);
      engineCpu += (used.user + used.system) / 1000;
      engineGaps.push(...cycleOf(model.requests.slice(from)).gaps);
      engineRuns.push(...engine.records.flat(2));
    };
    // The matrix loop over the same queries, split between two skills (each project then holds
    // two stubs, the owner's and a sibling): the same number of runs, in the same round.
    const matrixRound = async () => {
      const from = model.requests.length;
      const started = performance.now();
      await measureMatrix(matrixSettings, () => {});
      matrixTotal += performance.now() - started;
      matrixGaps.push(...cycleOf(model.requests.slice(from)).gaps);
    };
    // skill-creator's loop (a model of run_eval.py, scripts/bench-skill-creator.js) on the same
    // queries: as published (one project, no repository), and in a repository like skilltrigger's.
    const oldGaps = { plain: [], repository: [] };
    const oldTotal = { plain: 0, repository: 0 };
    const oldRound = (kind) => async () => {
      const from = model.requests.length;
      const started = performance.now();
      await skillCreatorLoop({
        claude,
        env: baseEnv,
        name: 'bench',
        description,
        queries: items.flatMap((item) => Array.from({ length: RUNS }, () => item.query)),
        repository: kind === 'repository',
      });
      oldTotal[kind] += performance.now() - started;
      oldGaps[kind].push(...cycleOf(model.requests.slice(from)).gaps);
    };
    // The order turns round each round (bare, run, matrix, the old harness twice; then back), so a
    // load that climbs or falls during the call does not always land on the same loop.
    for (let round = 0; round < ROUNDS; round++) {
      const order = [bareRound, engineRound, matrixRound, oldRound('plain'), oldRound('repository')];
      for (const step of round % 2 === 0 ? order : order.reverse()) await step();
    }
    let t;
    const bareCycle = median(bareGaps);
    const engineCycle = median(engineGaps);
    rows.push(['runs measured (each way)', `${n} × ${ROUNDS} rounds`]);
    rows.push(['per-run cycle, bare claude -p to its end (median, model server)', ms(bareCycle)]);
    rows.push(['per-run cycle, skilltrigger (median, model server)', ms(engineCycle)]);
    rows.push([
      'per-run cycle ratio skilltrigger ÷ bare (target ≤ 0.80)',
      (engineCycle / bareCycle).toFixed(3),
    ]);
    const matrixCycle = median(matrixGaps);
    rows.push(['per-run cycle, skilltrigger matrix loop (median, model server)', ms(matrixCycle)]);
    rows.push([
      'per-run cycle ratio matrix ÷ bare (two stubs per project)',
      (matrixCycle / bareCycle).toFixed(3),
    ]);
    const oldCycle = median(oldGaps.plain);
    const oldGitCycle = median(oldGaps.repository);
    rows.push(['per-run cycle, skill-creator-style loop, no repository (as published)', ms(oldCycle)]);
    rows.push(['per-run cycle, skill-creator-style loop in a git repository', ms(oldGitCycle)]);
    rows.push([
      'per-run cycle ratio skilltrigger ÷ skill-creator-style (target ≤ 1.00)',
      (engineCycle / oldCycle).toFixed(3),
    ]);
    rows.push([
      'per-run cycle ratio skilltrigger ÷ skill-creator-style, both in a repository',
      (engineCycle / oldGitCycle).toFixed(3),
    ]);
    rows.push(['bare claude -p, total', fmt(bare)]);
    rows.push(['skilltrigger engine, total', fmt(harness)]);
    rows.push(['harness overhead, totals (target ≤ 1.10)', (harness / bare).toFixed(3)]);
    rows.push(['skilltrigger matrix loop, total', fmt(matrixTotal)]);
    rows.push([
      'skill-creator-style loop, total (no repository; in one)',
      `${fmt(oldTotal.plain)}; ${fmt(oldTotal.repository)}`,
    ]);
    rows.push([
      'CPU of this process per run, bare loop vs skilltrigger (model server in both)',
      `${ms(bareCpu / (n * ROUNDS))} vs ${ms(engineCpu / (n * ROUNDS))}`,
    ]);
    // Where a skilltrigger run's time goes (RunResult.phases), median / max over the text runs.
    rows.push([
      'phase: project ready (taken from the prefetch), median / max',
      medMax(phase(engineRuns, 'started', 'projectReady')),
    ]);
    rows.push(['phase: spawn call, median / max', medMax(phase(engineRuns, 'projectReady', 'spawned'))]);
    rows.push(['phase: spawn → init event, median / max', medMax(phase(engineRuns, 'spawned', 'init'))]);
    rows.push(['phase: init → decision, median / max', medMax(phase(engineRuns, 'init', 'decided'))]);
    rows.push(['phase: decision → group gone, median / max', medMax(phase(engineRuns, 'decided', 'gone'))]);
    rows.push([
      'phase: clean-up on the critical path (removal deferred), median / max',
      medMax(phase(engineRuns, 'gone', 'cleaned')),
    ]);

    // 2. Decision-to-exit latency, on runs that decide on a Skill call.
    behaviour.current = { kind: 'skill' };
    const decided = await measureAll(loop({}));
    const latencies = decided.records
      .flat(2)
      .flatMap((r) => (r.decisionToExitMs === undefined ? [] : [r.decisionToExitMs]));
    rows.push([
      'decision → process group gone, median (target ≤ 300 ms)',
      `${median(latencies).toFixed(0)} ms`,
    ]);
    rows.push(['decision → process group gone, max', `${Math.max(...latencies).toFixed(0)} ms`]);

    // 2b. The gates (preflight) as `run` runs them before the first measured run, wall clock.
    behaviour.current = { kind: 'text' };
    const gateWalls = [];
    const out = await mkdtemp(path.join(os.tmpdir(), 'skilltrigger-bench-out-'));
    try {
      for (let i = 0; i < 3; i++) {
        t = performance.now();
        const preflight = await runPreflight({
          claudeBin: claude,
          env: baseEnv,
          maxRetries: 2,
          skillName: 'bench',
          out,
          allowConflict: false,
        });
        gateWalls.push(performance.now() - t);
        preflight.release();
        if (!preflight.passed)
          throw new Error(`the bench's preflight failed: ${JSON.stringify(preflight.gates)}`);
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
    rows.push(['gates (preflight) wall, median / max of 3', medMax(gateWalls)]);
    rows.push([
      `whole measurement, gates + ${n} runs (median gates + mean engine round)`,
      fmt(median(gateWalls) + harness / ROUNDS),
    ]);

    rows.push([
      'whole measurement ÷ a skill-creator-style round (no gates there; target ≤ 1.00)',
      ((median(gateWalls) + harness / ROUNDS) / (oldTotal.plain / ROUNDS)).toFixed(3),
    ]);

    // 2c. Runs decided as the model decided, both harnesses: each case once per repeat, every run a
    // query of its own (so a retry's answer is the case's, whatever ran before). What the model
    // decided is the case's: its first decisive message, and an API error is an error, not a miss.
    const cases = [
      ['skill', () => ({ kind: 'skill' }), 'triggered'],
      ['text', () => ({ kind: 'text' }), 'not-triggered'],
      ['toolsearch-then-skill', () => ({ kind: 'toolsearch-then-skill' }), 'triggered'],
      ['text-then-skill', () => ({ kind: 'text-then-skill' }), 'triggered'],
      ['bash-and-skill', () => ({ kind: 'bash-and-skill' }), 'triggered'],
      ['other-skill', () => ({ kind: 'other-skill' }), 'not-triggered'],
      // The first message only lists files; the Skill call comes a turn later (what --late reports).
      ['late-skill', () => ({ kind: 'late-skill' }), 'not-triggered'],
      ['overloaded', () => ({ kind: 'api-error', status: 529, noRetry: true }), 'error'],
      // A stream cut inside a Skill call, then the retry answers with text: the call was a phantom.
      [
        'cut, then text',
        (ctx) => (ctx.occurrence === 0 ? { kind: 'cut' } : { kind: 'text' }),
        'not-triggered',
      ],
    ];
    const REPEATS = Number(process.env.BENCH_ACCURACY_REPEATS ?? 2);
    const byQuery = new Map();
    const planFor = (harnessName) =>
      Array.from({ length: REPEATS }, (_, r) =>
        cases.map(([label, answer, truth]) => {
          const query = `decided right? ${harnessName} ${label} ${r + 1}`;
          byQuery.set(query, answer);
          return { label, query, truth };
        }),
      ).flat();
    behaviour.current = (req, ctx) => byQuery.get(req.query)?.(ctx);
    const ours = planFor('skilltrigger');
    // One loop per case: a query that lost every run stops a loop (too much lost), and the planted
    // error must not keep the cases after it from running.
    const oursOutcomes = [];
    for (const c of ours) {
      const one = await measureAll({
        ...loop({}),
        items: [{ id: 'c1', query: c.query, shouldTrigger: true, extra: {} }],
        rules: { ...loop({}).rules, runsPerQuery: 1 },
      });
      oursOutcomes.push(one.records[0]?.[0]?.[0]?.outcome);
    }
    const oursRight = ours.filter((c, i) => oursOutcomes[i]?.kind === c.truth);
    const theirs = planFor('skill-creator');
    const theirRuns = await skillCreatorLoop({
      claude,
      env: baseEnv,
      name: 'bench',
      description,
      queries: theirs.map((c) => c.query),
    });
    const theirsWrong = theirs.filter(
      (c, i) => (theirRuns[i]?.triggered ? 'triggered' : 'not-triggered') !== c.truth,
    );
    const wrongOurs = ours.flatMap((c, i) => {
      const got = oursOutcomes[i];
      return oursRight.includes(c)
        ? []
        : [`${c.label} as ${got?.kind}${got?.cause ? ` (${got.cause})` : ''}`];
    });
    rows.push([
      `runs decided as the model decided (${cases.length} cases × ${REPEATS}), skilltrigger`,
      `${oursRight.length}/${ours.length}${wrongOurs.length ? ` (wrong: ${[...new Set(wrongOurs)].join(', ')})` : ''}`,
    ]);
    rows.push([
      `runs decided as the model decided (${cases.length} cases × ${REPEATS}), skill-creator-style`,
      `${theirs.length - theirsWrong.length}/${theirs.length}${theirsWrong.length ? ` (wrong: ${[...new Set(theirsWrong.map((c) => `${c.label} as ${theirRuns[theirs.indexOf(c)]?.triggered ? 'triggered' : 'not-triggered'}`))].join(', ')})` : ''}`,
    ]);
    behaviour.current = { kind: 'text' };

    // 3. Early stop: the model keeps working for 5 more turns of 1 s each after calling Skill.
    behaviour.current = { kind: 'skill-then-work', turns: 5, delayMs: 1000 };
    const few = items.slice(0, 3);
    t = performance.now();
    for (const item of few) await bareRun(env, item.query, description);
    const bareLong = (performance.now() - t) / few.length;
    const early = await measureAll({
      ...loop({}),
      items: few,
      rules: { ...loop({}).rules, runsPerQuery: 1 },
    });
    const earlyRuns = early.records.flat(2);
    rows.push(['early stop: bare claude to the end of the turn, per run', fmt(bareLong)]);
    rows.push([
      'early stop: skilltrigger run (stops at the decision), per run',
      fmt(median(earlyRuns.map((r) => r.durationMs))),
    ]);

    // 4. Tokens and cost, as recorded from the stream up to the decision.
    const usage = decided.records.flat(2).map((r) => r.usage);
    const sum = (k) => usage.reduce((s, u) => s + (u[k] ?? 0), 0);
    const withCost = usage.filter((u) => u.costUsd !== undefined);
    rows.push(['input tokens per run (simulated), mean', (sum('inputTokens') / usage.length).toFixed(0)]);
    rows.push(['output tokens per run (simulated), mean', (sum('outputTokens') / usage.length).toFixed(0)]);
    rows.push([`tokens per verdict (${n} runs)`, String(sum('inputTokens') + sum('outputTokens'))]);
    rows.push([
      'cost per run',
      withCost.length
        ? `$${(withCost.reduce((s, u) => s + u.costUsd, 0) / withCost.length).toFixed(5)}`
        : 'not reported (runs stop before the CLI prints its result)',
    ]);

    // 5. The Action bundle's cold start (to its first failure without inputs).
    const bundle = path.join(root, 'dist', 'index.js');
    if (existsSync(bundle)) {
      const starts = [];
      for (let i = 0; i < 5; i++) {
        t = performance.now();
        await new Promise((resolve) => {
          const child = spawn(process.execPath, [bundle], {
            stdio: 'ignore',
            env: { PATH: process.env.PATH ?? '' },
          });
          child.on('close', resolve);
        });
        starts.push(performance.now() - t);
      }
      rows.push([
        'dist/index.js cold start to exit (no inputs), median of 5',
        `${median(starts).toFixed(0)} ms`,
      ]);
    }
  } finally {
    await model.close();
    await rm(home, { recursive: true, force: true });
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(
    `skilltrigger bench · ${os.cpus().length} CPUs · Node ${process.version} · ${QUERIES} queries × ${RUNS} runs · simulated model`,
  );
  console.log(
    `load average (1 min): ${loadAtStart.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end`,
  );
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

await main();
