/**
 * `skilltrigger preflight --agent codex` as a process, through the REAL `codex` against the
 * simulated model (a user's gateway: OPENAI_BASE_URL and CODEX_API_KEY), with a throwaway HOME and
 * TMPDIR: the gates pass and print as Codex's, a missing key exits 2 with the fix, and a Ctrl-C
 * during the round trip leaves no process, no temp folder and no CODEX_HOME, and HOME untouched.
 */
import { readdirSync } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_ROUND_TRIP_QUERY } from '../../src/agents/codex/launch.js';
import type { SimulatedModel } from '../../src/simulated/model.js';
import { actWhen, type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { liveProcessesIn } from '../fakes/process-group.js';

const CODEX_BIN = path.resolve('node_modules/.bin/codex');
const HANG_MODEL = 'gpt-hang';

let world: CliWorld;
let model: SimulatedModel;
let skillDir = '';

beforeAll(async () => {
  world = await startCliWorld({
    name: 'codex-preflight',
    model: {
      chunkDelayMs: 0,
      script: (req) =>
        req.query === CODEX_ROUND_TRIP_QUERY && req.model === HANG_MODEL ? { kind: 'hang' } : undefined,
    },
  });
  model = world.model;
  skillDir = path.dirname(
    await world.write(
      'skills/release-notes/SKILL.md',
      '---\nname: release-notes\ndescription: Draft release notes from the merged pull requests\n---\n\nBody.\n',
    ),
  );
});

afterAll(async () => {
  await world?.close();
});

/**
 * A fresh HOME and TMPDIR for one CLI run, and the environment pointing at the simulated model:
 * Codex's own, not the world's claude environment, since each case checks its HOME is left empty.
 */
async function codexCase(name: string, key: string | null = 'sk-test-codex-preflight') {
  // Resolved: the processes' working directories are compared with the TMPDIR.
  const home = await realpath(await world.dir(`${name}-home`));
  const tmp = await realpath(await world.dir(`${name}-tmp`));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: tmp,
    OPENAI_BASE_URL: `${model.url}/v1`,
    CI: 'true',
    ...(key === null ? {} : { CODEX_API_KEY: key }),
  };
  return { home, tmp, env };
}

const args = (...extra: string[]) => [
  'preflight',
  '--agent',
  'codex',
  '--codex',
  CODEX_BIN,
  '--skill',
  skillDir,
  '--out',
  path.join(world.work, 'out'),
  ...extra,
];

describe('skilltrigger preflight --agent codex', () => {
  it("runs Codex's gates, not Claude Code's, and passes", async () => {
    const { home, tmp, env } = await codexCase('pass');
    const r = await runCli(args('--model', 'gpt-sim'), { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(
      lines.map((l) => /^(ok|warn|fail|skip)\s+(codex [a-z-]+|[a-z-]+)/.exec(l)?.slice(1).join(' ') ?? l),
    ).toEqual([
      'ok codex cli',
      'ok codex auth',
      'ok codex round-trip',
      'ok codex conflict',
      'ok codex roster',
      'ok sleep',
      'preflight passed',
    ]);
    expect(r.stdout).not.toContain('sk-test-codex-preflight');
    expect(await readdir(tmp)).toEqual([]);
    expect(await readdir(home)).toEqual([]);
  }, 300_000);

  it('without a key exits 2 with the fix, before any request', async () => {
    const { env } = await codexCase('nokey', null);
    const before = model.requests.length;
    const r = await runCli(args(), { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/fail {2}codex auth\s+no CODEX_API_KEY or OPENAI_API_KEY/);
    expect(r.stdout).toMatch(/fix: export CODEX_API_KEY=/);
    expect(r.stdout).toContain('preflight failed');
    expect(model.requests.length).toBe(before);
  }, 300_000);

  it('Ctrl-C during the round trip leaves no process, no temp folder, no CODEX_HOME, and HOME as it was', async () => {
    const { home, tmp, env } = await codexCase('sigint');
    let atSignal: string[] = [];
    let codexAtSignal: string[] = [];
    const sent = actWhen(
      // The round trip's request reached the provider, and hangs there: interrupt.
      () =>
        model.requests.some((q) => q.view?.query === CODEX_ROUND_TRIP_QUERY && q.view.model === HANG_MODEL),
      (child) => {
        // The run's folder (project, CODEX_HOME, TMPDIR) and its codex are there when Ctrl-C comes.
        atSignal = readdirSync(tmp);
        codexAtSignal = liveProcessesIn(tmp).filter((p) => !p.startsWith(`${child.pid} `));
        child.kill('SIGINT');
      },
      50,
    );
    const r = await runCli(args('--model', HANG_MODEL), { env, onStart: sent.onStart });
    expect(sent.done()).toBe(true);
    expect(atSignal.filter((f) => f.startsWith('skilltrigger-')).length).toBeGreaterThan(0);
    expect(codexAtSignal.join('\n')).toMatch(/codex/);
    expect(r.stderr).toContain('preflight interrupted');
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/skip {2}codex round-trip\s+interrupted/);
    expect(liveProcessesIn(tmp)).toEqual([]);
    expect(await readdir(tmp)).toEqual([]);
    expect(await readdir(home)).toEqual([]);
  }, 300_000);
});
