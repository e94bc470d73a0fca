import type { EvalItem, Skill } from './types.js';

/**
 * `run --siblings <dir>` (docs/matrix.md): the skills that compete with the tested one. Every SKILL.md
 * under each folder (read by src/inputs/sibling-files.ts) is a sibling, except the tested skill's own file
 * (the same file, by real path). Every defect is an input error (exit 1) found before anything runs:
 * a sibling that does not parse (its own errors, naming its file), a sibling with the tested
 * skill's name (two entries of one name would make "which one loaded" unanswerable), and two
 * siblings of one name.
 */

/** A sibling skill, parsed, with the file it was read from. */
export interface SiblingSkill {
  skill: Skill;
  /** The SKILL.md path as found (the folder given plus the relative path). */
  file: string;
}

/** The estimate printed before cross-negatives are spent: how many items, and at most how many runs. */
export function crossNegativesEstimate(
  cross: { items: readonly EvalItem[]; without: readonly string[] },
  runs: number,
): string {
  const most = cross.items.length * runs;
  const without = cross.without.length === 0 ? '' : `; no eval set beside ${cross.without.join(', ')}`;
  return `cross-negatives: ${cross.items.length} ${cross.items.length === 1 ? 'positive' : 'positives'} of the siblings added as negatives: up to ${most} more run${most === 1 ? '' : 's'} (${runs} per query)${without}`;
}
