import { isRecord } from '../../../guards.js';
import { firstLine, stripAnsi } from '../../../program-output.js';

/** One installed plugin as `claude plugin list` describes it (docs/claude-cli.md §7). */
export interface InstalledPlugin {
  /** `name@marketplace`, as the enable/disable commands take it. */
  id: string;
  /** `user`, `project`, `local` (or whatever the CLI reports): the `--scope` of the toggles. */
  scope: string;
  /** The effective state in the folder the list was taken in. */
  enabled: boolean;
  /** Where its skills and commands are: `installPath` (JSON), else `Read from:` (human form). */
  path?: string;
}

export type PluginList =
  | { kind: 'plugins'; form: 'json' | 'human' | 'none'; plugins: InstalledPlugin[] }
  /** A shape the parser does not know; `quote` is what to show the user (the first line). */
  | { kind: 'unknown'; quote: string };

function unknownShape(text: string): PluginList {
  return { kind: 'unknown', quote: firstLine(text) || '(no output)' };
}

function fromJson(value: unknown, text: string): PluginList {
  if (!Array.isArray(value)) return unknownShape(text);
  const plugins: InstalledPlugin[] = [];
  for (const entry of value) {
    if (
      !isRecord(entry) ||
      typeof entry.id !== 'string' ||
      entry.id === '' ||
      typeof entry.scope !== 'string' ||
      typeof entry.enabled !== 'boolean'
    ) {
      return { kind: 'unknown', quote: firstLine(JSON.stringify(entry) ?? String(entry)) };
    }
    plugins.push({
      id: entry.id,
      scope: entry.scope,
      enabled: entry.enabled,
      ...(typeof entry.installPath === 'string' && entry.installPath !== ''
        ? { path: entry.installPath }
        : {}),
    });
  }
  return { kind: 'plugins', form: 'json', plugins };
}

const INSTALLED_HEADER = /^Installed plugins:?$/i;
const NONE_LINE = /^No plugins installed\b/i;
/** `❯ stubplug@local-mkt` (the marker varies with the terminal; `>`, `*`, `-` and none are accepted). */
const PLUGIN_LINE = /^(?:[❯›>*•-]\s*)?([^\s:]+@[^\s:]+)$/;
const FIELD_LINE = /^([A-Za-z][A-Za-z ]*?):\s*(.*)$/;

/**
 * The human form:
 * ```
 * Installed plugins:
 *
 *   ❯ stubplug@local-mkt
 *     Version: 0.1.0
 *     Read from: /…/plugins/stubplug
 *     Scope: user
 *     Status: ✔ enabled
 * ```
 */
function fromHuman(text: string): PluginList {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const start = lines.findIndex((l) => l !== '');
  const plugins: InstalledPlugin[] = [];
  let current: { id: string; line: string; fields: Map<string, string> } | undefined;
  const close = (): PluginList | undefined => {
    if (!current) return undefined;
    const scope = current.fields.get('scope');
    const status = current.fields.get('status')?.toLowerCase();
    const enabled =
      status === undefined
        ? undefined
        : /\bdisabled\b/.test(status)
          ? false
          : /\benabled\b/.test(status)
            ? true
            : undefined;
    if (!scope || enabled === undefined) return { kind: 'unknown', quote: current.line };
    const path = current.fields.get('read from') ?? current.fields.get('path');
    plugins.push({ id: current.id, scope, enabled, ...(path ? { path } : {}) });
    current = undefined;
    return undefined;
  };
  for (const line of lines.slice(start + 1)) {
    if (line === '') continue;
    const plugin = PLUGIN_LINE.exec(line);
    if (plugin?.[1]) {
      const bad = close();
      if (bad) return bad;
      current = { id: plugin[1], line, fields: new Map() };
      continue;
    }
    const field = FIELD_LINE.exec(line);
    if (current && field?.[1] !== undefined) {
      current.fields.set(field[1].toLowerCase(), (field[2] ?? '').trim());
      continue;
    }
    return { kind: 'unknown', quote: line };
  }
  const bad = close();
  if (bad) return bad;
  return { kind: 'plugins', form: 'human', plugins };
}

/**
 * Parse what `claude plugin list --json` printed. The JSON array is what 2.1.x prints; the human
 * form and the "No plugins installed" line are what a CLI that ignores `--json` prints. Anything
 * else is unknown, and the conflict gate fails quoting it rather than guessing that nothing is
 * installed.
 */
export function parsePluginList(output: string): PluginList {
  const text = stripAnsi(output).trim();
  if (text === '') return unknownShape(text);
  if (text.startsWith('[') || text.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return unknownShape(text);
    }
    return fromJson(value, text);
  }
  const head = firstLine(text, Number.POSITIVE_INFINITY);
  if (NONE_LINE.test(head)) return { kind: 'plugins', form: 'none', plugins: [] };
  if (INSTALLED_HEADER.test(head)) return fromHuman(text);
  return unknownShape(text);
}
