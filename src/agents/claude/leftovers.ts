/** The files a `claude` leaves in the user's HOME, and their removal (docs/home.md). */
import { readdir, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** The CLI's config folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function configFolder(env: Record<string, string | undefined>): string | undefined {
  const home = env.HOME;
  return env.CLAUDE_CONFIG_DIR || (home ? path.join(home, '.claude') : undefined);
}

async function removeMatching(dir: string, matches: (name: string) => boolean): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter(matches)
      .map((name) => rm(path.join(dir, name), { recursive: true, force: true }).catch(() => undefined)),
  );
}

/** The longest folder name the CLI makes from a path; a longer one is cut and given a hash suffix. */
const SLUG_LIMIT = 200;

/**
 * The names the CLI may give `<config>/projects/<name>` for a working folder: every character but
 * ASCII letters and digits becomes `-`, as 2.1.328 does. A name over 200 characters is cut there and
 * ends in `-<hash>`; the hash is the CLI's own, so such a name is matched by its first 200
 * characters plus the `-`. The folder's real path counts too (the CLI reads the cwd through
 * symlinks, as macOS's /var → /private/var).
 */
async function projectFolderNames(config: string, dir: string): Promise<string[]> {
  const real = await realpath(dir).catch(() => dir);
  const slugs = [...new Set([dir, real].map((p) => p.replace(/[^a-zA-Z0-9]/g, '-')))];
  if (slugs.every((slug) => slug.length <= SLUG_LIMIT)) return slugs;
  const names = await readdir(path.join(config, 'projects')).catch(() => [] as string[]);
  return slugs.flatMap((slug) =>
    slug.length <= SLUG_LIMIT
      ? [slug]
      : names.filter((name) => name.startsWith(`${slug.slice(0, SLUG_LIMIT)}-`)),
  );
}

/**
 * Whether `dir` is a folder skilltrigger made for claude to run in (`<tmp>/skilltrigger-…/project`).
 * Only such a folder's `projects/` entry is removed: its name is random, so the entry can only be
 * one a skilltrigger run made. A claude run anywhere else (the cli gate's `--version` in the temp
 * folder) keeps whatever the CLI keeps for that folder.
 */
function isTempProject(dir: string): boolean {
  return path.basename(path.dirname(dir)).startsWith('skilltrigger-');
}

/**
 * What a claude process leaves in the config folder once it is gone:
 * - `<config>/projects/<slug of its cwd>/` with an empty `memory/` inside, made at every start for
 *   the working folder (the auto-memory path the init event reports). A temp project's entry is
 *   litter in the user's HOME; it is removed whether claude exited or was killed. Disabling auto
 *   memory instead would change the request the model is sent.
 * - after a KILL only: `<config>/sessions/<pid>.json` and `<pid>.<hash>.key` (and their `.tmp`
 *   files), and `.claude.json.tmp.<pid>.*` if the kill came mid-write (seen with strace on
 *   2.1.328). On a TERM or an exit the CLI removes them itself; this does so for that pid only.
 * The config folder is `CLAUDE_CONFIG_DIR`, else `~/.claude`; `.claude.json` sits in the config
 * folder or in HOME. What the CLI makes under TMPDIR is not touched here: every claude skilltrigger
 * starts gets a TMPDIR of its own, removed after it.
 */
export async function removeSessionLeftovers(
  pid: number,
  env: Record<string, string>,
  cwd?: string,
): Promise<void> {
  const home = env.HOME;
  const config = configFolder(env);
  if (!config) return;
  const own = `${pid}.`;
  const jsonTemp = `.claude.json.tmp.${pid}.`;
  await Promise.all([
    removeMatching(path.join(config, 'sessions'), (name) => name.startsWith(own)),
    removeMatching(config, (name) => name.startsWith(jsonTemp)),
    home && !env.CLAUDE_CONFIG_DIR ? removeMatching(home, (name) => name.startsWith(jsonTemp)) : undefined,
    cwd && isTempProject(cwd)
      ? projectFolderNames(config, cwd).then((names) =>
          Promise.all(
            names.map((name) =>
              rm(path.join(config, 'projects', name), { recursive: true, force: true }).catch(
                () => undefined,
              ),
            ),
          ),
        )
      : undefined,
  ]);
}

/**
 * The `<config>/projects/` entries of the temp projects in a dead skilltrigger's temp folder, for
 * the sweep that removes that folder: its claude was killed with no one left to remove them. Read
 * before the folder goes (a name comes from the project's real path).
 */
export async function removeProjectEntriesIn(
  tempFolder: string,
  env: Record<string, string | undefined>,
): Promise<void> {
  const config = configFolder(env);
  if (!config) return;
  const entries = await readdir(tempFolder, { withFileTypes: true }).catch(() => []);
  const projects = entries
    .filter((e) => e.isDirectory())
    .map((e) => path.join(tempFolder, e.name))
    .filter(isTempProject);
  const names = (await Promise.all(projects.map((dir) => projectFolderNames(config, dir)))).flat();
  await Promise.all(
    names.map((name) =>
      rm(path.join(config, 'projects', name), { recursive: true, force: true }).catch(() => undefined),
    ),
  );
}

/**
 * The CLI writes `~/.claude.json` and the plugin store (`<config>/plugins/store/*.json`, rewritten
 * at every start) under a lock (a `<file>.lock` folder), to a `<file>.tmp.<hex>` file renamed into
 * place. A run killed at its decision in the middle of that write leaves the lock or the temp file
 * (seen about once in ten runs). Those made since `sinceMs` are removed once no claude of this
 * command runs any more: removing them while a claude of ours still starts up could take a live
 * lock from under it. A claude of the user's own that writes the same file in that instant is the
 * one case this cannot tell apart (docs/home.md).
 */
export async function removeInterruptedWrites(
  env: Record<string, string | undefined>,
  sinceMs: number,
): Promise<void> {
  const config = configFolder(env);
  if (!config) return;
  const home = env.HOME;
  const removeRecent = async (dir: string, matches: (name: string) => boolean) => {
    const names = (await readdir(dir).catch(() => [] as string[])).filter(matches);
    for (const name of names) {
      const info = await stat(path.join(dir, name)).catch(() => undefined);
      if (info !== undefined && info.mtimeMs >= sinceMs)
        await rm(path.join(dir, name), { recursive: true, force: true }).catch(() => undefined);
    }
  };
  await removeRecent(path.join(config, 'plugins', 'store'), (name) => /\.json\.(lock$|tmp\.)/.test(name));
  const jsonLock = (name: string) => name === '.claude.json.lock';
  await removeRecent(config, jsonLock);
  if (home && !env.CLAUDE_CONFIG_DIR) await removeRecent(home, jsonLock);
}
