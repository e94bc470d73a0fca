/**
 * What the two spawners of `claude` (claude.ts, claude-command.ts) share: the process groups of every
 * claude still running, for the second Ctrl-C, and how a spawn that failed is told apart from a
 * missing CLI.
 */

/**
 * The spawn errors that mean the executable is missing or cannot be run as one. Any other spawn
 * failure (E2BIG for an argv over the kernel's limit, EAGAIN, ENOMEM) is not a missing CLI, and
 * must never be reported as one.
 */
const NOT_RUNNABLE = new Set(['ENOENT', 'EACCES', 'ENOTDIR', 'ENOEXEC', 'ELOOP', 'ENAMETOOLONG', 'EISDIR']);

/**
 * The process groups of every `claude` still running, so that a second interrupt can kill them
 * all at once (a claude, or a tool it started, may ignore SIGTERM).
 */
const liveGroups = new Set<number>();

/** SIGKILL every claude process group still running (the second Ctrl-C). Synchronous. */
export function killAllClaudeGroups(): void {
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* the group is gone already */
    }
  }
}

/** Tracks a detached child's group from spawn until `forget` (after its group was killed or ended). */
export function trackGroup(pid: number | undefined): () => void {
  if (pid === undefined) return () => undefined;
  liveGroups.add(pid);
  return () => liveGroups.delete(pid);
}

/** Whether a finished execa result is a spawn failure, and whether that means "no runnable CLI". */
export function spawnFailure(result: {
  failed: boolean;
  exitCode?: number;
  signal?: string;
  isTerminated: boolean;
  code?: string;
}): { failed: boolean; missing: boolean; code?: string } {
  const neverRan =
    result.failed && result.exitCode === undefined && result.signal === undefined && !result.isTerminated;
  if (!neverRan && result.code !== 'ENOENT' && result.code !== 'EACCES')
    return { failed: false, missing: false };
  const missing = result.code === undefined || NOT_RUNNABLE.has(result.code);
  return { failed: true, missing, ...(result.code === undefined ? {} : { code: result.code }) };
}
