import { createHash } from 'node:crypto';
import { MASK, maskSecrets } from '../mask.js';
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

/** `name=value`, `name: value` or `Bearer value` where the name says the value is a credential. */
const NAMED_CREDENTIAL =
  /\b((?:[a-z0-9]+[-_])?(?:api[-_]?key|key|token|secret|password|passwd|pwd|authorization|credentials?|cookie)\s*[:=]\s*(?:bearer\s+|basic\s+)?|bearer\s+|basic\s+)("[^"]*"|'[^']*'|[^\s,;]+)/gi;

/**
 * A path: `/a/…` (two parts at least: `/login` is a command), `~/…`, `./…`, `../…`; not the `/`
 * inside a URL or after a word.
 */
const PATH = /(?<![\w.:/~*-])(?:(?:~|\.{1,2})\/|\/[^\s'"`,;()<>[\]{}/]+\/)[^\s'"`,;()<>[\]{}]*/g;

/** A token by its vendor prefix: GitHub's, OpenAI's and Slack's keys, an AWS access key id. */
const PREFIXED_TOKEN = /\b(?:gh[pousr]_|github_pat_|sk-|xox[abposr]-|AKIA)[A-Za-z0-9_-]{6,}/g;

/** A word of 20 or more key characters holding both letters and digits: a key of any shape. */
const KEY_LIKE_WORD =
  /(?<![\w/.-])(?=[A-Za-z0-9_+/=.-]*\d)(?=[A-Za-z0-9_+/=.-]*[A-Za-z])[A-Za-z0-9_+/=.-]{20,}/g;

/**
 * What a gate (or any message) may quote of an agent's output, in every channel (terminal, job
 * summary, annotation, PR comment): its first non-empty line, cut at `max` characters, masked
 * (src/mask.ts), with each path as `<path>` and each credential-looking value as `***`. The
 * output of a program skilltrigger starts is outside text: an error names the files it could not
 * read and may repeat a token it was given (docs/security.md).
 */
export function agentQuote(text: string, max = 160): string {
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  const quoted = maskSecrets(line)
    .replace(NAMED_CREDENTIAL, (_whole, name: string) => `${name}${MASK}`)
    .replace(PREFIXED_TOKEN, MASK)
    .replace(PATH, '<path>')
    .replace(KEY_LIKE_WORD, MASK);
  return quoted.length > max ? `${quoted.slice(0, max - 1)}…` : quoted;
}
