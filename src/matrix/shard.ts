/**
 * Splitting a repository's skills over a workflow matrix (pure), for the Action's `shard` input and
 * the CLI's `matrix --shard` alike. GitHub Actions is the distributed
 * engine: each matrix leg runs the Action with `shard: i/n` and measures its part; a merge job
 * (`mode: merge`) gathers the legs' results files and posts the one comment. Every leg of a commit
 * must pick the same split without talking to the others, so the split depends only on the paths.
 */

/** One leg of a matrix: `index` of `count`, 1-based (`shard: 2/3`). */
export interface Shard {
  index: number;
  count: number;
}

/** More legs than this is a typo, not a plan (GitHub's matrix allows 256 jobs per workflow run). */
export const MAX_SHARDS = 64;

/** `i/n` with 1 ≤ i ≤ n ≤ 64; undefined for anything else (the caller names the input). */
export function parseShard(text: string): Shard | undefined {
  const m = /^(\d{1,3})\s*\/\s*(\d{1,3})$/.exec(text.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (index < 1 || count < 1 || index > count || count > MAX_SHARDS) return undefined;
  return { index, count };
}

export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/**
 * The items of one shard: sorted by path (by UTF-16 code units, never by locale, so every runner
 * sorts alike), item k (0-based) goes to shard (k mod n) + 1.
 */
export function takeShard<T extends { path: string }>(items: readonly T[], shard: Shard): T[] {
  return [...items]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .filter((_, k) => (k % shard.count) + 1 === shard.index);
}
