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
import { measureAll } from '../lib/measure/loop.js';
import { claudeArgs, claudeEnvironment } from '../lib/measure/run-once.js';
import { startSimulatedModel } from '../lib/simulated/model.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const claude = path.join(root, 'node_modules', '.bin', 'claude');
const QUERIES = Number(process.env.BENCH_QUERIES ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** A bare `claude -p` in a fresh git project holding the same kind of stub, run to its end. */
async function bareRun(env, query, description) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'skilltrigger-bench-bare-'));
  try {
    execFileSync('git', ['init', '-q'], { cwd: dir });
    await mkdir(path.join(dir, '.claude', 'commands'), { recursive: true });
    await writeFile(
      path.join(dir, '.claude', 'commands', 'bench-stub-0badcafe.md'),
      `---\ndescription: ${JSON.stringify(description)}\n---\n\nStub.\n`,
    );
    const started = performance.now();
    await new Promise((resolve) => {
      const child = spawn(claude, claudeArgs(query), {
        cwd: dir,
        env,
        stdio: ['ignore', 'ignore', 'ignore'],
      });
      child.on('close', resolve);
    });
    return performance.now() - started;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const behaviour = { current: { kind: 'text' } };
  const model = await startSimulatedModel({ script: () => behaviour.current });
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
    // 1. Harness overhead: the same runs, answered with text (both end at the end of the turn).
    behaviour.current = { kind: 'text' };
    let t = performance.now();
    for (const item of items) for (let r = 0; r < RUNS; r++) await bareRun(env, item.query, description);
    const bare = performance.now() - t;
    t = performance.now();
    const engine = await measureAll(loop({}));
    const harness = performance.now() - t;
    rows.push(['runs measured (each way)', String(n)]);
    rows.push(['bare claude -p, total', fmt(bare)]);
    rows.push(['skilltrigger engine, total', fmt(harness)]);
    rows.push(['harness overhead (target ≤ 1.10)', (harness / bare).toFixed(3)]);

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
    void engine;
  } finally {
    await model.close();
    await rm(home, { recursive: true, force: true });
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(
    `skilltrigger bench · ${os.cpus().length} CPUs · Node ${process.version} · ${QUERIES} queries × ${RUNS} runs · simulated model`,
  );
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

await main();
