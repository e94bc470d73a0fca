/**
 * The skill folders the user's own Gemini CLI reads besides a project's, for the conflict gate:
 * `~/.gemini/skills`, `~/.agents/skills`, and the skills of every installed extension
 * (`~/.gemini/extensions/<extension>/skills`). A measured run reads none of them (its
 * GEMINI_CLI_HOME is a throwaway one), so a same-named skill there does not compete in the numbers,
 * but it does in the user's own sessions. Each folder's skills are read by name, as Gemini lists them.
 */
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { geminiListingOf } from './listing.js';

/** A skill one of those folders holds. */
export interface GeminiFolderSkill {
  /** The name Gemini would list it under. */
  name: string;
  /** The folder it sits in, as the user would spell it (`~/.gemini/skills/<dir>`). */
  place: string;
}

async function subfolders(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
}

/** The skills directly under one folder (`<folder>/<dir>/SKILL.md`), by listed name. */
async function skillsIn(folder: string, place: string): Promise<GeminiFolderSkill[]> {
  const found: GeminiFolderSkill[] = [];
  for (const dir of await subfolders(folder)) {
    const text = await readFile(path.join(folder, dir, 'SKILL.md'), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const listing = geminiListingOf(text);
    if (listing.kind === 'listed') found.push({ name: listing.name, place: `${place}/${dir}` });
  }
  return found;
}

/** Every skill of the user's Gemini folders, extensions included. */
export async function scanGeminiSkillFolders(scan: { home?: string } = {}): Promise<GeminiFolderSkill[]> {
  const home = scan.home ?? os.homedir();
  const gemini = path.join(home, '.gemini');
  const found = [
    ...(await skillsIn(path.join(gemini, 'skills'), '~/.gemini/skills')),
    ...(await skillsIn(path.join(home, '.agents', 'skills'), '~/.agents/skills')),
  ];
  for (const extension of await subfolders(path.join(gemini, 'extensions')))
    found.push(
      ...(await skillsIn(
        path.join(gemini, 'extensions', extension, 'skills'),
        `~/.gemini/extensions/${extension}/skills`,
      )),
    );
  return found;
}
