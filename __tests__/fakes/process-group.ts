import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { spawnClaude } from '../../src/agents/claude/process.js';
import type { RunDeps } from '../../src/agents/claude/run-once.js';
import { createStubProject } from '../../src/agents/process/stub-project.js';
import {
  type RecordedRequest,
  type SimulatedModelOptions,
  startSimulatedModel,
} from '../../src/simulated/model.js';
import { makeClaudeEnv } from './claude-env.js';

/**
 * The processes of a group that can still run (Linux /proc): a zombie cannot, and here PID 1 does
 * not reap the orphans a SIGKILLed claude leaves (its `git`), so `kill(-pgid, 0)` alone would
 * count them. Each entry is `<pid> <pid (comm)>`, for a failure message.
 */
export function liveMembers(pgid: number): string[] {
  const live: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses, so split after the last ')'.
    const close = stat.lastIndexOf(')');
    const [state, , group] = stat.slice(close + 2).split(' ');
    if (Number(group) === pgid && state !== 'Z' && state !== 'X')
      live.push(`${entry} ${stat.slice(0, close + 1)}`);
  }
  return live;
}

/**
 * One prompt of `recordingDeps`: the claude's pid and project, when its prompt reached it (a cold
 * run's at its spawn, a standby's when it was written to stdin), and what of the previously
 * prompted claude's group was still live then.
 */
export interface PromptRecord {
  pid: number | undefined;
  cwd: string;
  at: number;
  standby: boolean;
  previousAlive: string[];
}

/** One spawn of `recordingDeps`: its pid, when, and what of the previous group was still live then. */
export interface SpawnRecord {
  pid: number | undefined;
  at: number;
  previousAlive: string[];
}

/**
 * The loops' real seams (the real claude, real temp projects under `root`) with a record of what
 * the serial rule is about (one claude at a time; the next project made while a run runs), stamped
 * with `Date.now` (the clock the model server stamps requests with): when each project was begun,
 * each spawn and the previous group's live members at that moment, and when each `await
 * proc.kill()` returned (the group gone).
 */
export function recordingDeps(root: string): {
  deps: RunDeps;
  created: number[];
  spawns: SpawnRecord[];
  gone: number[];
  prompts: PromptRecord[];
} {
  const created: number[] = [];
  const spawns: SpawnRecord[] = [];
  const gone: number[] = [];
  const prompts: PromptRecord[] = [];
  const prompted = (pid: number | undefined, cwd: string, standby: boolean): void => {
    const previous = prompts.at(-1)?.pid;
    const previousAlive = previous === undefined ? [] : liveMembers(previous);
    prompts.push({ pid, cwd, at: Date.now(), standby, previousAlive });
  };
  const deps: RunDeps = {
    now: () => Date.now(),
    createProject: (spec) => {
      created.push(Date.now());
      return createStubProject({ ...spec, root });
    },
    spawn: (options) => {
      const previous = spawns.at(-1)?.pid;
      const previousAlive = previous === undefined ? [] : liveMembers(previous);
      const proc = spawnClaude(options);
      spawns.push({ pid: proc.pid, at: Date.now(), previousAlive });
      if (!options.promptOnStdin) prompted(proc.pid, options.cwd, false);
      return {
        ...proc,
        send: async (text: string) => {
          prompted(proc.pid, options.cwd, true);
          await proc.send(text);
        },
        kill: async () => {
          await proc.kill();
          gone.push(Date.now());
        },
      };
    },
  };
  return { deps, created, spawns, gone, prompts };
}

/**
 * The model server's side of the rule: every later turn belongs to the run whose first request
 * came last before it (consecutive runs must ask different queries), so none came from a claude
 * that should be gone. Returns the first requests, in order.
 */
export function firstRequestsInOrder(requests: readonly RecordedRequest[]): RecordedRequest[] {
  const firsts: RecordedRequest[] = [];
  for (const request of requests.filter((r) => r.view !== undefined)) {
    if (request.turn === 1) firsts.push(request);
    else expect(request.view?.query).toBe(firsts.at(-1)?.view?.query);
  }
  return firsts;
}

/**
 * What the serial tests run in: a simulated model, a claude environment (throwaway HOME) whose
 * TMPDIR is a folder of its own, so a test can show nothing was left there, and a root for the
 * temp projects. `close` removes all of it.
 */
export async function serialWorld(prefix: string, options: SimulatedModelOptions) {
  const model = await startSimulatedModel(options);
  const root = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  const userTmp = await mkdtemp(path.join(tmpdir(), `${prefix}-usertmp-`));
  const claude = await makeClaudeEnv(model, { TMPDIR: userTmp });
  return {
    model,
    root,
    userTmp,
    claude,
    async close() {
      await model.close();
      await claude.cleanup();
      await rm(root, { recursive: true, force: true });
      await rm(userTmp, { recursive: true, force: true });
    },
  };
}

/**
 * Live processes (Linux /proc; zombies left out) whose working folder lies in `folder` or whose
 * environment names it (a Codex run's CODEX_HOME and TMPDIR): a codex's argv does not name its
 * run's folder, so `ps` alone would not find it. Each entry is `<pid> <pid (comm)>`.
 */
export function liveProcessesIn(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const state = stat.slice(close + 2).split(' ')[0];
      if (state === 'Z' || state === 'X') continue;
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${entry}/cwd`);
      } catch {
        // Not ours to read.
      }
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (cwd === folder || cwd.startsWith(`${folder}/`) || environ.includes(folder))
        found.push(`${entry} ${stat.slice(0, close + 1)}`);
    } catch {
      // Gone meanwhile, or not readable.
    }
  }
  return found;
}

/** The top folder under `tmp` of a path inside it (a temp project), else undefined. */
export function projectUnder(tmp: string, dir: string | undefined): string | undefined {
  if (dir === undefined || !dir.startsWith(`${tmp}/`)) return undefined;
  return path.relative(tmp, dir).split(path.sep)[0];
}

/**
 * The temp projects (top folders under `tmp`) with a live process whose working folder lies in
 * them (Linux /proc; zombies left out): asked while a gate's request is at the model, the ones
 * other than the gate's own hold a waiting standby.
 */
export function liveProjectsUnder(tmp: string): string[] {
  const found = new Set<string>();
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      const project = state === 'Z' ? undefined : projectUnder(tmp, readlinkSync(`/proc/${pid}/cwd`));
      if (project) found.add(project);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return [...found];
}

/** One live process as Linux /proc shows it: its group, argv, environment and working folder. */
export interface ProcessView {
  pid: number;
  pgid: number;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
}

/** `/proc/<pid>/<file>`'s NUL-separated entries, or undefined when it is gone or not ours to read. */
function procEntries(pid: string, file: string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0').slice(0, -1);
  } catch {
    return undefined;
  }
}

/**
 * The live processes (zombies left out) whose working folder lies in `folder` or whose environment
 * names it, with their argv and environment as the kernel holds them: what a launch really started
 * with, whichever program spawned it.
 */
export function processesIn(folder: string): ProcessView[] {
  const found: ProcessView[] = [];
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid)) {
    let stat: string;
    let cwd = '';
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      continue;
    }
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = procEntries(pid, 'cmdline');
    const environ = procEntries(pid, 'environ');
    if (state === 'Z' || state === 'X' || argv === undefined || environ === undefined) continue;
    const inside = cwd === folder || cwd.startsWith(`${folder}/`) || environ.some((e) => e.includes(folder));
    if (!inside) continue;
    const env = Object.fromEntries(
      environ.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]),
    );
    found.push({ pid: Number(pid), pgid: Number(group), argv, env, cwd });
  }
  return found;
}
