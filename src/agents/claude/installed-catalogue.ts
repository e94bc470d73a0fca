/**
 * The catalogue Claude Code lists on this machine, read and never written (docs/listing-budget.md,
 * "The listing of a measured run"): the user's skills and commands, the use counts that rank them,
 * and the settings and variable that size the budget. Everything else of the user's configuration
 * (keys, sessions, history) is left where it is: the catalogue probe lays this out in a throwaway
 * HOME, so a probe of the user's crowd writes nothing to the user's HOME.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isRecord } from '../../guards.js';
import type { Crowd, CrowdEntry } from '../../inputs/roster.js';
import { yamlString } from '../process/stub-project.js';
import type { CatalogueFile, CatalogueLayout } from './catalogue-probe.js';

/** The settings keys that change the listing; no other key is read. */
export const LISTING_SETTINGS = ['skillListingBudgetFraction', 'skillListingMaxDescChars', 'skillOverrides'];
/** The variable that replaces the budget's formula. */
export const BUDGET_VARIABLE = 'SLASH_COMMAND_TOOL_CHAR_BUDGET';

async function isDirectory(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isDirectory() === true;
}

async function readText(file: string): Promise<string | undefined> {
  return readFile(file, 'utf8').catch(() => undefined);
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  const text = await readText(file);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Every `<folder>/SKILL.md` of a skills folder (a linked folder too), by folder name. */
async function skillsIn(dir: string): Promise<CatalogueFile[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  const out: CatalogueFile[] = [];
  for (const name of names) {
    if (!(await isDirectory(path.join(dir, name)))) continue;
    const text = await readText(path.join(dir, name, 'SKILL.md'));
    if (text !== undefined) out.push({ name, text });
  }
  return out;
}

/** Every `*.md` of a commands folder and its subfolders, by its path without `.md`. */
async function commandsIn(dir: string, prefix = ''): Promise<CatalogueFile[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  const out: CatalogueFile[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    if (await isDirectory(file)) out.push(...(await commandsIn(file, `${prefix}${name}/`)));
    else if (name.endsWith('.md')) {
      const text = await readText(file);
      if (text !== undefined) out.push({ name: `${prefix}${name.slice(0, -3)}`, text });
    }
  }
  return out;
}

function picked(record: Record<string, unknown> | undefined, keys: readonly string[]) {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (record?.[key] !== undefined) out[key] = record[key];
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Where Claude Code keeps the user's configuration: `CLAUDE_CONFIG_DIR`, else `~/.claude` (and `~/.claude.json`). */
export function claudeConfigPaths(env: NodeJS.ProcessEnv): { dir: string; json: string } {
  const home = env.HOME ?? os.homedir();
  const configured = env.CLAUDE_CONFIG_DIR;
  return configured
    ? { dir: configured, json: path.join(configured, '.claude.json') }
    : { dir: path.join(home, '.claude'), json: path.join(home, '.claude.json') };
}

/**
 * The user's catalogue as a layout for the catalogue probe: user skills and commands, `skillUsage`
 * alone of `~/.claude.json`, the listing keys alone of `settings.json`, and the budget variable.
 * Read-only; a file that cannot be read is left out.
 */
export async function installedCatalogue(env: NodeJS.ProcessEnv): Promise<CatalogueLayout> {
  const { dir, json } = claudeConfigPaths(env);
  const usage = picked(await readJson(json), ['skillUsage']);
  const settings = picked(await readJson(path.join(dir, 'settings.json')), LISTING_SETTINGS);
  const budget = env[BUDGET_VARIABLE];
  return {
    userSkills: await skillsIn(path.join(dir, 'skills')),
    userCommands: await commandsIn(path.join(dir, 'commands')),
    ...(usage ? { claudeJson: usage } : {}),
    ...(settings ? { settings } : {}),
    ...(budget === undefined ? {} : { env: { [BUDGET_VARIABLE]: budget } }),
  };
}

/** A roster entry's file: a folder roster's own SKILL.md, else one written from its description. */
function crowdFile(entry: CrowdEntry): CatalogueFile {
  const text = entry.fileText ?? `---\ndescription: ${yamlString(entry.description ?? '')}\n---\n\nbody\n`;
  return { name: entry.name, text };
}

/**
 * A roster's crowd as the catalogue probe lays it out (docs/roster.md): user entries in the
 * throwaway HOME, project entries in the project, each use record in `skillUsage`. A plugin's entry
 * is laid out as a user's, the nearest place a throwaway HOME has for it.
 */
export function crowdCatalogue(crowd: Pick<Crowd, 'entries'>): CatalogueLayout {
  const pick = (kind: CrowdEntry['kind'], project: boolean) =>
    crowd.entries.filter((e) => e.kind === kind && (e.source === 'project') === project).map(crowdFile);
  const usage: Record<string, unknown> = {};
  for (const e of crowd.entries) if (e.usage) usage[e.name] = e.usage;
  return {
    userSkills: pick('skill', false),
    projectSkills: pick('skill', true),
    userCommands: pick('command', false),
    projectCommands: pick('command', true),
    ...(Object.keys(usage).length > 0 ? { claudeJson: { skillUsage: usage } } : {}),
  };
}
