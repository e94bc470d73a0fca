import type { RememberedToggle } from '../../../schemas/toggles.js';
import type { PluginToggle } from './conflict.js';
import type { InstalledPlugin } from './plugin-list.js';

// The toggles file itself (its place, read and atomic write) is the toggles-file adapter's.

/**
 * Which remembered toggles still stand, given the plugin list of this preflight: a plugin that is
 * enabled again, or no longer installed, is forgotten; one still disabled is kept (and reminded).
 * Without a readable list nothing can be told, so everything is kept.
 */
export function reconcileToggles(
  remembered: RememberedToggle[],
  plugins: InstalledPlugin[] | undefined,
): { keep: RememberedToggle[]; forgotten: RememberedToggle[] } {
  if (plugins === undefined) return { keep: remembered, forgotten: [] };
  const keep: RememberedToggle[] = [];
  const forgotten: RememberedToggle[] = [];
  for (const toggle of remembered) {
    const installed = plugins.filter((p) => p.id === toggle.id);
    const disabled = installed.length > 0 && installed.every((p) => !p.enabled);
    (disabled ? keep : forgotten).push(toggle);
  }
  return { keep, forgotten };
}

/** Add newly printed toggles (one entry per plugin and scope; the newest print wins). */
export function rememberToggles(
  kept: RememberedToggle[],
  printed: PluginToggle[],
  skill: string,
  now: Date,
): RememberedToggle[] {
  const key = (t: PluginToggle) => `${t.scope}\u0000${t.id}`;
  const byKey = new Map(kept.map((t) => [key(t), t]));
  for (const t of printed)
    byKey.set(key(t), { id: t.id, scope: t.scope, skill, printedAt: now.toISOString() });
  return [...byKey.values()];
}
