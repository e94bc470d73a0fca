import { vi } from 'vitest';
import { run } from '../../src/action/main.js';
import { type ActionResult, type ActionRunOptions, prepareActionRun } from './harness.js';

/** The variables a runner or the user's shell may set that the step reads: only the step's own count. */
const STEP_VARIABLES = /^(INPUT_|GITHUB_|RUNNER_|ACTIONS_|ANTHROPIC_|OPENAI_|CODEX_|CLAUDE)/;

/**
 * The Action's entry (`run`, src/action/main.ts) called in this process with what `runAction` gives
 * the bundle: the same files and environment (set on the process for the call, every other step
 * variable taken away), stdout and stderr collected, the exit code read and the process's restored.
 * For inputs that stop the step before anything runs: a node start of the bundle per case costs
 * about a second of CPU and proves nothing the same case through `runAction` does not, so a file
 * runs a few cases through `runAction` (the bundle, as the runner starts it) and the rest here.
 */
export async function runActionInProcess(
  opts: Omit<ActionRunOptions, 'node' | 'nodeArgs' | 'interrupt'>,
): Promise<ActionResult> {
  const { env, finish } = await prepareActionRun(opts);
  for (const name of Object.keys(process.env))
    if (STEP_VARIABLES.test(name) && !(name in env)) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  let stdout = '';
  let stderr = '';
  const collect = (append: (text: string) => void) => (chunk: string | Uint8Array) => {
    append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(
    collect((t) => {
      stdout += t;
    }),
  );
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(
    collect((t) => {
      stderr += t;
    }),
  );
  const before = process.exitCode;
  process.exitCode = undefined;
  const started = Date.now();
  let code: number;
  try {
    await run();
    code = Number(process.exitCode ?? 0);
  } finally {
    out.mockRestore();
    err.mockRestore();
    vi.unstubAllEnvs();
    process.exitCode = before;
  }
  return finish({ code, stdout, stderr, durationMs: Date.now() - started });
}
