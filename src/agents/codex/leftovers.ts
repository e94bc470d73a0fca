/**
 * Processes a Codex run leaves outside its process group. Codex runs each model command through
 * its sandbox helper (`codex-linux-sandbox`, a link under CODEX_HOME/tmp/arg0-linux), which starts
 * a session of its own (`setsid`, then `bwrap --new-session`): a KILL of the run's group does not
 * reach it, and one killed mid-start was seen left running under PID 1 (docs/codex.md "What a kill
 * leaves"). Every such process names the run's folder in its argv (the helper's path, its
 * `--sandbox-policy-cwd`), so the sweep finds them by that folder and kills them with their groups.
 * So does the login shell Codex starts at start-up to snapshot the user's shell (`bash -lc`, in a
 * session of its own too), in its environment: with a slow `~/.bashrc` it outlives a run killed at
 * its decision.
 * Linux only (/proc); elsewhere it finds nothing.
 */
import { readdir, readFile } from 'node:fs/promises';

/** pid and process group of every live process whose argv or environment mentions `folder`. */
async function processesNaming(folder: string): Promise<Array<{ pid: number; pgid: number }>> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const found: Array<{ pid: number; pgid: number }> = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const argv = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      // The shell snapshot's login shell names the folder only in its environment (CODEX_HOME, TMPDIR).
      const environ = argv.includes(folder) ? '' : await readFile(`/proc/${entry}/environ`, 'utf8');
      if (!argv.includes(folder) && !environ.includes(folder)) continue;
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces, so read after ')'.
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      found.push({ pid: Number(entry), pgid: Number(fields[2]) });
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

/** This process's own group, never signalled as a whole. */
async function processesNamingSelf(): Promise<number | undefined> {
  try {
    const stat = await readFile('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return undefined;
  }
}

/** Whether `pid` is still a live process (not gone, not a zombie awaiting its parent). */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** How long the sweep waits for the processes it KILLed to be gone (a KILL is delivered, not instant). */
const GONE_WITHIN_MS = 2_000;

/**
 * KILLs every process (and its group) that names the run's folder, and waits until they are gone,
 * so that a run is over only once nothing of it is left in the process table; returns how many were found.
 */
export async function killProcessesNaming(folder: string): Promise<number> {
  // A process being killed may have started another meanwhile (a login shell's child): swept again.
  let total = 0;
  for (let round = 0; round < 3; round++) {
    const found = await killFound(folder);
    if (found === 0) break;
    total += found;
  }
  return total;
}

/** One sweep: KILL what names the folder now, then wait until it is gone. */
async function killFound(folder: string): Promise<number> {
  const found = await processesNaming(folder);
  const own = (await processesNamingSelf()) ?? -1;
  for (const { pid, pgid } of found) {
    for (const target of [pgid > 1 && pgid !== own ? -pgid : pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  const until = Date.now() + GONE_WITHIN_MS;
  let left = found.map((p) => p.pid);
  while (left.length > 0 && Date.now() < until) {
    const still = await Promise.all(left.map(async (pid) => ((await alive(pid)) ? [pid] : [])));
    left = still.flat();
    if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return found.length;
}
