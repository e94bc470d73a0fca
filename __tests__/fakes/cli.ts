import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The CLI as a user runs it: `node bin/skilltrigger.js …` (lib/ is built by the global setup). */
export const SKILLTRIGGER_BIN = fileURLToPath(new URL('../../bin/skilltrigger.js', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI to completion. `onStart` gets the child, e.g. to send it SIGINT mid-run. */
export function runCli(
  args: string[],
  options: {
    env: NodeJS.ProcessEnv;
    cwd?: string;
    /** The node binary to run the CLI with (default: this process's). */
    node?: string;
    /** Its own process group (`child.pid` is the group id), as a shell job is: for signals to the group. */
    detached?: boolean;
    /** A command that starts the CLI (`['unshare', '-m', …]`): it gets `node bin/skilltrigger.js …` as its arguments. */
    launcher?: string[];
    onStart?: (child: ChildProcess, stderr: () => string) => void;
  },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const [command, ...prefix] = [...(options.launcher ?? []), options.node ?? process.execPath];
    const child = spawn(command ?? process.execPath, [...prefix, SKILLTRIGGER_BIN, ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.detached ? { detached: true } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    options.onStart?.(child, () => stderr);
  });
}
