import { access, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isRecord } from '../../guards.js';
import { exists, readInputText } from '../../system/input-file.js';

/**
 * The conflict gate's look at the disk: what in an installed plugin's folder, or in the user's own
 * `~/.claude` folders, answers to a skill's name. Read-only. Which of these findings is a conflict,
 * and what the user is told to do about it, is the gate's rule (src/agents/claude/gates/conflict.ts).
 */

/** `name:` of a SKILL.md's frontmatter, if it has one. */
async function frontmatterName(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readInputText(file, 'SKILL.md');
  } catch {
    return undefined;
  }
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!match) return undefined;
  try {
    const data: unknown = parseYaml(match[1] ?? '', { merge: true });
    if (isRecord(data)) return typeof data.name === 'string' ? data.name.trim() : undefined;
  } catch {
    /* broken frontmatter: the CLI falls back to the folder name, which the caller checks */
  }
  return undefined;
}

async function entries(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

async function skillsIn(dir: string, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await entries(dir)) {
    if (!entry.isDirectory()) continue;
    const file = path.join(dir, entry.name, 'SKILL.md');
    if (!(await exists(file))) continue;
    const declared = await frontmatterName(file);
    if ((declared ?? entry.name) === name || entry.name === name) found.push(`skill "${name}"`);
  }
  return found;
}

/** Commands nest: `commands/sub/name.md` is listed as `plugin:sub:name`, which still answers to `name`. */
async function commandsIn(dir: string, name: string, depth = 3): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await entries(dir)) {
    if (entry.isFile() && entry.name === `${name}.md`) found.push(`command "${name}"`);
    else if (entry.isDirectory() && depth > 1)
      found.push(...(await commandsIn(path.join(dir, entry.name), name, depth - 1)));
  }
  return found;
}

function declaredPaths(manifest: unknown, key: 'skills' | 'commands'): string[] {
  if (!isRecord(manifest)) return [];
  const value = manifest[key];
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  return list.filter((v): v is string => typeof v === 'string');
}

/**
 * What in a plugin's folder answers to `name`: `skills/<name>/SKILL.md`, a skill whose frontmatter
 * names it, `<name>.md` anywhere under `commands/`, and the same under extra folders its `plugin.json` declares.
 * Read-only.
 */
export async function scanPlugin(root: string, name: string): Promise<string[]> {
  const skillDirs = [path.join(root, 'skills')];
  const commandDirs = [path.join(root, 'commands')];
  try {
    const manifest: unknown = JSON.parse(
      await readInputText(path.join(root, '.claude-plugin', 'plugin.json'), 'plugin.json'),
    );
    for (const p of declaredPaths(manifest, 'skills')) skillDirs.push(path.resolve(root, p));
    for (const p of declaredPaths(manifest, 'commands')) {
      const target = path.resolve(root, p);
      if (target.endsWith('.md')) {
        if (path.basename(target, '.md') === name && (await exists(target))) commandDirs.push(target);
      } else commandDirs.push(target);
    }
  } catch {
    /* no or unreadable manifest: the standard folders only */
  }
  const found = new Set<string>();
  for (const dir of new Set(skillDirs)) for (const hit of await skillsIn(dir, name)) found.add(hit);
  for (const dir of new Set(commandDirs)) {
    const hits = dir.endsWith('.md') ? [`command "${name}"`] : await commandsIn(dir, name);
    for (const hit of hits) found.add(hit);
  }
  return [...found];
}

/** Where a same-named entry outside any plugin most likely lives: the user's own skills or commands. */
export async function userPlace(env: NodeJS.ProcessEnv, name: string): Promise<string | undefined> {
  const configDir = env.CLAUDE_CONFIG_DIR ?? path.join(env.HOME ?? os.homedir(), '.claude');
  const shown = env.CLAUDE_CONFIG_DIR ? '$CLAUDE_CONFIG_DIR' : '~/.claude';
  for (const [file, label] of [
    [path.join(configDir, 'skills', name, 'SKILL.md'), `${shown}/skills/${name}`],
    [path.join(configDir, 'commands', `${name}.md`), `${shown}/commands/${name}.md`],
  ] as const) {
    try {
      await access(file);
      return label;
    } catch {
      /* not there */
    }
  }
  return undefined;
}
