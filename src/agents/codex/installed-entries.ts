/**
 * The catalogue Codex lists on this machine as roster entries (docs/roster.md): the skills of the
 * user's `~/.agents/skills`, each with its description as Codex reads its SKILL.md (whole, before
 * the listing budget cuts it). Read by the listing probe, which runs with a throwaway CODEX_HOME and
 * writes nothing to the user's HOME; Codex's own system skills are left out (every run lists them).
 */
import os from 'node:os';
import path from 'node:path';
import type { InstalledEntry, InstalledRead } from '../listing.js';
import { codexListingOf } from './listing.js';
import { probeCodexListing } from './listing-probe.js';

export async function codexInstalledEntries(settings: {
  bin: string;
  env: NodeJS.ProcessEnv;
  model?: string;
}): Promise<InstalledRead> {
  const result = await probeCodexListing({
    bin: settings.bin,
    env: settings.env,
    skills: [],
    readTexts: true,
    ...(settings.model ? { model: settings.model } : {}),
  });
  if (result.kind === 'failed') return result;
  const userSkills = path.join(settings.env.HOME ?? os.homedir(), '.agents', 'skills') + path.sep;
  const entries: InstalledEntry[] = [];
  for (const skill of result.skills) {
    if (!skill.file.startsWith(userSkills)) continue;
    const folder = path.basename(path.dirname(skill.file));
    const read = skill.text === undefined ? undefined : codexListingOf(skill.text, folder);
    const description = read?.kind === 'listed' ? read.description : skill.description;
    entries.push({ kind: 'skill', source: 'user', name: folder, description });
  }
  return { kind: 'read', entries };
}
