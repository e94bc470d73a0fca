/**
 * The skill folders Codex scans besides a run's own project skills, for the conflict gate: the
 * user's `~/.agents/skills`, the machine's `/etc/codex/skills`, and `.agents/skills` of every
 * folder from the run's working folder up to its git root (docs/codex.md "What the model is
 * sent"). A skilltrigger run's project is a git root of its own, so for it the last is the
 * project alone. Each folder's skills are read by name, as Codex lists them.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { codexListingOf } from './listing.js';

/** A skill one of those folders holds. */
export interface CodexFolderSkill {
  /** The name Codex would list it under. */
  name: string;
  /** The folder it sits in, as the user would spell it (`~/.agents/skills`). */
  place: string;
}

export interface CodexFolderScan {
  home?: string;
  /** The run's working folder; its ancestors up to the git root are scanned. */
  cwd?: string;
  /** Tests only: the machine-wide folder (default `/etc/codex/skills`). */
  systemFolder?: string;
}

async function isDir(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

/** `.agents/skills` of the working folder and each parent up to (and with) the first holding `.git`. */
async function projectFolders(cwd: string): Promise<string[]> {
  const folders: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    folders.push(path.join(dir, '.agents', 'skills'));
    const root = await stat(path.join(dir, '.git')).then(
      () => true,
      () => false,
    );
    if (root || path.dirname(dir) === dir) return root ? folders : [];
  }
}

/** The skills directly under one folder (`<folder>/<dir>/SKILL.md`), by listed name. */
async function skillsIn(folder: string, place: string): Promise<CodexFolderSkill[]> {
  if (!(await isDir(folder))) return [];
  const found: CodexFolderSkill[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const text = await readFile(path.join(folder, entry.name, 'SKILL.md'), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const listing = codexListingOf(text, entry.name);
    if (listing.kind === 'listed') found.push({ name: listing.name, place: `${place}/${entry.name}` });
  }
  return found;
}

/** Every skill of the folders Codex scans besides CODEX_HOME. */
export async function scanCodexSkillFolders(scan: CodexFolderScan): Promise<CodexFolderSkill[]> {
  const home = scan.home ?? os.homedir();
  const found = [
    ...(await skillsIn(path.join(home, '.agents', 'skills'), '~/.agents/skills')),
    ...(await skillsIn(scan.systemFolder ?? '/etc/codex/skills', scan.systemFolder ?? '/etc/codex/skills')),
  ];
  if (scan.cwd !== undefined)
    for (const folder of await projectFolders(scan.cwd)) found.push(...(await skillsIn(folder, folder)));
  return found;
}
