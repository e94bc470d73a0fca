#!/usr/bin/env node
// The offline demo: the real skilltrigger CLI and the real `claude` binary, pointed at the
// project's simulated model on 127.0.0.1 instead of Anthropic's API. Every number it prints is
// SIMULATED: the simulated model loads the stub with a known probability per query.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { probabilistic, startSimulatedModel } from '../lib/simulated/model.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const skill = path.join(root, 'examples', 'handoff');
const evalFile = path.join(skill, 'evals.json');
const claude = path.join(root, 'node_modules', '.bin', 'claude');

// The simulated model's truth: positives load the stub 85% of the time, negatives 15%, except the
// near-misses marked with a note, which fire 40% of the time.
const items = JSON.parse(await readFile(evalFile, 'utf8'));
const truth = Object.fromEntries(items.map((i) => [i.query, i.should_trigger ? 0.85 : i.note ? 0.4 : 0.15]));
const model = await startSimulatedModel({
  seed: Number(process.env.DEMO_SEED ?? 7),
  script: probabilistic(truth, { kind: 'skill' }, { kind: 'text' }),
});
const home = await mkdtemp(path.join(tmpdir(), 'skilltrigger-demo-home-'));
const extra = process.argv.slice(2);
process.stderr.write(`SIMULATED demo: the real claude CLI against the simulated model at ${model.url}\n`);
const child = spawn(
  process.execPath,
  [
    path.join(root, 'bin', 'skilltrigger.js'),
    'run',
    '--skill',
    skill,
    '--eval',
    evalFile,
    '--claude',
    claude,
    ...extra,
  ],
  {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      PATH: process.env.PATH ?? '',
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      HOME: home,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-simulated',
      SKILLTRIGGER_SIMULATED: '1',
    },
  },
);
const forward = (signal) => child.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
const code = await new Promise((resolve) => child.on('exit', (c, s) => resolve(c ?? (s ? 130 : 1))));
await model.close();
await rm(home, { recursive: true, force: true });
process.exitCode = code;
