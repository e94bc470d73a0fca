// `node scripts/gemini-startup.js [runs]`: how long the pinned Gemini CLI takes from its start to
// its first model request, three ways, against a loopback model that answers "pong" at once
// (docs/gemini.md "Start-up and a warm standby"). Each way runs `runs` times (default 3), in a
// throwaway home with the measured runs' settings:
// - cold: `gemini -p <query>`; the time from the spawn to the first request;
// - stdin: `gemini -p ""` with the query written to its stdin 3 s after the spawn; the time from
//   the write to the first request (start-up done ahead, if stdin waited for it);
// - acp: `gemini --acp`, `initialize` and `session/new` sent at once, `session/prompt` 3 s later;
//   the time from the prompt to the first request.
// It prints one JSON line per run and asserts nothing.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const BIN = path.resolve('node_modules/.bin/gemini');
const RUNS = Number(process.argv[2] ?? 3);
const HEAD_START_MS = 3000;

async function folders() {
  const base = await mkdtemp(path.join(os.tmpdir(), 'skilltrigger-gemini-startup-'));
  const home = path.join(base, 'home');
  const project = path.join(base, 'project');
  await mkdir(path.join(home, '.gemini', 'policies'), { recursive: true });
  await mkdir(path.join(base, 'tmp'));
  await mkdir(path.join(project, '.agents', 'skills', 'pdf'), { recursive: true });
  await writeFile(
    path.join(project, '.agents', 'skills', 'pdf', 'SKILL.md'),
    '---\nname: pdf\ndescription: PDFs.\n---\n',
  );
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      maxAttempts: 1,
      retryFetchErrors: false,
    },
  };
  await writeFile(path.join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
  return { base, home, project, tmp: path.join(base, 'tmp') };
}

async function model() {
  const state = { first: undefined };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.first ??= Date.now();
      const part = { text: 'pong' };
      const chunk = {
        candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(chunk)}\n\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { state, url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

function start(args, f, url, stdin) {
  const env = {
    PATH: process.env.PATH,
    HOME: f.home,
    GEMINI_CLI_HOME: f.home,
    TMPDIR: f.tmp,
    GEMINI_API_KEY: 'startup-probe',
    GOOGLE_GEMINI_BASE_URL: url,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_CLI_NO_RELAUNCH: 'true',
  };
  return spawn(BIN, [...args, '-m', 'startup-probe', '--approval-mode', 'yolo'], {
    cwd: f.project,
    env,
    stdio: [stdin, 'pipe', 'ignore'],
  });
}

const exited = (child) => new Promise((resolve) => child.once('exit', resolve));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function cold(f, m) {
  const t0 = Date.now();
  const child = start(['--output-format', 'stream-json', '-p', 'hello'], f, m.url, 'ignore');
  child.stdout.resume();
  await exited(child);
  return { way: 'cold', toFirstRequestMs: m.state.first - t0 };
}

async function stdin(f, m) {
  const child = start(['--output-format', 'stream-json', '-p', ''], f, m.url, 'pipe');
  child.stdout.resume();
  await sleep(HEAD_START_MS);
  const t = Date.now();
  child.stdin.end('hello\n');
  await exited(child);
  return { way: 'stdin', toFirstRequestMs: m.state.first - t };
}

async function acp(f, m) {
  const child = start(['--acp'], f, m.url, 'pipe');
  let buffer = '';
  let id = 0;
  const waiting = new Map();
  child.stdout.on('data', (data) => {
    buffer += data;
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, at));
      buffer = buffer.slice(at + 1);
      waiting.get(message.id)?.(message);
    }
  });
  const call = (method, params) =>
    new Promise((resolve) => {
      id += 1;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  const t0 = Date.now();
  await call('initialize', { protocolVersion: 1, clientCapabilities: {} });
  const session = await call('session/new', { cwd: f.project, mcpServers: [] });
  const readyMs = Date.now() - t0;
  await sleep(HEAD_START_MS);
  const t = Date.now();
  await call('session/prompt', {
    sessionId: session.result.sessionId,
    prompt: [{ type: 'text', text: 'hello' }],
  });
  child.kill('SIGKILL');
  return { way: 'acp', readyMs, toFirstRequestMs: m.state.first - t };
}

for (const way of [cold, stdin, acp]) {
  for (let i = 0; i < RUNS; i++) {
    const f = await folders();
    const m = await model();
    try {
      console.log(JSON.stringify({ ...(await way(f, m)), load: os.loadavg()[0].toFixed(1) }));
    } finally {
      m.close();
      await rm(f.base, { recursive: true, force: true });
    }
  }
}
