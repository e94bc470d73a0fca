/**
 * The catalogue Claude Code lists on this machine as roster entries (docs/roster.md): the user's
 * skills and commands with the text the CLI lists for each and their use records. The user's files
 * are read in place (installed-catalogue.ts) and laid out in the catalogue probe's throwaway HOME,
 * with a budget no catalogue reaches, so every entry comes back with its text; the user's HOME is
 * never written.
 */
import { isRecord } from '../../guards.js';
import type { InstalledEntry, InstalledRead } from '../listing.js';
import { type CapturedEntry, type CatalogueFile, probeCatalogue } from './catalogue-probe.js';
import { BUDGET_VARIABLE, installedCatalogue } from './installed-catalogue.js';

/** A budget far past any catalogue: every entry is listed with its text (the per-entry cap still applies). */
const UNBOUNDED = '100000000';

/** The listed entry of a file: its name, or `name (frontmatter name)`. */
function entryOf(entries: readonly CapturedEntry[], file: CatalogueFile): CapturedEntry | undefined {
  return entries.find((e) => e.name === file.name || e.name.startsWith(`${file.name} (`));
}

function usageOf(usage: unknown): InstalledEntry['usage'] {
  if (!isRecord(usage)) return undefined;
  const { usageCount, lastUsedAt } = usage;
  return typeof usageCount === 'number' && typeof lastUsedAt === 'number'
    ? { usageCount, lastUsedAt }
    : undefined;
}

/** The user's skills and commands as Claude Code lists them; a file it does not list is left out. */
export async function claudeInstalledEntries(settings: {
  bin: string;
  env: NodeJS.ProcessEnv;
  model?: string;
}): Promise<InstalledRead> {
  const layout = await installedCatalogue(settings.env);
  const result = await probeCatalogue(
    { ...layout, env: { ...layout.env, [BUDGET_VARIABLE]: UNBOUNDED } },
    { claudeBin: settings.bin, env: settings.env, ...(settings.model ? { model: settings.model } : {}) },
  );
  if (result.kind === 'failed') return result;
  const usage = isRecord(layout.claudeJson?.skillUsage) ? layout.claudeJson.skillUsage : {};
  const out: InstalledEntry[] = [];
  const add = (kind: InstalledEntry['kind'], files: readonly CatalogueFile[] | undefined) => {
    for (const file of files ?? []) {
      // A command in a subfolder has no plain file name for a roster to lay out again.
      if (file.name.includes('/')) continue;
      const listed = entryOf(result.entries, file);
      if (listed?.text === undefined) continue;
      const used = usageOf(usage[file.name]);
      out.push({
        kind,
        source: 'user',
        name: file.name,
        description: listed.text,
        ...(used ? { usage: used } : {}),
      });
    }
  };
  add('skill', layout.userSkills);
  add('command', layout.userCommands);
  return { kind: 'read', entries: out };
}
