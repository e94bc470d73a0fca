#!/usr/bin/env node
// `npm run bench:agents`: one measurement per agent, as a user runs it (`skilltrigger run --agent
// <id>`, gates included), against one simulated model that answers at once, with the real pinned
// binaries. It prints per agent and launch: the median and the slowest measured run as the CLI's
// progress lines give them (spawn to decision, clean-up included), the per-run cycle (the median gap
// between consecutive runs' first requests, as the model server recorded them) and the whole
// command's wall time. An agent with a warm standby (its facts: Claude Code, Codex) runs cold
// (`--standby 0`) and warm (`--standby 1`); Gemini CLI has none, so every run is cold. It asserts
// nothing (docs/speed.md, "Per agent").
// BENCH_QUERIES (default 6), BENCH_RUNS (default 2) and BENCH_AGENTS (default every registered agent) size it.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGENTS } from '../lib/agents/registry.js';
import { startSimulatedModel } from '../lib/simulated/model.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUERIES = Number(process.env.BENCH_QUERIES ?? 6);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const IDS = (process.env.BENCH_AGENTS ?? Object.keys(AGENTS).join(',')).split(',');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const secs = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** The model server's per-run cycle: the median gap between consecutive runs' first requests. */
function cycleOf(requests, prefix) {
  const at = requests.filter((r) => r.turn === 1 && r.view?.query.startsWith(prefix)).map((r) => r.at);
  const gaps = at.slice(1).map((t, i) => t - (at[i] ?? t));
  return median(gaps);
}

const model = await startSimulatedModel({
  chunkDelayMs: 0,
  script: (req) => (/^bench \d+ pos/.test(req.query) ? { kind: 'skill' } : undefined),
});
const work = await mkdtemp(path.join(os.tmpdir(), 'skilltrigger-bench-agents-'));
const home = path.join(work, 'home');
await mkdir(home);
const skill = path.join(ROOT, 'examples', 'handoff');
const bin = (id) => path.join(ROOT, 'node_modules', '.bin', AGENTS[id].bin);

/** One `run --agent <id>`; its per-run seconds from the progress lines, and its wall time. */
async function measure(id, standby, round) {
  const prefix = `bench ${round} `;
  const evalFile = path.join(work, `evals-${round}.json`);
  const items = Array.from({ length: QUERIES }, (_, i) => ({
    query: `${prefix}${i % 2 === 0 ? 'pos' : 'neg'} query ${i}`,
    should_trigger: i % 2 === 0,
  }));
  await writeFile(evalFile, JSON.stringify(items));
  const args = [
    path.join(ROOT, 'bin', 'skilltrigger.js'),
    'run',
    '--skill',
    skill,
    '--eval',
    evalFile,
    '--runs',
    String(RUNS),
    '--agent',
    id,
    `--${AGENTS[id].binOption}`,
    bin(id),
    '--out',
    path.join(work, `out-${round}`),
    ...(standby === undefined ? [] : ['--standby', String(standby)]),
  ];
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: `${model.url}/v1`,
    OPENAI_API_KEY: 'sk-bench',
    GOOGLE_GEMINI_BASE_URL: model.url,
    GEMINI_API_KEY: 'sk-bench',
    SKILLTRIGGER_SIMULATED: '1',
  };
  const started = Date.now();
  let stderr = '';
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('exit', (c) => resolve(c));
  });
  const wall = Date.now() - started;
  const perRun = [...stderr.matchAll(/^query \d+\/\d+ · run \d+\/\d+ · .* · ([\d.]+) s$/gm)].map(
    (m) => Number(m[1]) * 1000,
  );
  return { code, wall, perRun, cycle: cycleOf(model.requests, prefix), tail: stderr.slice(-400) };
}

const rows = [];
let round = 0;
for (const id of IDS) {
  const launches = AGENTS[id].warmStandby ? [0, 1] : [undefined];
  for (const standby of launches) {
    const r = await measure(id, standby, round++);
    const launch =
      standby === undefined ? 'cold' : standby === 0 ? 'cold (--standby 0)' : `warm (--standby ${standby})`;
    if (r.code !== 0 || r.perRun.length === 0) {
      rows.push(
        `${AGENTS[id].label.padEnd(12)} ${launch.padEnd(20)} failed (exit ${r.code}): ${r.tail.trim()}`,
      );
      continue;
    }
    rows.push(
      `${AGENTS[id].label.padEnd(12)} ${launch.padEnd(20)} run median ${secs(median(r.perRun))} · slowest ${secs(Math.max(...r.perRun))} · cycle ${secs(r.cycle)} · ${r.perRun.length} runs in ${secs(r.wall)} (gates included)`,
    );
  }
}
await model.close();
await rm(work, { recursive: true, force: true });
console.log(
  `skilltrigger run per agent, ${QUERIES} queries × ${RUNS} runs, a model answering at once, ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)} at the end):`,
);
for (const row of rows) console.log(`  ${row}`);
