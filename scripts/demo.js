#!/usr/bin/env node
// The offline demo: the real skilltrigger CLI and the real `claude` binary, pointed at the
// project's simulated model on 127.0.0.1 instead of Anthropic's API. Every number it prints is
// SIMULATED: the simulated model loads the stub with a probability set by how well the listed
// description covers the query's words (src/simulated/text-rule.ts, docs/cli.md, "The simulated model").
//
// `npm run demo -- --help` lists its modes (MODES below).
import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { halveHoldout } from './demo-holdout.js';
import { libIsCurrent } from './lib-fresh.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The demo's modes, as `npm run demo -- --help` lists them. */
const MODES = {
  run: 'measure the example skill (the default; --skill <dir> [--eval <file>] measures any skill)',
  improve: "the author's loop on a copy of the example skill: one rewrite of its description, judged",
  init: 'draft an eval set for a copy of the example skill',
  matrix: 'the routing matrix of every example skill: which one each query loads',
};
const HELP = `npm run demo -- [mode] [options]: the real skilltrigger CLI and the real agent binaries against
the simulated model on 127.0.0.1, offline; every number it prints is SIMULATED.

Modes:
${Object.entries(MODES)
  .map(([name, what]) => `  ${name.padEnd(9)}${what}`)
  .join('\n')}

Options: any option of the mode's command (node bin/skilltrigger.js <mode> --help lists them), e.g.
  npm run demo -- --skill path/to/skill --eval path/to/evals.json   any skill, offline
  npm run demo -- --agent claude,codex                              the example on Claude Code and Codex
  npm run demo -- --agent claude,codex,gemini                       …and on Gemini CLI
  npm run demo -- --context-fill 20000                              fresh against mid-session, each query both ways
  npm run demo -- improve --runs 4 --iterations 2                   a longer author's loop
DEMO_SEED=<n> changes the simulated model's seed (default 7).
`;
const first = process.argv[2];
if (first === '--help' || first === '-h' || first === 'help') {
  process.stdout.write(HELP);
  process.exit(0);
}
if (first !== undefined && !first.startsWith('-') && !Object.hasOwn(MODES, first)) {
  const near = Object.keys(MODES).find((m) => m.startsWith(first.slice(0, 3)));
  process.stderr.write(
    `demo: there is no mode "${first}"${near ? `: did you mean ${near}?` : ''} (npm run demo -- --help lists the modes)\n`,
  );
  process.exit(1);
}

// The TypeScript build takes ~10 s: done only when lib/ is missing or older than a source or config
// (scripts/lib-fresh.js). It is atomic, so a demo started during another build reads a whole lib/.
if (!libIsCurrent(root)) {
  process.stderr.write('demo: building lib/ from src/ (it is missing or older than the sources)…\n');
  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// Imported once lib/ is current: a static import would load the stale (or missing) build.
const { descriptionRule } = await import(
  pathToFileURL(path.join(root, 'lib', 'simulated', 'description-script.js')).href
);
const { startSimulatedModel } = await import(
  pathToFileURL(path.join(root, 'lib', 'simulated', 'model.js')).href
);
const example = path.join(root, 'examples', 'handoff');
const claude = path.join(root, 'node_modules', '.bin', 'claude');
const codex = path.join(root, 'node_modules', '.bin', 'codex');
const gemini = path.join(root, 'node_modules', '.bin', 'gemini');

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
const extraHas = (flag) => process.argv.slice(2).some((a) => a === flag || a.startsWith(`${flag}=`));

/** The example's eval set with half of its holdout, for the improve demo (scripts/demo-holdout.js). */
async function halveHoldoutFile(file) {
  const kept = halveHoldout(JSON.parse(await readFile(file, 'utf8')));
  await writeFile(file, `${JSON.stringify(kept, null, 2)}\n`);
}
const mode = Object.hasOwn(MODES, extra[0] ?? '') ? extra.shift() : 'run';
const work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-demo-'));
let skill = take(extra, 'skill') ?? example;
let evalFile = take(extra, 'eval') ?? path.join(skill, 'evals.json');
if (mode === 'improve' || mode === 'init') {
  // The author's commands write next to the skill (init) or may edit it (improve --write): a copy.
  const copy = path.join(work, path.basename(skill));
  await cp(skill, copy, { recursive: true });
  if (evalFile.startsWith(skill + path.sep)) evalFile = path.join(copy, path.relative(skill, evalFile));
  if (mode === 'improve' && skill === example && !extraHas('--eval')) await halveHoldoutFile(evalFile);
  skill = copy;
}
// The improve demo is one real rewrite, judged: the original measured, one candidate measured paired
// against it on train and accepted or rejected with its evidence (and, accepted, checked on the
// holdout), in about 100 runs instead of ~460 (--iterations 3, --runs auto up to 6: ~6 minutes).
// --runs auto:3 stops each query once its pass/fail is settled, after 2 or 3 runs; the warm
// standby (improve's default, --standby N overrides) takes claude's start-up off each run.
// --runs, --iterations and --standby given on the command line win.
if (mode === 'improve' && !extra.some((a) => a.startsWith('--runs'))) extra.push('--runs', 'auto:3');
if (mode === 'improve' && !extra.some((a) => a.startsWith('--iterations'))) extra.push('--iterations', '1');
// --context-fill N: the mid-session arm beside the fresh one. Each query is measured fresh and with
// N characters of the shipped coding conversation before it (--versus-fresh, docs/context.md), and
// the simulated model loads less often after earlier turns (its CONTEXT_FACTOR).
if (mode === 'run' && extraHas('--context-fill') && !extraHas('--versus-fresh')) extra.push('--versus-fresh');
// --roster examples/crowd: the example among 85 never-used skills. On a model of 200k tokens the
// listing's budget is 8,000 characters, and the crowd before the example's folder takes all of it, so
// the stub is listed by its name alone and the simulated model reads the name (docs/roster.md).
if (extraHas('--roster') && !extraHas('--model')) extra.push('--model', 'claude-sonnet-4-5');
// The matrix measures the example skills together (handoff, standup, changelog): the folders of
// examples/ holding a SKILL.md, copied into one folder (examples/crowd is a roster, not entrants).
async function exampleSkills() {
  const folder = path.join(work, 'examples');
  await mkdir(folder);
  for (const entry of await readdir(path.dirname(example), { withFileTypes: true })) {
    const dir = path.join(path.dirname(example), entry.name);
    const isSkill = await readFile(path.join(dir, 'SKILL.md')).then(
      () => true,
      () => false,
    );
    if (entry.isDirectory() && isSkill) await cp(dir, path.join(folder, entry.name), { recursive: true });
  }
  return folder;
}
const args =
  mode === 'init'
    ? ['init', '--skill', skill, '--claude', claude, ...extra]
    : mode === 'matrix'
      ? ['matrix', '--skills', take(extra, 'skills') ?? (await exampleSkills()), '--claude', claude, ...extra]
      : mode === 'run' && !extraHas('--eval')
        ? // run finds the skill's own eval set (evals.json beside the example's SKILL.md) and names it.
          ['run', '--skill', skill, '--claude', claude, ...extra]
        : [mode, '--skill', skill, '--eval', evalFile, '--claude', claude, ...extra];

// A --roster run's stub is listed under the skill's own folder name (docs/roster.md).
const folder = path.basename(path.resolve(skill));
const model = await startSimulatedModel({
  seed: Number(process.env.DEMO_SEED ?? 7),
  isStub: (entry) => entry.name === folder || /-stub-[0-9a-f]{8}$/.test(entry.name),
  script: descriptionRule(),
});
const home = path.join(work, 'home');
process.stderr.write(`SIMULATED demo: the real agent CLIs against the simulated model at ${model.url}\n`);
const child = spawn(process.execPath, [path.join(root, 'bin', 'skilltrigger.js'), ...args], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    PATH: process.env.PATH ?? '',
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    HOME: home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'sk-simulated',
    // With --agent codex: the pinned codex, and the same simulated model's Responses API.
    SKILLTRIGGER_CODEX: codex,
    OPENAI_BASE_URL: `${model.url}/v1`,
    OPENAI_API_KEY: 'sk-simulated',
    // With --agent gemini: the pinned Gemini CLI, and the same simulated model's Gemini API.
    SKILLTRIGGER_GEMINI: gemini,
    GOOGLE_GEMINI_BASE_URL: model.url,
    GEMINI_API_KEY: 'sk-simulated',
    SKILLTRIGGER_SIMULATED: '1',
  },
});
const forward = (signal) => child.kill(signal);
process.on('SIGINT', forward);
process.on('SIGTERM', forward);
const code = await new Promise((resolve) => child.on('exit', (c, s) => resolve(c ?? (s ? 130 : 1))));
await model.close();
if (mode === 'init' && code === 0) {
  // The draft lives in the temporary copy, removed below: show it, and keep a copy where the
  // reports go (never over an earlier draft).
  const draft = await readFile(path.join(skill, 'evals', 'evals.json'), 'utf8');
  const keptDir = path.resolve('skilltrigger-results');
  await mkdir(keptDir, { recursive: true });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const kept = path.join(keptDir, `demo-init-${path.basename(skill)}-evals-${stamp}.json`);
  await writeFile(kept, draft, { flag: 'wx' });
  process.stdout.write(`\n${draft}`);
  process.stdout.write(
    `\ndemo: the draft above was written into a temporary copy of the skill, now removed; it is kept at ${kept}\n`,
  );
}
if (mode === 'run' && code === 0 && !extraHas('--skill'))
  process.stdout.write(
    "demo: next, still offline: npm run demo -- improve   # one rewrite of the example's description, judged\n",
  );
await rm(work, { recursive: true, force: true });
process.exitCode = code;
