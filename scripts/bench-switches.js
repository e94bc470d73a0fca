#!/usr/bin/env node
// `npm run build && node scripts/bench-switches.js [N] NAME=VALUE[,NAME=VALUE…] …`: for each set of
// environment switches, N bare `claude -p` runs interleaved with N runs in skilltrigger's own
// environment (`claudeEnvironment`), in fresh HOMEs and temp projects, against the simulated model.
// Prints, per set, the medians of spawn → first request, spawn → exit and the process's CPU, and
// whether its first request body is the base one (folders, HOME, session ids and the stub's random
// hex normalised). A switch is worth keeping only with the same body and a saving above the noise
// (docs/speed.md, "The CLI's start-up, looked into"). Measures; asserts nothing. Linux (/usr/bin/time).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeArgs, claudeEnvironment } from '../lib/agents/claude/launch.js';
import { createStubProject } from '../lib/agents/process/stub-project.js';
import { startSimulatedModel } from '../lib/simulated/model.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const claude = path.join(root, 'node_modules', '.bin', 'claude');
const args = process.argv.slice(2);
const runs = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 4;
/** `base` first: skilltrigger's environment as it is; then one entry per argument. */
const sets = [
  ['base', {}],
  ...args.map((arg) => [arg, Object.fromEntries(arg.split(',').map((pair) => pair.split('=', 2)))]),
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The first request's body without what differs from run to run whatever the switches. */
function normalised(body, project, home) {
  const { metadata: _, ...rest } = body;
  const base = path.join(project.dir, '..');
  return JSON.stringify(rest)
    .split(base)
    .join('<base>')
    .split(base.replace(/[/.]/g, '-'))
    .join('<slug>')
    .split(home)
    .join('<home>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/-stub-[0-9a-f]{8}/g, '-stub-<hex>');
}

/** One run to its end; what the model server and /usr/bin/time saw of it. */
async function oneRun(model, extra) {
  const tmp = await realpath(os.tmpdir());
  const home = await mkdtemp(path.join(tmp, 'skilltrigger-switches-home-'));
  const project = await createStubProject({
    layout: 'command',
    skillName: 'switches',
    description: 'Write HANDOFF.md for the next session',
    root: tmp,
  });
  try {
    const base = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-test',
    };
    const env = { ...claudeEnvironment(base, 0), ...extra, TMPDIR: project.tmpDir };
    const timeFile = path.join(home, 'time.txt');
    const from = model.requests.length;
    const started = Date.now();
    await new Promise((resolve) => {
      const child = spawn(
        '/usr/bin/time',
        ['-f', '%U %S', '-o', timeFile, claude, ...claudeArgs('write a handoff note')],
        {
          cwd: project.dir,
          env,
          stdio: 'ignore',
        },
      );
      child.on('close', resolve);
    });
    const exit = Date.now() - started;
    const [user, system] = (await readFile(timeFile, 'utf8'))
      .trim()
      .split('\n')
      .at(-1)
      .split(' ')
      .map(Number);
    const first = model.requests.slice(from).find((r) => r.method === 'POST' && r.turn === 1);
    return {
      request: first ? first.at - started : Number.NaN,
      exit,
      cpu: (user + system) * 1000,
      body: first
        ? createHash('sha256')
            .update(normalised(first.body, project, home))
            .digest('hex')
            .slice(0, 12)
        : 'none',
    };
  } finally {
    await project.remove();
    await rm(home, { recursive: true, force: true });
  }
}

async function main() {
  const model = await startSimulatedModel({ recordBodies: true, chunkDelayMs: 0 });
  const results = new Map(sets.map(([name]) => [name, []]));
  try {
    // Interleaved, so a drift of the machine's load hits every set alike.
    for (let i = 0; i < runs; i++)
      for (const [name, extra] of sets) results.get(name).push(await oneRun(model, extra));
  } finally {
    await model.close();
  }
  const baseBody = results.get('base')[0]?.body;
  console.log(`${runs} runs per set, interleaved; load average (1 min) now ${os.loadavg()[0].toFixed(2)}`);
  for (const [name, rs] of results) {
    const bodies = new Set(rs.map((r) => r.body));
    const same =
      bodies.size === 1 && bodies.has(baseBody) ? 'same body' : `BODY DIFFERS (${[...bodies].join(', ')})`;
    const figure = (key) => `${median(rs.map((r) => r[key])).toFixed(0)} ms`;
    console.log(
      `${name}: request ${figure('request')}, exit ${figure('exit')}, CPU ${figure('cpu')}, ${same}`,
    );
  }
}

await main();
