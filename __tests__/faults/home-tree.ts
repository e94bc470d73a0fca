import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A HOME compared file by file before and after skilltrigger's commands (docs/home.md): what may
 * differ is only what the CLI writes of its own accord.
 */

/** The CLI's own files, rewritten at every start (docs/home.md): the only change allowed. */
const REWRITTEN = /^\.claude\/plugins\/store\/[^/]+\.json$/;

/**
 * The CLI's retention-sweep marker (docs/home.md): written once in a HOME, by whichever start first
 * lives long enough to sweep, so in a young HOME it may appear during any command.
 */
const SWEEP_MARKER = '.claude/.last-cleanup';

const CONFIG = '.claude.json';

/**
 * The keys claude 2.1.328 writes into `~/.claude.json` on its first uses of a HOME (docs/home.md).
 * A start killed at its decision may end before writing some of them (`userID`, `pluginUsage`), and
 * a later start then adds them: in a young HOME they may appear during any command, never change or
 * vanish. Any other key (a `projects` entry for a temp project, say) is a change.
 */
export const FIRST_USE_KEYS: ReadonlySet<string> = new Set([
  'firstStartTime',
  'firstStartVersion',
  'hasResetAutoModeOptInForDefaultOffer',
  'machineID',
  'migrationVersion',
  'opusProMigrationComplete',
  'pluginUsage',
  'seenNotifications',
  'userID',
]);

/** Every file under `dir` by its SHA-256 (folders as `dir`); `~/.claude.json` by its text. */
export async function tree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const name of await readdir(d)) {
      const file = path.join(d, name);
      const rel = path.relative(dir, file);
      const info = await lstat(file);
      if (info.isDirectory()) {
        out.set(`${rel}/`, 'dir');
        await walk(file);
      } else {
        const bytes = await readFile(file);
        out.set(
          rel,
          rel === CONFIG ? bytes.toString('utf8') : createHash('sha256').update(bytes).digest('hex'),
        );
      }
    }
  };
  await walk(dir);
  return out;
}

/** Whether `~/.claude.json` only gained first-use keys: every key it had holds the same value. */
export function onlyFirstUseKeysAdded(before: string, after: string): boolean {
  let was: Record<string, unknown>;
  let now: Record<string, unknown>;
  try {
    was = JSON.parse(before);
    now = JSON.parse(after);
  } catch {
    return false;
  }
  return (
    Object.keys(now).every((key) =>
      key in was ? JSON.stringify(was[key]) === JSON.stringify(now[key]) : FIRST_USE_KEYS.has(key),
    ) && Object.keys(was).every((key) => key in now)
  );
}

/** Paths added, removed or changed between two trees, apart from what the CLI writes itself. */
export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const all = new Set([...before.keys(), ...after.keys()]);
  return [...all]
    .filter((p) => before.get(p) !== after.get(p) && !REWRITTEN.test(p))
    .filter((p) => !(p === SWEEP_MARKER && !before.has(p)))
    .filter((p) => {
      const was = before.get(p);
      const now = after.get(p);
      return !(p === CONFIG && was !== undefined && now !== undefined && onlyFirstUseKeysAdded(was, now));
    })
    .map((p) => `${before.has(p) ? (after.has(p) ? '~' : '-') : '+'} ${p}`)
    .sort();
}
