#!/usr/bin/env node
/**
 * Records what each registered agent's decision reads, from its REAL pinned binary against the
 * simulated model, one folder per case: `__tests__/fixtures/streams/<agent>/<case>/` with the
 * lines as the binary wrote them (`stdout.jsonl`, and Codex's session rollout, `rollout.jsonl`),
 * and `run.json` (the case, the process's exit, the stub's and the sibling's identities).
 * The runs go to their natural end (the harness would kill them at the decision); a run that never
 * ends is killed a moment after its request, as a stream that ended undecided. The temp folder
 * becomes /tmp/skilltrigger-REC and the loopback port 127.0.0.1:PORT, so a recording names nothing
 * of the machine. Usage (builds lib/ first; the README beside the recordings says more):
 *
 *   npm run build --silent && node scripts/record-streams.js [agent…]
 */
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { claudeArgs, claudeEnvironment } from '../lib/agents/claude/launch.js';
import { writeCodexConfig } from '../lib/agents/codex/config-file.js';
import { codexArgs, codexEnv } from '../lib/agents/codex/launch.js';
import { createCodexStubProject } from '../lib/agents/codex/stub.js';
import { geminiArgs, geminiEnv } from '../lib/agents/gemini/launch.js';
import { createGeminiStubProject } from '../lib/agents/gemini/stub.js';
import { AGENT_IDS } from '../lib/agents/ids.js';
import { spawnInGroup } from '../lib/agents/process/group.js';
import { createStubProject } from '../lib/agents/process/stub-project.js';
import { agentFacts } from '../lib/agents/registry.js';
import { stubFieldsFor } from '../lib/inputs/listing.js';
import { startSimulatedModel } from '../lib/simulated/model.js';
import { listedNameOf } from '../lib/simulated/route.js';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const out = path.join(repo, '__tests__/fixtures/streams');
const SKILL = { skillName: 'handoff', description: 'Write HANDOFF.md summarising the session' };
const SIBLING = { skillName: 'pdf', description: 'Fill PDF forms' };
const KEY = 'recording-key';
/** How long a run that never ends is left running after its request reached the model. */
const UNDECIDED_AFTER_MS = 1500;

/**
 * The cases every agent is recorded on, by the model's first answer; what each must decide is the
 * shared test's (__tests__/agents/conformance.test.ts). `undecided`: the model stalls after the
 * answer's start, and the process is killed.
 */
const CASES = {
  hit: { behaviour: (req) => ({ kind: 'skill', name: listedNameOf(req, 'handoff') }) },
  'miss-text': { behaviour: () => ({ kind: 'text' }) },
  sibling: { behaviour: (req) => ({ kind: 'skill', name: listedNameOf(req, 'pdf') }) },
  late: { behaviour: () => ({ kind: 'late-skill' }) },
  'api-error': { behaviour: () => ({ kind: 'api-error', status: 500, noRetry: true }) },
  undecided: { behaviour: () => ({ kind: 'stall' }), kill: true },
};

/**
 * Each agent's run as its own launch module starts one (argv and environment) in its own stub
 * project; `identity` is what its decision reader is made with.
 */
const LAUNCH = {
  async claude({ query, root, home, url }) {
    const project = await createStubProject({
      layout: 'command',
      skillName: SKILL.skillName,
      ...stubFieldsFor(SKILL.description),
      siblings: [{ skillName: SIBLING.skillName, ...stubFieldsFor(SIBLING.description) }],
      root,
    });
    const base = {
      PATH: process.env.PATH,
      HOME: home,
      TMPDIR: project.tmpDir,
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: KEY,
    };
    return {
      cwd: project.dir,
      args: claudeArgs(query),
      env: claudeEnvironment(base, 0),
      identity: { stub: project.stub, siblings: project.siblings },
      files: async () => ({}),
      remove: project.remove,
    };
  },
  async codex({ query, root, url }) {
    const project = await createCodexStubProject({ ...SKILL, siblings: [SIBLING], root });
    const provider = { baseUrl: `${url}/v1`, apiKey: KEY };
    await writeCodexConfig(project.codexHome, provider);
    return {
      cwd: project.dir,
      args: codexArgs(query, provider),
      env: codexEnv({ PATH: process.env.PATH, HOME: project.tmpDir }, project, provider),
      identity: { stub: project.stub, siblings: project.siblings },
      files: async () => ({ 'rollout.jsonl': await rolloutOf(path.join(project.codexHome, 'sessions')) }),
      remove: project.remove,
    };
  },
  async gemini({ query, root, url }) {
    const project = await createGeminiStubProject({ ...SKILL, siblings: [SIBLING], root });
    // As its loop agent does: without -m, Gemini CLI first asks a router model which model to use.
    const provider = { baseUrl: url, apiKey: KEY, model: agentFacts('gemini').defaultModel(undefined) };
    return {
      cwd: project.dir,
      args: geminiArgs(query, provider),
      env: geminiEnv({ PATH: process.env.PATH }, project, provider),
      identity: { stub: project.stub, siblings: project.siblings, projectDir: project.dir },
      files: async () => ({}),
      remove: project.remove,
    };
  },
};

/** The one session rollout Codex wrote under `sessions/YYYY/MM/DD/`. */
async function rolloutOf(sessions) {
  const files = (await readdir(sessions, { recursive: true })).filter((f) => /rollout-.*\.jsonl$/.test(f));
  if (files.length !== 1) throw new Error(`expected one rollout under ${sessions}, found ${files.length}`);
  return readFile(path.join(sessions, files[0]), 'utf8');
}

/** One case of one agent, run to its end; what it wrote, its exit, and the stub's identities. */
async function record(id, name, model, requested) {
  const root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-rec-'));
  const home = path.join(root, 'home');
  await mkdir(home);
  const query = `record: ${name} #${id}`;
  const launch = await LAUNCH[id]({ query, root, home, url: model.url });
  try {
    const child = spawnInGroup({
      bin: path.join(repo, 'node_modules/.bin', agentFacts(id).bin),
      args: launch.args,
      cwd: launch.cwd,
      env: launch.env,
    });
    const lines = [];
    const reading = (async () => {
      for await (const line of child.lines) lines.push(line);
    })();
    const limit = setTimeout(() => void child.kill(), 60_000);
    if (CASES[name].kill)
      void requested(query).then(() => setTimeout(() => void child.kill(), UNDECIDED_AFTER_MS));
    const exit = await child.exited;
    clearTimeout(limit);
    await reading;
    await child.kill();
    const files = {
      'stdout.jsonl': lines.length === 0 ? '' : `${lines.join('\n')}\n`,
      ...(await launch.files()),
    };
    return { files, exit, identity: launch.identity, places: [root, await realpath(root)] };
  } finally {
    await launch.remove();
    await rm(root, { recursive: true, force: true });
  }
}

/** The text with the run's temp folder and the model's port replaced, so it names nothing of this machine. */
function normalise(text, places) {
  let normal = text;
  for (const place of places) normal = normal.split(place).join('/tmp/skilltrigger-REC');
  return normal.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
}

/** Strings longer than this (instructions, tool lists) are cut in a recording: no decision reads them. */
const LONGEST = 600;

/** One JSON line with its long strings cut (`…[cut N]`); a line that is not JSON as it is. */
function cutLine(line) {
  try {
    return JSON.stringify(JSON.parse(line), (_key, value) =>
      typeof value === 'string' && value.length > LONGEST
        ? `${value.slice(0, 200)}…[cut ${value.length - 200}]`
        : value,
    );
  } catch {
    return line;
  }
}

const cutLines = (text) =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : cutLine(line)))
    .join('\n');

async function main() {
  const ids = process.argv.length > 2 ? process.argv.slice(2) : [...AGENT_IDS];
  const waiting = new Map();
  const requested = (query) => new Promise((resolve) => waiting.set(query, resolve));
  const model = await startSimulatedModel({
    chunkDelayMs: 0,
    // The stub is the tested skill's: a late load names it, not the sibling's stub.
    isStub: (entry) => /^handoff-stub-[0-9a-f]{8}$/.test(entry.name),
    script: (req) => {
      const [, name] = /^record: (\S+) #/.exec(req.query) ?? [];
      waiting.get(req.query)?.();
      return name === undefined ? undefined : CASES[name]?.behaviour(req);
    },
  });
  try {
    for (const id of ids) {
      for (const name of Object.keys(CASES)) {
        const run = await record(id, name, model, requested);
        const folder = path.join(out, id, name);
        await rm(folder, { recursive: true, force: true });
        await mkdir(folder, { recursive: true });
        for (const [file, text] of Object.entries(run.files))
          await writeFile(path.join(folder, file), cutLines(normalise(text, run.places)));
        const meta = {
          agent: id,
          version: agentFacts(id).pinnedVersion,
          case: name,
          exit: run.exit,
          ...run.identity,
        };
        await writeFile(
          path.join(folder, 'run.json'),
          `${normalise(JSON.stringify(meta, null, 2), run.places)}\n`,
        );
        console.log(`${id} ${name}: ${Object.keys(run.files).join(', ')}; exit ${JSON.stringify(run.exit)}`);
      }
    }
  } finally {
    await model.close();
  }
}

await main();
