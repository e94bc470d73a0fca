import { UsageError } from '../errors.js';
import type { EvalItem } from '../inputs/types.js';
import type { MatrixRun } from '../schemas/matrix.js';
import { MAX_SHARDS, parseShard as parseShardText, type Shard } from './shard.js';

/**
 * The plan of a routing matrix (pure). Every installed skill competes in every run; only the skills
 * with an eval set own queries. One run of a query informs every skill at once (which of them it
 * loaded), so the whole repository costs the sum of its queries, not N times it.
 */

/** A skill of the matrix as the plan needs it: its name and its eval set's items (null: no eval set). */
export interface PlannedSkill {
  name: string;
  items: readonly EvalItem[] | null;
}

/** One query of the matrix: the skill whose eval set holds it, and the entry. */
export interface MatrixQueryRef {
  owner: string;
  item: EvalItem;
}

/** One slot of the plan: a query (index into the plan's queries) and its pass (0-based). */
export interface MatrixSlot {
  query: number;
  pass: number;
}

export type { Shard } from './shard.js';

/** The skills in the order every part of the matrix uses: by name, in code-unit order (locale-free). */
export function sortSkills<T extends { name: string }>(skills: readonly T[]): T[] {
  return [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Every query of every set: skills by name, each set in its own order. */
export function matrixQueries(skills: readonly PlannedSkill[]): MatrixQueryRef[] {
  return sortSkills(skills).flatMap((s) => (s.items ?? []).map((item) => ({ owner: s.name, item })));
}

/**
 * Strictly serial and round-robin, as `run` (src/measure/loop.ts): pass 1 over every query of
 * every set, then pass 2, … — so a slow patch of minutes spreads over every skill.
 */
export function planMatrix(queries: number, runsPerQuery: number): MatrixSlot[] {
  const plan: MatrixSlot[] = [];
  for (let pass = 0; pass < runsPerQuery; pass++)
    for (let query = 0; query < queries; query++) plan.push({ query, pass });
  return plan;
}

/**
 * `--shard i/n`, read by the same rule as the Action's `shard` input (matrix/shard.ts), so a
 * workflow matrix that splits skills can split a routing matrix with the same values.
 */
export function parseShard(value: string): Shard {
  const shard = parseShardText(value);
  if (shard === undefined)
    throw new UsageError(
      `--shard must be i/n, this leg's number and the number of legs, 1 ≤ i ≤ n ≤ ${MAX_SHARDS} (e.g. --shard 2/4); got "${value}"`,
    );
  return shard;
}

/**
 * The queries leg `shard` measures: every n-th query of the full list, starting at the i-th. The
 * slice depends only on the list (sorted skills, each set's order), so every leg computes its own
 * without talking to the others, the legs cover every query exactly once, and each query's runs
 * all land in one leg (its per-query figures need no joining). Every skill stays installed in
 * every leg: the competition is the whole repository whatever the slice.
 */
export function shardQueries<T>(queries: readonly T[], shard: Shard | undefined): T[] {
  if (shard === undefined) return [...queries];
  return queries.filter((_, k) => k % shard.count === shard.index - 1);
}

/** One finished run of the matrix, for the progress line. */
export interface MatrixProgress {
  /** 0-based index of the query among this leg's queries, and their number. */
  query: number;
  queries: number;
  owner: string;
  pass: number;
  runsPerQuery: number;
  went: MatrixRun;
  durationMs: number;
  done: number;
  planned: number;
}
