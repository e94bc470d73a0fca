/**
 * Quoting what another program printed (claude, git, caffeinate, systemd-inhibit) in a reason or
 * an error: one line of it, without colour codes; and how a short command ended, as the gates'
 * rules read it. Pure; a leaf every floor may use.
 */

/** How a short command ended (the claude adapter's `runClaudeCommand` adds whether it was stopped). */
export interface CommandResult {
  /** The executable could not be started at all: the CLI is missing (or not executable). */
  spawnFailed: boolean;
  /** Killed by skilltrigger because it outlived its wall-clock bound. */
  timedOut: boolean;
  exitCode?: number;
  signal?: string;
  stdout: string;
  /** Kept in memory for gate reasons only; never written into a report. */
  stderr: string;
  /** Why the spawn failed (e.g. `ENOENT`), when it did. */
  spawnError?: string;
}

/** First non-empty line of a program's output, trimmed and capped, for quoting in a reason. */
export function firstLine(text: string, max = 160): string {
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Removes terminal colour codes, which a CLI may add to human-readable output. */
export function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the ESC of colour codes is the point
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}
