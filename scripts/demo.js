#!/usr/bin/env node
// The offline demo: the real skilltrigger CLI and the real `claude` binary, pointed at the
// project's simulated model on 127.0.0.1 instead of Anthropic's API. Every number it prints is
// SIMULATED: the simulated model loads the stub with a probability set by how well the listed
// description covers the query's words (src/simulated/text-rule.ts, README "The simulated model").
//
//   npm run demo                                   measure the example skill
//   npm run demo -- --skill <dir> --eval <file>    measure any skill, offline
//   npm run demo -- improve                        the author's loop on a copy of the example skill
//   npm run demo -- init                           draft an eval set for a copy of the example skill
//   npm run demo -- matrix                         the routing matrix of every example skill
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { descriptionRule } from '../lib/simulated/description-script.js';
import { startSimulatedModel } from '../lib/simulated/model.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const example = path.join(root, 'examples', 'handoff');
const claude = path.join(root, 'node_modules', '.bin', 'claude');

/** Takes `--name value` (or `--name=value`) out of `args`. */
function take(args, name) {
  const at = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (at < 0) return undefined;
  const [flag] = args.splice(at, 1);
  if (flag.includes('=')) return flag.slice(flag.indexOf('=') + 1);
  const [value] = args.splice(at, 1);
  return value;
}

const extra = process.argv.slice(2);
const mode = ['improve', 'init', 'matrix'].includes(extra[0]) ? extra.shift() : 'run';
const work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-demo-'));
let skill = take(extra, 'skill') ?? example;
let evalFile = take(extra, 'eval') ?? path.join(skill, 'evals.json');
if (mode === 'improve' || mode === 'init') {
  // The author's commands write next to the skill (init) or may edit it (improve --write): a copy.
  const copy = path.join(work, path.basename(skill));
  await cp(skill, copy, { recursive: true });
  if (evalFile.startsWith(skill + path.sep)) evalFile = path.join(copy, path.relative(skill, evalFile));
  skill = copy;
}
// The loop's defaults measure up to 6 runs per query; the demo keeps it to a few minutes.
if (mode === 'improve' && !extra.some((a) => a.startsWith('--runs'))) extra.push('--runs', '4');
if (mode === 'improve' && !extra.some((a) => a.startsWith('--iterations'))) extra.push('--iterations', '3');
// The matrix measures every skill under examples/ together (handoff, standup, changelog).
const args =
  mode === 'init'
    ? ['init', '--skill', skill, '--claude', claude, ...extra]
    : mode === 'matrix'
      ? ['matrix', '--skills', take(extra, 'skills') ?? path.dirname(example), '--claude', claude, ...extra]
      : [mode, '--skill', skill, '--eval', evalFile, '--claude', claude, ...extra];

const model = await startSimulatedModel({
  seed: Number(process.env.DEMO_SEED ?? 7),
  script: descriptionRule(),
});
const home = path.join(work, 'home');
process.stderr.write(`SIMULATED demo: the real claude CLI against the simulated model at ${model.url}\n`);
const child = spawn(process.execPath, [path.join(root, 'bin', 'skilltrigger.js'), ...args], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    PATH: process.env.PATH ?? '',
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    HOME: home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'sk-simulated',
    SKILLTRIGGER_SIMULATED: '1',
  },
});
const forward = (signal) => child.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
const code = await new Promise((resolve) => child.on('exit', (c, s) => resolve(c ?? (s ? 130 : 1))));
await model.close();
if (mode === 'init' && code === 0) {
  // The draft lives in the temporary copy: show it before the copy goes.
  process.stdout.write(`\n${await readFile(path.join(skill, 'evals', 'evals.json'), 'utf8')}`);
}
await rm(work, { recursive: true, force: true });
process.exitCode = code;
