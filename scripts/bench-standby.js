// `npm run bench`: skilltrigger side by side with skill-creator's REAL `scripts/run_eval.py`
// (anthropics/skills, unmodified, 1 worker), on one machine, against one simulated model, the real
// claude for both. skilltrigger runs as a user runs it (`skilltrigger run`, gates included) with
// `--standby 0`, 1 and 2, on a judge that answers at once and on one that answers after 800 ms
// (a real model's time to its first token). It prints, per judge: the per-run cycle (the median
// gap between consecutive runs' first requests, as the model server recorded them), the whole
// measurement's wall time from outside, their ratios to run_eval's, and how many runs each harness
// decided as the judge decided. It asserts nothing (docs/speed.md).
//
// run_eval.py is never committed here: point the bench at a skill-creator folder (the one holding
// scripts/run_eval.py) with `--skill-creator <dir>` or SKILLTRIGGER_SKILL_CREATOR, e.g. from
// `git clone https://github.com/anthropics/skills` → skills/skill-creator.
// BENCH_QUERIES (default 10), BENCH_RUNS (default 2), BENCH_DELAYS (default "0,800") and
// BENCH_STANDBYS (default "0,1,2") size it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GATE_QUERY, startSimulatedModel } from '../lib/simulated/model.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLAUDE = path.join(ROOT, 'node_modules', '.bin', 'claude');
const QUERIES = Number(process.env.BENCH_QUERIES ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const DELAYS = (process.env.BENCH_DELAYS ?? '0,800').split(',').map(Number);
const STANDBYS = (process.env.BENCH_STANDBYS ?? '0,1,2').split(',').map(Number);

function skillCreatorDir() {
  const flag = process.argv.indexOf('--skill-creator');
  const dir = flag >= 0 ? process.argv[flag + 1] : process.env.SKILLTRIGGER_SKILL_CREATOR;
  if (!dir || !existsSync(path.join(dir, 'scripts', 'run_eval.py'))) {
    process.stderr.write(
      "bench: needs skill-creator's folder (holding scripts/run_eval.py): --skill-creator <dir> or SKILLTRIGGER_SKILL_CREATOR.\n" +
        '  e.g. git clone https://github.com/anthropics/skills /tmp/skills && npm run bench -- --skill-creator /tmp/skills/skills/skill-creator\n',
    );
    process.exit(1);
  }
  return path.resolve(dir);
}

/** Runs a command to its end; resolves with its wall time, stdout and exit code. */
function timed(cmd, args, options) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, stdout, stderr, code }));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor((s.length - 1) / 2)];
};

/** The first requests of each run (the round-trip gate's left out) and the median gap between them. */
function cycleOf(requests) {
  const firsts = requests.filter((r) => r.turn === 1 && r.view && r.view.query !== GATE_QUERY);
  const gaps = firsts.slice(1).map((r, i) => r.at - (firsts[i]?.at ?? r.at));
  return { runs: firsts.length, cycle: median(gaps) };
}

async function main() {
  const creator = skillCreatorDir();
  const loadAtStart = os.loadavg();
  const work = await mkdtemp(path.join(os.tmpdir(), 'skilltrigger-bench-'));
  const bin = path.join(work, 'bin');
  await mkdir(bin);
  // run_eval.py calls `claude` from PATH: the pinned one.
  await symlink(CLAUDE, path.join(bin, 'claude'));
  const description = 'Write HANDOFF.md summarising the session so a fresh session can resume the work';
  const skillDir = path.join(work, 'handoff');
  await mkdir(skillDir);
  await writeFile(
    path.join(skillDir, 'SKILL.md'),
    `---\nname: handoff\ndescription: ${description}\n---\n\nBody.\n`,
  );
  const items = Array.from({ length: QUERIES }, (_, i) => ({
    query: `bench query ${i + 1}: ${i % 2 === 0 ? 'write the handoff' : 'rename a variable'}`,
    should_trigger: i % 2 === 0,
  }));
  const evalFile = path.join(work, 'evals.json');
  await writeFile(evalFile, JSON.stringify(items));
  const judge = new Map(items.map((item) => [item.query, item.should_trigger]));
  const lines = [];
  const say = (line) => {
    lines.push(line);
    process.stdout.write(`${line}\n`);
  };
  say(
    `bench: ${QUERIES} queries × ${RUNS} runs; load average at start ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  try {
    for (const delay of DELAYS) {
      // run_eval.py's stub is `<name>-skill-<8 hex>`, skilltrigger's `<name>-stub-<8 hex>`: the judge takes either.
      const model = await startSimulatedModel({
        answerDelayMs: delay,
        isStub: (entry) => /^handoff-(skill|stub)-[0-9a-f]{8}$/.test(entry.name),
        script: (view) => (judge.get(view.query) ? { kind: 'skill' } : { kind: 'text' }),
      });
      const home = await mkdtemp(path.join(os.tmpdir(), 'skilltrigger-bench-home-'));
      const env = {
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: home,
        LANG: process.env.LANG ?? 'C.UTF-8',
        TMPDIR: os.tmpdir(),
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'sk-bench',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      };
      const rows = [];
      try {
        // run_eval.py as published, from a project folder of its own (it writes its command there).
        const project = path.join(work, `run-eval-${delay}`);
        await mkdir(path.join(project, '.claude'), { recursive: true });
        let from = model.requests.length;
        const theirs = await timed(
          'python3',
          [
            '-m',
            'scripts.run_eval',
            '--eval-set',
            evalFile,
            '--skill-path',
            skillDir,
            '--num-workers',
            '1',
            '--runs-per-query',
            String(RUNS),
            '--timeout',
            '60',
          ],
          { cwd: project, env: { ...env, PYTHONPATH: creator } },
        );
        if (theirs.code !== 0)
          throw new Error(`run_eval.py exited ${theirs.code}: ${theirs.stderr.slice(0, 400)}`);
        const output = JSON.parse(theirs.stdout);
        const theirRight = output.results.reduce(
          (n, r) => n + (r.should_trigger ? r.triggers : r.runs - r.triggers),
          0,
        );
        const theirCycle = cycleOf(model.requests.slice(from));
        rows.push({ who: 'run_eval.py, 1 worker', ...theirCycle, wall: theirs.ms, right: theirRight });
        for (const standby of STANDBYS) {
          const out = path.join(work, `out-${delay}-${standby}`);
          from = model.requests.length;
          const ours = await timed(
            process.execPath,
            [
              path.join(ROOT, 'bin', 'skilltrigger.js'),
              'run',
              '--skill',
              skillDir,
              '--eval',
              evalFile,
              '--runs',
              String(RUNS),
              '--timeout',
              '60',
              '--standby',
              String(standby),
              '--claude',
              CLAUDE,
              '--out',
              out,
            ],
            { cwd: work, env: { ...env, SKILLTRIGGER_SIMULATED: '1' } },
          );
          if (ours.code !== 0)
            throw new Error(`skilltrigger exited ${ours.code}: ${ours.stderr.slice(-400)}`);
          const report = JSON.parse(
            await readFile(
              path.join(out, (await readdir(out)).find((f) => f.endsWith('.json')) ?? ''),
              'utf8',
            ),
          );
          const right = report.candidate.queries.reduce(
            (n, q) =>
              n + q.outcomes.filter((o) => o === (judge.get(q.query) ? 'triggered' : 'not-triggered')).length,
            0,
          );
          rows.push({
            who: `skilltrigger --standby ${standby}`,
            ...cycleOf(model.requests.slice(from)),
            wall: ours.ms,
            right,
          });
        }
      } finally {
        await model.close();
        await rm(home, { recursive: true, force: true });
      }
      const base = rows[0];
      say('');
      say(
        `judge answering ${delay === 0 ? 'at once' : `after ${delay} ms`} (load ${os.loadavg()[0].toFixed(2)})`,
      );
      say(
        '| harness | per-run cycle | ÷ run_eval | whole measurement (gates incl.) | ÷ run_eval | decided as the judge |',
      );
      say('|---|---|---|---|---|---|');
      for (const r of rows) {
        say(
          `| ${r.who} | ${Math.round(r.cycle)} ms | ${(r.cycle / base.cycle).toFixed(2)} × (${Math.round(r.cycle - base.cycle)} ms) | ${(r.wall / 1000).toFixed(1)} s | ${(r.wall / base.wall).toFixed(2)} × | ${r.right}/${QUERIES * RUNS} |`,
        );
      }
    }
    say('');
    say(
      `load average at the end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
