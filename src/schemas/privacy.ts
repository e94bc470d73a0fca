import { createHash } from 'node:crypto';
import type { Roster } from './report.js';

/**
 * What a report may say about private text (docs/security.md): a description only as its size and
 * SHA-256, roster members only as the first 12 hex of theirs. Twelve hex (48 bits) tells two
 * rosters apart for `compare` without making a list of names a lookup table.
 */

/** SHA-256 of the text's UTF-8 bytes, lowercase hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The first 12 hex of {@link sha256Hex}: how a roster member's name is stored. */
export function hash12(name: string): string {
  return sha256Hex(name).slice(0, 12);
}

/** A description as the report holds it: never the text. */
export interface DescribedText {
  /** UTF-8 byte length (what the skills spec's limits and the CLI's listing budget count in). */
  bytes: number;
  sha256: string;
  /** Measured from `--description` rather than the SKILL.md text. */
  overridden: boolean;
}

export function describeText(text: string, overridden: boolean): DescribedText {
  return { bytes: Buffer.byteLength(text, 'utf8'), sha256: sha256Hex(text), overridden };
}

/**
 * The roster the model saw, hashed. `exclude` holds the stub names of this measurement: they
 * differ on every run, so leaving them in would make every two reports' rosters differ.
 * Counts are of distinct names per list; `members` is the union, since the CLI lists a skill both
 * as a skill and as a slash command.
 */
export function rosterOf(
  slashCommands: readonly string[],
  skills: readonly string[],
  exclude: readonly string[],
): Roster {
  const excluded = new Set(exclude);
  const kept = (names: readonly string[]) => [...new Set(names)].filter((name) => !excluded.has(name));
  const commands = kept(slashCommands);
  const skillNames = kept(skills);
  const members = [...new Set([...commands, ...skillNames].map(hash12))].sort();
  return { slashCommands: commands.length, skills: skillNames.length, members };
}
