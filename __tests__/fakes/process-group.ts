import { readdirSync, readFileSync } from 'node:fs';

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
