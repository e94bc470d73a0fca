import type { RememberedToggle } from '../../../schemas/toggles.js';
import type { GateResult } from '../../gates.js';
import { gateNames } from '../../process/gate-book.js';
import type { ClaudeCommandResult } from '../command.js';
import type { RoundTripReading } from '../one-turn.js';
import { scanPlugin, userPlace } from '../plugin-folders.js';
import { readToggles, togglesPath, writeToggles } from '../toggles-file.js';
import { type Conflict, collectConflicts, judgeConflict, type PluginToggle } from './conflict.js';
import { type PluginList, parsePluginList } from './plugin-list.js';
import { reconcileToggles, rememberToggles } from './toggles.js';

/** What the conflict gate reads of the preflight's settings (`PreflightSettings`). */
export interface ConflictGateSettings {
  env: NodeJS.ProcessEnv;
  skillName?: string;
  skillNames?: string[];
  /** The results folder, which holds the toggles file. */
  out: string;
  allowConflict: boolean;
  now?: () => Date;
}

/**
 * The conflict gate as the preflight runs it: the plugin list read, each enabled plugin scanned for
 * a same-named skill or command, the user's own folders checked, and the printed toggles remembered.
 */
export async function conflictGate(
  settings: ConflictGateSettings,
  listed: ClaudeCommandResult,
  reading: RoundTripReading,
  outcome: { conflictAllowed: boolean; reminders: RememberedToggle[] },
): Promise<GateResult> {
  const list: PluginList = listed.timedOut
    ? { kind: 'unknown', quote: '(no answer in time)' }
    : parsePluginList(listed.stdout.trim() === '' ? listed.stderr : listed.stdout);
  const plugins = list.kind === 'plugins' ? list.plugins : undefined;
  const names = gateNames(settings);
  const name = names.length === 0 ? undefined : names.join(', ');
  const conflicts: Conflict[] = [];
  for (const one of names) conflicts.push(...(await conflictsOf(one, plugins, reading, settings.env)));
  const result = judgeConflict({
    list,
    ...(name === undefined ? {} : { name }),
    conflicts,
    allowConflict: settings.allowConflict,
  });
  outcome.conflictAllowed = result.status === 'warn' && settings.allowConflict;
  return rememberToggled(settings, result, { conflicts, plugins, name, outcome });
}

type ListedPlugins = Extract<PluginList, { kind: 'plugins' }>['plugins'];

/** The places a skill of this name conflicts: an enabled plugin that holds one, the user's own folders. */
async function conflictsOf(
  one: string,
  plugins: ListedPlugins | undefined,
  reading: RoundTripReading,
  env: NodeJS.ProcessEnv,
): Promise<Conflict[]> {
  if (!plugins) return [];
  return collectConflicts({
    name: one,
    plugins,
    scans: new Map(
      await Promise.all(
        plugins
          .filter((p) => p.enabled && p.path)
          .map(async (p) => [p.id, await scanPlugin(p.path ?? '', one)] as const),
      ),
    ),
    ...(reading.init ? { init: reading.init } : {}),
    initPlugins: reading.initPlugins,
    ...(await userPlace(env, one).then((place) => (place ? { place } : {}))),
  });
}

/**
 * The toggles file brought up to date: the reminders still to give kept, the plugins the user is
 * asked to disable remembered; a file that cannot be written or read turns an ok gate into a warning.
 */
async function rememberToggled(
  settings: ConflictGateSettings,
  judged: GateResult,
  found: {
    conflicts: Conflict[];
    plugins: ListedPlugins | undefined;
    name: string | undefined;
    outcome: { reminders: RememberedToggle[] };
  },
): Promise<GateResult> {
  let result = judged;
  const remembered = await readToggles(settings.out);
  const { keep, forgotten } = reconcileToggles(remembered.toggles, found.plugins);
  found.outcome.reminders = keep;
  // Remember only what the user is asked to do: on --allow-conflict nothing gets disabled.
  const printed: PluginToggle[] =
    result.status === 'fail' ? found.conflicts.flatMap((c) => (c.kind === 'plugin' ? [c.plugin] : [])) : [];
  const toggles = rememberToggles(keep, printed, found.name ?? '', (settings.now ?? (() => new Date()))());
  // An unreadable file is left alone unless there is something new to remember.
  if (forgotten.length > 0 || printed.length > 0) {
    try {
      await writeToggles(settings.out, toggles);
    } catch (error) {
      result = {
        ...result,
        status: result.status === 'ok' ? 'warn' : result.status,
        reason: `${result.reason}; could not update ${togglesPath(settings.out)}: ${(error as Error).message}`,
      };
    }
  }
  if (remembered.problem) {
    result = {
      ...result,
      status: result.status === 'ok' ? 'warn' : result.status,
      reason: `${result.reason}; ignored ${remembered.problem}${printed.length > 0 ? ' (replaced)' : ''}`,
      ...(result.fix ? {} : { fix: `delete ${togglesPath(settings.out)} (skilltrigger starts a new one)` }),
    };
  }
  return result;
}
