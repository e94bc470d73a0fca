import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { maskSecrets } from '../../src/mask.js';
import type { CliResult } from './cli.js';

/**
 * The CLI's entry (`main`, src/cli/main.ts) called in this process, its output collected and masked
 * as bin/skilltrigger.js masks it. For cases that stop before anything runs: a node start per case
 * costs ~0.4 s of CPU and proves nothing the same case through `runCli` does not, so a file runs a
 * few cases through `runCli` (the bundle, as a user starts it) and the rest here. The CLI takes its
 * temp folder from the process (`os.tmpdir()`), so the call's TMPDIR is the process's while it runs.
 * A case that may block the process (a FIFO read) belongs to `runCli`, which can kill it. Its own
 * module, so the e2e files that import fakes/cli.ts do not load the whole CLI.
 */
export async function runCliInProcess(
  args: string[],
  options: { env: NodeJS.ProcessEnv },
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const collect = (append: (text: string) => void) => ({
    write: (text: string) => {
      append(maskSecrets(text));
      return true;
    },
  });
  vi.stubEnv('TMPDIR', options.env.TMPDIR);
  try {
    const code = await main(args, {
      stdout: collect((t) => {
        stdout += t;
      }),
      stderr: collect((t) => {
        stderr += t;
      }),
      env: options.env,
    });
    return { code, signal: null, stdout, stderr };
  } finally {
    vi.unstubAllEnvs();
  }
}
