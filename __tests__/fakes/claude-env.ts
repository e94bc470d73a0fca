import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SimulatedModel } from '../../src/simulated/model.js';

/** The pinned CLI from devDependencies, called by absolute path. */
export const CLAUDE_BIN = fileURLToPath(new URL('../../node_modules/.bin/claude', import.meta.url));

/** The real `claude`'s environment for a test file, and its throwaway HOME. */
export interface ClaudeEnv {
  env: NodeJS.ProcessEnv;
  home: string;
  cleanup(): Promise<void>;
}

/**
 * An environment for the real `claude` pointed at a simulated model: a throwaway HOME (so no user
 * skills, plugins or CLAUDE.md leak in), only the variables a shell needs from this process, and no
 * CLAUDECODE (set when the tests themselves run inside Claude Code).
 */
export async function makeClaudeEnv(
  model: SimulatedModel,
  extra: Record<string, string> = {},
): Promise<ClaudeEnv> {
  const home = await mkdtemp(join(tmpdir(), 'skilltrigger-home-'));
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'TMPDIR', 'LANG']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, {
    HOME: home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'sk-test',
    // Stops the `HEAD /api/hello` preflight and telemetry attempts (docs/claude-cli.md §1).
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...extra,
  });
  delete env.CLAUDECODE;
  return {
    env,
    home,
    cleanup: () => rm(home, { recursive: true, force: true }),
  };
}
