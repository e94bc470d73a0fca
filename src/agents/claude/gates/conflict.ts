import { type GateResult, gateResult } from '../../gates.js';
import type { InitInfo } from '../../runs.js';
import { shellWord, toggleCommands } from '../facts.js';
import type { InitPlugin } from '../one-turn.js';
import type { InstalledPlugin, PluginList } from './plugin-list.js';

/** A plugin to switch off while measuring, and back on afterwards. */
export interface PluginToggle {
  id: string;
  scope: string;
}

/** Something besides the stub that answers to the skill's name. */
export type Conflict =
  /** An enabled plugin carries it: toggles fix it. `where` says what was found (`skill`, `command`, a roster entry). */
  | { kind: 'plugin'; plugin: PluginToggle; where: string[] }
  /** The model's roster lists it, but no listed plugin carries it (user folder, built-in, inline plugin). */
  | { kind: 'loaded'; entry: string; place?: string };

export { shellWord, toggleCommands };

/** Roster entries that answer to `name`: `name` itself, or `<prefix>:name` (a plugin's, or a nested command). */
export function rosterHits(init: InitInfo, name: string): string[] {
  const hits = new Set<string>();
  for (const entry of [...init.slashCommands, ...init.skills]) {
    if (entry === name || entry.endsWith(`:${name}`)) hits.add(entry);
  }
  return [...hits];
}

/**
 * Combine what the plugins' folders hold with what the model's roster lists. A `plugin:name`
 * roster entry is traced through the init event's `plugins[]` to its id; an entry no listed
 * plugin accounts for (a user skill, a built-in) is a conflict without a toggle.
 */
export function collectConflicts(input: {
  name: string;
  plugins: InstalledPlugin[];
  /** Per enabled plugin id, what `scanPlugin` (src/agents/claude/plugin-folders.ts) found. */
  scans: Map<string, string[]>;
  init?: InitInfo;
  initPlugins: InitPlugin[];
  /** Where a bare same-named entry most likely comes from (e.g. `~/.claude/skills/<name>`), if found. */
  place?: string;
}): Conflict[] {
  const byId = new Map<string, { plugin: PluginToggle; where: string[] }>();
  const add = (plugin: PluginToggle, where: string) => {
    const known = byId.get(plugin.id) ?? { plugin, where: [] };
    if (!known.where.includes(where)) known.where.push(where);
    byId.set(plugin.id, known);
  };
  for (const plugin of input.plugins) {
    if (!plugin.enabled) continue;
    for (const where of input.scans.get(plugin.id) ?? []) add({ id: plugin.id, scope: plugin.scope }, where);
  }
  const loaded: Conflict[] = [];
  for (const entry of input.init ? rosterHits(input.init, input.name) : []) {
    const prefix = entry.includes(':') ? entry.slice(0, entry.indexOf(':')) : undefined;
    const source =
      prefix === undefined ? undefined : input.initPlugins.find((p) => p.name === prefix)?.source;
    const listed =
      input.plugins.find((p) => p.id === source) ??
      (prefix === undefined ? undefined : input.plugins.find((p) => p.id.split('@')[0] === prefix));
    if (listed) add({ id: listed.id, scope: listed.scope }, `roster entry "${entry}"`);
    else if (source !== undefined)
      // A plugin the list does not show (a built-in one): user scope is the one a temp project inherits.
      add({ id: source, scope: 'user' }, `roster entry "${entry}"`);
    else loaded.push({ kind: 'loaded', entry, ...(input.place ? { place: input.place } : {}) });
  }
  return [...[...byId.values()].map((c): Conflict => ({ kind: 'plugin', ...c })), ...loaded];
}

const ALLOW_HINT = 'or measure with it in place: --allow-conflict (the report records it)';

/** The conflict gate on a plugin list it cannot read: a failure quoting it, unless conflicts are allowed. */
function unknownListGate(quote: string, allowConflict: boolean): GateResult {
  const reason = `\`claude plugin list --json\` printed something unknown: "${quote}"`;
  return allowConflict
    ? gateResult('conflict', 'warn', `${reason}; measuring anyway (--allow-conflict)`)
    : gateResult(
        'conflict',
        'fail',
        reason,
        `update skilltrigger or the Claude CLI so they agree on the plugin list; ${ALLOW_HINT}`,
      );
}

/**
 * What each conflict is, said to the user, and what to do about it: the plugins to toggle (their
 * commands, which skilltrigger never runs), then each entry the model already sees.
 */
function conflictLines(conflicts: readonly Conflict[]): { reasons: string[]; fixes: string[] } {
  const reasons: string[] = [];
  const fixes: string[] = [];
  const toggles = conflicts.flatMap((c) => (c.kind === 'plugin' ? [c] : []));
  for (const c of toggles) {
    reasons.push(`the enabled plugin ${c.plugin.id} (${c.plugin.scope} scope) has ${c.where.join(', ')}`);
  }
  if (toggles.length > 0) {
    const commands = toggles.map((c) => toggleCommands(c.plugin));
    fixes.push(
      `disable ${toggles.length === 1 ? 'it' : 'them'} while measuring (skilltrigger runs neither command):`,
      ...commands.map((c) => `  ${c.disable}`),
      'and turn it back on afterwards:',
      ...commands.map((c) => `  ${c.enable}`),
    );
  }
  for (const c of conflicts) {
    if (c.kind !== 'loaded') continue;
    reasons.push(`the model already sees "${c.entry}"${c.place ? ` (from ${c.place})` : ''}`);
    fixes.push(
      c.place
        ? `move ${c.place} out of the way while measuring`
        : `find where "${c.entry}" comes from (~/.claude/skills, ~/.claude/commands, a built-in) and move it away, or rename the skill`,
    );
  }
  return { reasons, fixes };
}

/**
 * The conflict gate's rule. `list` is the parsed `plugin list` (or why it could not be read).
 * A conflict fails unless `--allow-conflict`; an unknown list shape fails too (quoting it), since
 * "could not tell" is not "no conflict" — unless conflicts are allowed anyway.
 */
export function judgeConflict(input: {
  list: PluginList;
  name?: string;
  conflicts: Conflict[];
  allowConflict: boolean;
}): GateResult {
  const { list, name, conflicts, allowConflict } = input;
  if (list.kind === 'unknown') return unknownListGate(list.quote, allowConflict);
  const enabled = list.plugins.filter((p) => p.enabled).length;
  const plugins = `${enabled} of ${list.plugins.length} installed plugin${list.plugins.length === 1 ? '' : 's'} enabled`;
  if (name === undefined) {
    return gateResult('conflict', 'ok', `${plugins}; no --skill given, so no name to check`);
  }
  if (conflicts.length === 0) {
    return gateResult('conflict', 'ok', `nothing besides the stub answers to "${name}" (${plugins})`);
  }
  const { reasons, fixes } = conflictLines(conflicts);
  fixes.push(ALLOW_HINT);
  const reason = `${reasons.join('; ')}: the model would choose between it and the stub`;
  return allowConflict
    ? gateResult(
        'conflict',
        'warn',
        `${reason}; measuring anyway (--allow-conflict, recorded in the report)`,
        fixes.slice(0, -1).join('\n') || undefined,
      )
    : gateResult('conflict', 'fail', reason, fixes.join('\n'));
}
