import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AGENTS } from '../../src/agents/registry.js';
import { reportSchema } from '../../src/schemas/report.js';
import { type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import {
  ACTION_ENTRY,
  evalsJson,
  GitRepo,
  parseOutputFile,
  pullRequestPayload,
  pushPayload,
  skillFile,
} from '../action/harness.js';
import { type CacheServiceFake, startCacheService } from '../fakes/cache-service.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type GitHubApiFake, startGitHubApi } from '../fakes/github-api.js';

/**
 * The Action's own overhead on a warm cache (CLI install restored, gates,
 * baseline restored, PR comment), excluding model time. Run with
 * `npx vitest run --config vitest.bench.config.ts`; it prints figures and asserts only that each
 * step succeeded (never a time).
 *
 * A priming push to main installs the CLI with a fake `npm` (as install.e2e does: it links the
 * project's pinned `claude` into the private prefix), saves that install to the cache fake, and
 * saves the skill's baseline. Then the same pull_request (one skill's description reworded; 1
 * positive + 1 negative, runs: 1, simulated model) runs BENCH_ACTION_RUNS times (default 3), each a
 * fresh job restoring the install from the cache (the fake npm fails if called). Each stdout chunk
 * is timestamped on arrival, which is what the log-derived figures (restore, gates) come from.
 */

const RUNS = Number(process.env.BENCH_ACTION_RUNS ?? 3);
const TOKEN = 'ghs_bench_token';
const SKILL = '.claude/skills/tiny/SKILL.md';

const FAKE_NPM = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
if (process.env.FAKE_NPM_FAIL === '1') {
  console.error('bench: npm was called on a warm cache');
  process.exit(1);
}
const prefix = args[args.indexOf('--prefix') + 1];
const bin = path.join(prefix, 'node_modules', '.bin');
fs.mkdirSync(bin, { recursive: true });
fs.symlinkSync(process.env.FAKE_NPM_CLAUDE, path.join(bin, 'claude'));
`;

interface Line {
  /** ms since the step was spawned */
  at: number;
  text: string;
}

interface TimedRun {
  code: number | null;
  totalMs: number;
  lines: Line[];
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

let work: string;
let repo: GitRepo;
let model: SimulatedModel;
let github: GitHubApiFake;
let cache: CacheServiceFake;
let runnerTemp: string;
let c0: string;
let c1: string;
let c2: string;

/** Runs dist/index.js as the runner does (cf. runAction in the harness), timestamping each stdout line. */
async function runTimed(
  eventName: string,
  payload: unknown,
  extraEnv: Record<string, string>,
): Promise<TimedRun> {
  // A fresh job: empty RUNNER_TEMP, a fresh checkout (no cache folder), no results from the previous run.
  await rm(runnerTemp, { recursive: true, force: true });
  await mkdir(runnerTemp, { recursive: true });
  await rm(path.join(repo.dir, '.skilltrigger-cache'), { recursive: true, force: true });
  await rm(path.join(repo.dir, 'skilltrigger-results'), { recursive: true, force: true });
  const files = await mkdtemp(path.join(work, 'step-'));
  const eventPath = path.join(files, 'event.json');
  const outputPath = path.join(files, 'output');
  const summaryPath = path.join(files, 'summary.md');
  await writeFile(eventPath, JSON.stringify(payload));
  await writeFile(outputPath, '');
  await writeFile(summaryPath, '');
  const inputs: Record<string, string> = {
    'anthropic-api-key': 'sk-bench',
    'github-token': TOKEN,
    runs: '1',
    timeout: '30',
  };
  const env: Record<string, string> = {
    PATH: `${path.join(work, 'bin')}:${process.env.PATH ?? ''}`,
    ...(process.env.LANG === undefined ? {} : { LANG: process.env.LANG }),
    HOME: path.join(work, 'home'),
    TMPDIR: path.join(work, 'tmp'),
    ...github.env(),
    ...cache.env(),
    GITHUB_REF: 'refs/heads/main',
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    RUNNER_TEMP: runnerTemp,
    ANTHROPIC_BASE_URL: model.url,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    SKILLTRIGGER_SIMULATED: '1',
    FAKE_NPM_CLAUDE: CLAUDE_BIN,
    ...extraEnv,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_WORKSPACE: repo.dir,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;

  const lines: Line[] = [];
  const started = performance.now();
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [ACTION_ENTRY], {
        cwd: repo.dir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let partial = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        const at = performance.now() - started;
        out += d;
        const parts = (partial + d).split('\n');
        partial = parts.pop() ?? '';
        for (const text of parts) lines.push({ at, text });
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        err += d;
      });
      child.on('error', reject);
      child.on('close', (exitCode) => {
        if (partial) lines.push({ at: performance.now() - started, text: partial });
        resolve({ code: exitCode, stdout: out, stderr: err });
      });
    },
  );
  const totalMs = performance.now() - started;
  const outputs = parseOutputFile(await readFile(outputPath, 'utf8'));
  await rm(files, { recursive: true, force: true });
  return { code, totalMs, lines, stdout, stderr, outputs };
}

function indexOf(run: TimedRun, pattern: RegExp, from = 0): number {
  const i = run.lines.slice(from).findIndex((l) => pattern.test(l.text));
  return i < 0 ? -1 : i + from;
}

/**
 * From the line opening a log group to the `::endgroup::` after `last` (default: the same group).
 * Times are chunk arrival times, so a group's start is when its first line arrived.
 */
function groupMs(run: TimedRun, first: RegExp, last = first): number | undefined {
  const open = indexOf(run, first);
  const lastOpen = run.lines.findLastIndex((l) => last.test(l.text));
  if (open < 0 || lastOpen < 0) return undefined;
  const close = indexOf(run, /^::endgroup::/, lastOpen);
  const a = run.lines[open]?.at;
  const b = run.lines[close]?.at;
  return a === undefined || b === undefined ? undefined : b - a;
}

/** From the `::endgroup::` closing the last Measure group to the `PR comment …` line. */
function commentMs(run: TimedRun): number | undefined {
  const measure = run.lines.findLastIndex((l) => /^::group::Measure /.test(l.text));
  const close = indexOf(run, /^::endgroup::/, Math.max(0, measure));
  const posted = indexOf(run, /^PR comment (created|updated)/);
  const a = run.lines[close]?.at;
  const b = run.lines[posted]?.at;
  return measure < 0 || a === undefined || b === undefined ? undefined : b - a;
}

/** From `::group::Measure …` to the `baseline: …` line saying which baseline is used (its restore). */
function baselineMs(run: TimedRun): number | undefined {
  const open = indexOf(run, /^::group::Measure /);
  const used = indexOf(run, /^baseline: (cache|none|measured)/, Math.max(0, open));
  const a = run.lines[open]?.at;
  const b = run.lines[used]?.at;
  return open < 0 || a === undefined || b === undefined ? undefined : b - a;
}

interface Row {
  total: number;
  /** Σ durationsMs over every measured run (both sides of a paired report). */
  model: number;
  overhead: number;
  /** The overhead less the round-trip gate, itself one model call. */
  overheadNoRoundTrip: number | undefined;
  /** The Measure group's wall time less the baseline restore and Σ durationsMs: the engine around the runs. */
  engine: number | undefined;
  gates: number | undefined;
  roundTrip: number | undefined;
  restore: number | undefined;
  changed: number | undefined;
  baseline: number | undefined;
  comment: number | undefined;
  startup: number | undefined;
  exitTail: number | undefined;
}

/** Sum of every measured run's duration, both sides of a paired report. */
async function modelMs(run: TimedRun): Promise<number> {
  let sum = 0;
  for (const file of (run.outputs.reports ?? '').split('\n').filter(Boolean)) {
    const report = reportSchema.parse(JSON.parse(await readFile(file, 'utf8')));
    for (const m of [report.candidate, report.baseline]) {
      for (const q of m?.queries ?? []) sum += q.durationsMs.reduce((a, b) => a + b, 0);
    }
  }
  return sum;
}

const median = (xs: number[]): number => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? (s[m] ?? Number.NaN) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};
const fmt = (ms: number | undefined): string =>
  ms === undefined || Number.isNaN(ms) ? 'n/a' : `${(ms / 1000).toFixed(2)} s`;

function logOf(run: TimedRun): string {
  const log = run.lines
    .filter((l) => !l.text.startsWith('::debug::'))
    .map((l) => `${(l.at / 1000).toFixed(3).padStart(7)}  ${l.text}`)
    .join('\n');
  return `exit ${run.code}\n${log}\n--- stderr ---\n${run.stderr}`;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-bench-action-'));
  runnerTemp = path.join(work, 'runner-temp');
  await mkdir(path.join(work, 'bin'));
  await mkdir(path.join(work, 'home'));
  await mkdir(path.join(work, 'tmp'));
  await writeFile(path.join(work, 'bin', 'npm'), FAKE_NPM);
  await chmod(path.join(work, 'bin', 'npm'), 0o755);
  repo = await GitRepo.create(path.join(work, 'repo'));
  c0 = await repo.commit('Initial', { 'README.md': '# skills\n' });
  c1 = await repo.commit('Add tiny', {
    [SKILL]: skillFile('tiny', 'Say hello in the tiny way. Use when the user wants a tiny greeting.'),
    '.claude/skills/tiny/evals.json': evalsJson([
      { query: 'tiny-pos: say hello tinily', should_trigger: true },
      { query: 'tiny-neg: what time is it', should_trigger: false },
    ]),
  });
  repo.git('checkout', '-q', '-b', 'reword');
  c2 = await repo.commit('Reword tiny', {
    [SKILL]: skillFile('tiny', 'Greet the user the tiny way. Use when asked for a tiny hello.'),
  });
  model = await startSimulatedModel({
    script: (req) => (req.query.startsWith('tiny-pos') ? { kind: 'skill' } : undefined),
  });
  github = await startGitHubApi({
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
  });
  cache = await startCacheService();
});

afterAll(async () => {
  await model?.close();
  await github?.close();
  await cache?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

it('the Action’s own overhead on a warm cache, excluding model time', async () => {
  // Priming: a push to main installs the CLI (fake npm), saves it, and saves tiny's baseline.
  repo.checkout(c1);
  const prime = await runTimed('push', pushPayload({ before: c0, after: c1 }), { GITHUB_SHA: c1 });
  expect(prime.code, logOf(prime)).toBe(0);
  const cliKey = `skilltrigger-claude-${AGENTS.claude.pinnedVersion}-linux-${process.arch}`;
  expect(cache.entries.map((e) => e.key)).toContain(cliKey);
  console.log(
    `priming push (npm install via the fake npm, cache save, baseline save): ${fmt(prime.totalMs)}; cache: ${cache.entries.map((e) => e.key).join(', ')}`,
  );

  repo.checkout(c2);
  const rows: Row[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const run = await runTimed(
      'pull_request',
      pullRequestPayload({
        number: 1,
        action: i === 0 ? 'opened' : 'synchronize',
        baseSha: c1,
        headSha: c2,
        headRef: 'reword',
      }),
      { GITHUB_SHA: c2, GITHUB_REF: 'refs/pull/1/merge', FAKE_NPM_FAIL: '1' },
    );
    if (process.env.BENCH_ACTION_LOG === '1') console.log(logOf(run));
    expect(run.code, logOf(run)).toBe(0);
    expect(run.stdout, logOf(run)).toContain('restored from the Actions cache');
    const measured = await modelMs(run);
    const firstGroup = run.lines.find((l) => l.text.startsWith('::group::'))?.at;
    const lastLine = run.lines.at(-1)?.at;
    const roundTrip = groupMs(run, /^::group::Gate: round-trip/);
    const measureWall = groupMs(run, /^::group::Measure /);
    const baseline = baselineMs(run);
    const row: Row = {
      total: run.totalMs,
      model: measured,
      overhead: run.totalMs - measured,
      overheadNoRoundTrip: roundTrip === undefined ? undefined : run.totalMs - measured - roundTrip,
      engine: measureWall === undefined ? undefined : measureWall - (baseline ?? 0) - measured,
      gates: groupMs(run, /^::group::Gate: cli/, /^::group::Gate: /),
      roundTrip,
      restore: groupMs(run, /^::group::Install Claude Code/),
      changed: groupMs(run, /^::group::Find the changed skills/),
      baseline,
      comment: commentMs(run),
      startup: firstGroup,
      exitTail: lastLine === undefined ? undefined : run.totalMs - lastLine,
    };
    rows.push(row);
  }
  expect(github.comments(1)).toHaveLength(1);

  const m = (pick: (r: Row) => number | undefined) =>
    median(rows.flatMap((r) => (pick(r) === undefined ? [] : [pick(r) ?? 0])));
  const med: Row = {
    total: m((r) => r.total),
    model: m((r) => r.model),
    overhead: m((r) => r.overhead),
    overheadNoRoundTrip: m((r) => r.overheadNoRoundTrip),
    engine: m((r) => r.engine),
    gates: m((r) => r.gates),
    roundTrip: m((r) => r.roundTrip),
    restore: m((r) => r.restore),
    changed: m((r) => r.changed),
    baseline: m((r) => r.baseline),
    comment: m((r) => r.comment),
    startup: m((r) => r.startup),
    exitTail: m((r) => r.exitTail),
  };
  const line = (label: string, r: Row) =>
    [
      `${label.padEnd(7)} total ${fmt(r.total)}`,
      `measured runs (Σ durationsMs) ${fmt(r.model)}`,
      `overhead ${fmt(r.overhead)}`,
      `overhead less the round-trip gate's model call ${fmt(r.overheadNoRoundTrip)}`,
      `gates ${fmt(r.gates)} (round-trip ${fmt(r.roundTrip)})`,
      `CLI restore ${fmt(r.restore)}`,
      `baseline restore ${fmt(r.baseline)}`,
      `engine around the runs ${fmt(r.engine)}`,
      `comment ${fmt(r.comment)}`,
      `changed skills ${fmt(r.changed)}`,
      `spawn → first group ${fmt(r.startup)}`,
      `last line → exit ${fmt(r.exitTail)}`,
    ].join(' · ');
  console.log(
    [
      `Action on a warm cache: pull_request changing 1 skill's description, 2 queries × runs 1, baseline restored from the cache, CLI restored from the cache, comment posted; ${RUNS} runs`,
      ...rows.map((r, i) => line(`run ${i + 1}`, r)),
      line('median', med),
    ].join('\n'),
  );
});
