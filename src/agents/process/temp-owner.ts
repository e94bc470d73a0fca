/**
 * Who owns a `skilltrigger-*` temp folder, and the sweep that removes the folders of an owner that
 * is gone. A SIGKILL cannot be caught: the temp projects of a killed skilltrigger stay, and the
 * claude it was running goes on as an orphan. Each temp folder therefore holds an owner file (the
 * pid and the start time of the skilltrigger that made it, so a reused pid is not taken for the
 * owner), and the next command that makes runs ends the claude processes still working in a dead
 * owner's folders and removes the folders (docs/faults.md, "What a SIGKILL leaves").
 */
import { readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The owner file's name inside each temp folder. */
export const OWNER_FILE = 'skilltrigger-owner.json';

/** A process told apart from a later one that got the same pid. */
export interface ProcessIdentity {
  pid: number;
  /** When it started, as the OS counts it (Linux: clock ticks since boot); absent where unknown. */
  start?: string;
}

/**
 * A process's start time from /proc (field 22 of `stat`, after the parenthesised command name,
 * which may itself hold spaces or parentheses). Undefined where there is no /proc (macOS), or the
 * process is gone.
 */
export async function processStart(pid: number | 'self'): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // `fields[0]` is field 3 (state), so field 22 is at index 19.
  return fields[19];
}

let self: Promise<ProcessIdentity> | undefined;

/** This process's identity, read once. */
function selfIdentity(): Promise<ProcessIdentity> {
  self ??= processStart('self').then((start) => ({
    pid: process.pid,
    ...(start === undefined ? {} : { start }),
  }));
  return self;
}

/** Writes the owner file into a fresh temp folder. */
export async function writeOwner(dir: string): Promise<void> {
  await writeFile(path.join(dir, OWNER_FILE), JSON.stringify(await selfIdentity()));
}

function parseIdentity(text: string): ProcessIdentity | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || !('pid' in value)) return undefined;
    const { pid } = value;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
    const start = 'start' in value && typeof value.start === 'string' ? value.start : undefined;
    return { pid, ...(start === undefined ? {} : { start }) };
  } catch {
    return undefined;
  }
}

/**
 * Whether the process is still there. A pid that answers but started at another time is a reuse:
 * the owner is gone. Without a start time (no /proc) a pid that answers counts as alive, so a
 * folder is kept rather than removed under a live owner.
 */
async function alive(owner: ProcessIdentity): Promise<boolean> {
  try {
    process.kill(owner.pid, 0);
  } catch {
    // ESRCH: no such process. EPERM: another user's process has the pid now, so ours is gone.
    return false;
  }
  if (owner.start === undefined) return true;
  const start = await processStart(owner.pid);
  return start === undefined || start === owner.start;
}

/**
 * The process groups with a process still working in `dir`: its cwd inside it (a measured run's
 * claude and the tools it started), or its TMPDIR inside it (a short command's). Read from /proc,
 * so a recycled pid cannot be mistaken for one of them; empty where there is no /proc.
 */
async function groupsWorkingIn(dir: string): Promise<number[]> {
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name));
  const inside = (p: string | undefined) => p !== undefined && (p === dir || p.startsWith(`${dir}/`));
  const groups = new Set<number>();
  await Promise.all(
    pids.map(async (pid) => {
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
      let found = inside(cwd);
      if (!found) {
        const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
        const tmp = environ
          .split('\0')
          .find((entry) => entry.startsWith('TMPDIR='))
          ?.slice('TMPDIR='.length);
        found = inside(tmp);
      }
      if (!found) return;
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
      const pgid = stat === undefined ? undefined : groupOf(stat);
      if (pgid !== undefined) groups.add(pgid);
    }),
  );
  return [...groups];
}

/** Field 5 of a /proc `stat` line (the process group), index 2 after the command name. */
function groupOf(stat: string): number | undefined {
  const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  return Number.isInteger(pgid) && pgid > 1 ? pgid : undefined;
}

/** What a sweep found and did. */
export interface SweepResult {
  /** Temp folders of a dead owner, removed. */
  removed: string[];
  /** Process groups ended because a process of theirs still worked in such a folder. */
  killedGroups: number[];
}

/**
 * Removes the `skilltrigger-*` folders in `root` whose owner file names a process that is gone,
 * after SIGKILLing every process group still working in them, and what the agents they ran left for
 * them elsewhere (`removeAgentEntries`: claude's `projects/` entries in HOME's `.claude`). A folder without an owner file is
 * never touched (it is not a temp project, or its owner is still making it). Never throws: a
 * sweep that cannot finish leaves what it could not remove for the next one.
 */
export async function sweepDeadOwners(
  root: string,
  env: Record<string, string | undefined>,
  removeAgentEntries: (dir: string, env: Record<string, string | undefined>) => Promise<void>,
): Promise<SweepResult> {
  const result: SweepResult = { removed: [], killedGroups: [] };
  const names = await readdir(root).catch(() => [] as string[]);
  const ownStat = await readFile('/proc/self/stat', 'utf8').catch(() => undefined);
  const ownGroup = ownStat === undefined ? undefined : groupOf(ownStat);
  for (const name of names) {
    if (!name.startsWith('skilltrigger-')) continue;
    const dir = path.join(root, name);
    const text = await readFile(path.join(dir, OWNER_FILE), 'utf8').catch(() => undefined);
    const owner = text === undefined ? undefined : parseIdentity(text);
    if (!owner || owner.pid === process.pid || (await alive(owner))) continue;
    for (const group of await groupsWorkingIn(dir)) {
      // Never this process's own group (a caller standing in the folder).
      if (group === process.pid || group === ownGroup) continue;
      try {
        process.kill(-group, 'SIGKILL');
        result.killedGroups.push(group);
      } catch {
        /* gone already */
      }
    }
    await removeAgentEntries(dir, env);
    await rm(dir, { recursive: true, force: true }).then(
      () => result.removed.push(dir),
      () => undefined,
    );
  }
  return result;
}
