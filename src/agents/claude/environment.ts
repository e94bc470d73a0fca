import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isRecord } from '../../guards.js';
import type { Environment } from '../../schemas/report.js';
import { exists } from '../../system/input-file.js';

/**
 * What the user's setup adds to every run beyond the stub, as counts only (docs/security.md): the
 * report's environment without the MCP servers, which a run's init event counts.
 */
export type InheritedEnvironment = Omit<Environment, 'mcpServers'>;

function countHooks(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  for (const matchers of Object.values(value)) {
    if (!Array.isArray(matchers)) continue;
    for (const matcher of matchers) {
      const hooks = isRecord(matcher) ? matcher.hooks : undefined;
      count += Array.isArray(hooks) ? hooks.length : 0;
    }
  }
  return count;
}

async function hooksIn(file: string): Promise<number> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return isRecord(parsed) ? countHooks(parsed.hooks) : 0;
  } catch {
    return 0;
  }
}

/**
 * Read-only look at the user's Claude configuration: memory files the CLI would load into a run
 * in `tempRoot` (a parent directory's CLAUDE.md is read even inside a git repo:
 * docs/claude-cli.md §2) and the hooks configured. Never reads contents into the report; never writes.
 */
export async function inheritedEnvironment(
  env: NodeJS.ProcessEnv,
  tempRoot: string,
): Promise<InheritedEnvironment> {
  const configDir = env.CLAUDE_CONFIG_DIR ?? path.join(env.HOME ?? os.homedir(), '.claude');
  let project = 0;
  let dir = path.resolve(tempRoot);
  for (;;) {
    for (const name of ['CLAUDE.md', 'CLAUDE.local.md']) if (await exists(path.join(dir, name))) project++;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const user = (await exists(path.join(configDir, 'CLAUDE.md'))) ? 1 : 0;
  const hooks =
    (await hooksIn(path.join(configDir, 'settings.json'))) +
    (await hooksIn(path.join(configDir, 'settings.local.json')));
  return { memoryFiles: { project, user }, hooks };
}
