/** The files a killed `claude` leaves behind, and their removal (see `removeSessionLeftovers`). */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * What a claude process leaves when it is killed instead of exiting: `<config>/sessions/<pid>.json`
 * and `<pid>.<hash>.key` (and their `.tmp` files), and `.claude.json.tmp.<pid>.*` if the kill came
 * mid-write (docs/claude-cli.md §8; seen with strace on 2.1.328). On a TERM the CLI removes them
 * itself; after a KILL this does, for that pid only. The config folder is `CLAUDE_CONFIG_DIR`, else
 * `~/.claude`; `.claude.json` sits in the config folder or in HOME. The socket and file-watch probes
 * the CLI makes under TMPDIR are not touched here: a measured run gets a TMPDIR of its own, inside
 * its temp project, which is removed with it.
 */
export async function removeSessionLeftovers(pid: number, env: Record<string, string>): Promise<void> {
  const home = env.HOME;
  const config = env.CLAUDE_CONFIG_DIR || (home ? path.join(home, '.claude') : undefined);
  if (!config) return;
  const remove = async (dir: string, matches: (name: string) => boolean) => {
    const names = await readdir(dir).catch(() => [] as string[]);
    await Promise.all(
      names.filter(matches).map((name) => rm(path.join(dir, name), { force: true }).catch(() => undefined)),
    );
  };
  const own = `${pid}.`;
  await remove(path.join(config, 'sessions'), (name) => name.startsWith(own));
  const jsonTemp = `.claude.json.tmp.${pid}.`;
  await remove(config, (name) => name.startsWith(jsonTemp));
  if (home && !env.CLAUDE_CONFIG_DIR) await remove(home, (name) => name.startsWith(jsonTemp));
}
