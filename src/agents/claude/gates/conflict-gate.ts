import type { RememberedToggle } from '../../../schemas/toggles.js';
import type { GateResult } from '../../agent.js';
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
  const names = [
    ...new Set([
      ...(settings.skillName === undefined ? [] : [settings.skillName]),
      ...(settings.skillNames ?? []),
    ]),
  ];
  const name = names.length === 0 ? undefined : names.join(', ');

  const conflictsOf = async (one: string): Promise<Conflict[]> =>
    plugins
      ? collectConflicts({
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
          ...(await userPlace(settings.env, one).then((place) => (place ? { place } : {}))),
        })
      : [];
  const conflicts: Conflict[] = [];
  for (const one of names) conflicts.push(...(await conflictsOf(one)));
  let result = judgeConflict({
    list,
    ...(name === undefined ? {} : { name }),
    conflicts,
    allowConflict: settings.allowConflict,
  });
  outcome.conflictAllowed = result.status === 'warn' && settings.allowConflict;

  const remembered = await readToggles(settings.out);
  const { keep, forgotten } = reconcileToggles(remembered.toggles, plugins);
  outcome.reminders = keep;
  // Remember only what the user is asked to do: on --allow-conflict nothing gets disabled.
  const printed: PluginToggle[] =
    result.status === 'fail' ? conflicts.flatMap((c) => (c.kind === 'plugin' ? [c.plugin] : [])) : [];
  const toggles = rememberToggles(keep, printed, name ?? '', (settings.now ?? (() => new Date()))());
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
