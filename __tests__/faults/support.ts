import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { chmod, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { reportSchema } from '../../src/schemas/report.js';
import type { Behaviour, Script } from '../../src/simulated/model.js';
import type { CliWorld } from '../fakes/cli.js';

/**
 * What the fault suites share: a script table for the simulated model, stand-in `claude` scripts,
 * and the checks that a run left nothing behind (temp projects, processes).
 */

/**
 * Whether this machine lets us mount a tmpfs in a private mount namespace (`unshare -m`), where a
 * read-only or full filesystem can be made for one process without touching the machine.
 */
export function canMountTmpfs(): boolean {
  const probe = mkdtempSync(path.join(tmpdir(), 'skilltrigger-mount-probe-'));
  try {
    const args = ['-m', '--', 'mount', '-t', 'tmpfs', '-o', 'ro,size=64k', 'none', probe];
    return spawnSync('unshare', args, { stdio: 'ignore' }).status === 0;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** Routes each query to its behaviour; queries not in the table get the default (`pong` for the gate). */
export function scriptTable(table: Map<string, Behaviour | Script>): Script {
  return (req, ctx) => {
    const entry = table.get(req.query);
    return typeof entry === 'function' ? entry(req, ctx) : entry;
  };
}

/**
 * One fault case of `skilltrigger run` on `skill`: a two-query eval set (one positive, one negative,
 * the smallest the loader accepts) whose queries `table` routes to the given behaviours, the case's
 * own TMPDIR and results folder, and the `run` argv (one run each, no retries) without `--out`.
 */
export async function faultCase(
  world: CliWorld,
  table: Map<string, Behaviour | Script>,
  skill: string,
  c: { name: string; positive: Behaviour; negative: Behaviour },
) {
  const queries = { positive: `${c.name}-pos write the handoff`, negative: `${c.name}-neg unrelated chore` };
  table.set(queries.positive, c.positive);
  table.set(queries.negative, c.negative);
  const evalFile = await world.write(
    `${c.name}.json`,
    JSON.stringify([
      { query: queries.positive, should_trigger: true },
      { query: queries.negative, should_trigger: false },
    ]),
  );
  const { tmp, env } = await world.tmpEnv(c.name);
  const out = path.join(world.work, `out-${c.name}`);
  const args = ['run', '--skill', skill, '--eval', evalFile, '--runs', '1', '--max-retries', '0'];
  return { queries, evalFile, tmp, out, args, env };
}

/** The one report in `dir` (exactly one JSON file there), parsed. */
export async function onlyReport(dir: string) {
  const json = (await readdir(dir)).filter((f) => f.endsWith('.json'));
  expect(json).toHaveLength(1);
  return reportSchema.parse(JSON.parse(await readFile(path.join(dir, json[0] ?? ''), 'utf8')));
}

/** Writes an executable `#!/bin/sh` script (a stand-in for claude, or a wrapper around it). */
export async function shellScript(
  dir: string,
  name: string,
  body: string,
  executable = true,
): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, executable ? 0o755 : 0o644);
  return file;
}

/**
 * Temp projects (`skilltrigger-*`) left in a folder; claude itself keeps `cc-socks/` there, and a
 * refused report goes to `skilltrigger-unsaved-*`, which is meant to stay.
 */
export async function projectsLeft(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter(
    (name) => name.startsWith('skilltrigger-') && !name.startsWith('skilltrigger-unsaved-'),
  );
}

/**
 * What claude made for skilltrigger's temp projects in the config folder of `home`
 * (`~/.claude/projects/<slug>/`): none may be left (docs/home.md).
 */
export async function claudeProjectsLeft(home: string): Promise<string[]> {
  const names = await readdir(path.join(home, '.claude', 'projects')).catch(() => [] as string[]);
  return names.filter((name) => name.includes('-skilltrigger-'));
}

interface ProcessRow {
  pid: number;
  pgid: number;
  args: string;
}

function processes(): ProcessRow[] {
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), pgid: Number(m[2]), args: m[3] ?? '' }));
}

/**
 * Processes whose working directory is under `dir` (Linux /proc): the claudes of the temp projects
 * in a case's own TMPDIR, whether their query is in their argv (a cold run) or was written to their
 * stdin (a standby), and whatever they started there.
 */
export function processesUnder(dir: string): ProcessRow[] {
  return processes().filter((p) => {
    try {
      const cwd = readlinkSync(`/proc/${p.pid}/cwd`);
      return cwd === dir || cwd.startsWith(`${dir}/`);
    } catch {
      return false; // gone meanwhile, or not ours to read
    }
  });
}

/** Processes whose command line holds `marker` (a unique argument the test gave them). */
export function processesWith(marker: string): ProcessRow[] {
  return processes().filter((p) => p.args.includes(marker) && !p.args.includes('ps -eo'));
}

/** The process group of this test process (and of every child it did not detach). */
export function ownGroup(): number | undefined {
  return processes().find((p) => p.pid === process.pid)?.pgid;
}

/**
 * Processes still alive in any of these process groups (a claude group a test saw while it ran).
 * A zombie is dead: where PID 1 of a container does not reap orphans, a killed group's children
 * stay listed as `<defunct>`, and that is not a process left running.
 */
export function processesInGroups(pgids: ReadonlySet<number>): ProcessRow[] {
  return processes().filter(
    (p) => pgids.has(p.pgid) && !p.args.includes('ps -eo') && !p.args.endsWith('<defunct>'),
  );
}

/** Ends processes this test started, by pid (never by name). */
export function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` every 50 ms until it holds or `timeoutMs` passes. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await condition()) return true;
    await sleep(50);
  }
  return false;
}
