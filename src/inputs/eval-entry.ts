import type { InputLocation } from '../errors.js';
import { describeValue, type Problems, quote } from './problems.js';
import type { ContextRef } from './types.js';
import { loneSurrogate } from './utf8.js';

/**
 * One entry as a format reader saw it, before the checks every format shares (ids, duplicates,
 * positives and negatives). A field the reader could not read is undefined and already reported.
 */
export interface Candidate {
  /** 1-based position in the file's list of entries (the default id is `q<position>`). */
  position: number;
  /** Where the entry sits, for messages. */
  location: InputLocation;
  /** The entry's own id, as text, when it has one. */
  id?: string;
  query?: string;
  shouldTrigger?: boolean;
  extra: Record<string, unknown>;
  /** The entry's `context`, when it has a readable one. */
  context?: ContextRef;
}

/** A reader's entry from the fields it read; one it could not read (undefined) is left out. */
export function candidateOf(
  position: number,
  location: InputLocation,
  read: { id: string | undefined; query: string | undefined; shouldTrigger: boolean | undefined },
  extra: Record<string, unknown>,
  context?: ContextRef,
): Candidate {
  const { id, query, shouldTrigger } = read;
  return {
    position,
    location,
    ...(id !== undefined ? { id } : {}),
    ...(query !== undefined ? { query } : {}),
    ...(shouldTrigger !== undefined ? { shouldTrigger } : {}),
    extra,
    ...(context === undefined ? {} : { context }),
  };
}

/** `entry #4` or `entry #4, id "abc"`: what a person needs to find the entry in the file. */
export function entryLabel(position: number, id?: string): string {
  return id === undefined ? `entry #${position}` : `entry #${position}, id ${JSON.stringify(id)}`;
}

/**
 * The longest prompt, in UTF-8 bytes, that `claude -p` can take: the prompt is one command-line
 * argument, and Linux refuses a single argument of 32 pages (128 KiB with 4 KiB pages, counting
 * its NUL) with E2BIG. Measured: 131,071 bytes start, 131,072 do not.
 */
export const MAX_QUERY_BYTES = 131_071;

/**
 * A prompt's text, trimmed. Control characters other than tab and newline are refused: a NUL
 * cannot be passed as a `claude -p` argument, and the others garble terminals and reports. A
 * prompt over MAX_QUERY_BYTES is refused: no run of it could ever start.
 */
export function readQuery(
  value: unknown,
  field: string,
  location: InputLocation,
  problems: Problems,
  hint?: string,
): string | undefined {
  const query = typeof value === 'string' ? value.trim() : undefined;
  const problem =
    query === undefined || query === '' ? shapeProblem(value, field, hint) : textProblem(query, field);
  if (problem) {
    problems.add(location, ...problem);
    return undefined;
  }
  return query;
}

/** A prompt missing, not text, or empty: the problem and its fix. */
function shapeProblem(value: unknown, field: string, hint: string | undefined): [string, string] {
  if (value === undefined)
    return [`${field} is missing`, hint ?? `add "${field}" with the prompt a user would type, as text`];
  if (typeof value !== 'string')
    return [`${field} must be text, got ${describeValue(value)}`, `write the prompt as a quoted string`];
  return [`${field} is empty`, 'write the prompt a user would type, or delete the entry'];
}

/** What makes a prompt's text unusable (invisible, a control character, half a pair, too long), if anything. */
function textProblem(query: string, field: string): [string, string] | undefined {
  const invisible = invisibleOnly(query);
  if (invisible !== undefined) {
    return [
      `${field} holds only invisible characters (${invisible}), so it is empty to a reader`,
      'write the prompt a user would type, or delete the entry',
    ];
  }
  const control = [...query].find(isControlCharacter);
  if (control !== undefined) {
    const code = (control.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    return [
      `${field} contains the control character U+${code}`,
      'remove it (a prompt is passed to claude as a command-line argument)',
    ];
  }
  const surrogate = loneSurrogate(query);
  if (surrogate !== undefined) {
    return [
      `${field} contains ${surrogate}, half of a UTF-16 surrogate pair (an escape such as "\\ud83d" without its partner), which is not a character`,
      'write the character itself, or both halves of the pair',
    ];
  }
  const bytes = Buffer.byteLength(query, 'utf8');
  if (bytes > MAX_QUERY_BYTES) {
    return [
      `${field} is ${kib(bytes)} KiB (${bytes} bytes); claude takes the prompt as one command-line argument, and the system refuses one over ${kib(MAX_QUERY_BYTES + 1)} KiB (E2BIG), so no run could start`,
      `shorten it below ${MAX_QUERY_BYTES + 1} bytes; a trigger query is what a user would type`,
    ];
  }
  return undefined;
}

function kib(bytes: number): string {
  return (bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1);
}

/**
 * Characters that show nothing: format characters (zero-width space U+200B, joiners, U+2060,
 * U+FEFF, the soft hyphen), white space `trim` leaves, and the Hangul and Braille blanks.
 */
const INVISIBLE = /^[\p{Cf}\p{Z}\s\u115F\u1160\u3164\uFFA0\u2800]+$/u;

/**
 * For a text made only of invisible characters, the distinct ones as `U+200B, U+2060`; undefined
 * when the text shows anything. Such a text passes a `trim() === ''` test and is still empty.
 */
export function invisibleOnly(text: string): string | undefined {
  if (text === '' || !INVISIBLE.test(text)) return undefined;
  const codes = [...new Set([...text].map((c) => c.codePointAt(0) ?? 0))];
  return codes
    .slice(0, 4)
    .map((c) => `U+${c.toString(16).toUpperCase().padStart(4, '0')}`)
    .join(', ');
}

/** A C0 control character other than tab, newline and CR, or DEL: refused in queries and descriptions. */
export function isControlCharacter(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code < 0x20 && char !== '\t' && char !== '\n' && char !== '\r') || code === 0x7f;
}

/**
 * A yes/no word as spreadsheets and hand-written files spell it. Returns undefined for anything
 * else, so the caller can say what it got.
 */
export function parseBooleanWord(text: string): boolean | undefined {
  switch (text.trim().toLowerCase()) {
    case 'true':
    case 'yes':
    case '1':
      return true;
    case 'false':
    case 'no':
    case '0':
      return false;
    default:
      return undefined;
  }
}

/**
 * `should_trigger` in a typed format (JSON, YAML). A quoted "true" is refused rather than
 * coerced: the same file may be read by skill-creator, where any non-empty string is truthy, so
 * "false" in quotes would silently become a positive there.
 */
export function readTypedShouldTrigger(
  value: unknown,
  location: InputLocation,
  problems: Problems,
): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && parseBooleanWord(value) !== undefined) {
    const word = String(parseBooleanWord(value));
    problems.add(
      location,
      `should_trigger is the string ${quote(value)}, not a boolean`,
      `write ${word} without quotes`,
    );
    return undefined;
  }
  problems.add(
    location,
    value === undefined
      ? 'should_trigger is missing'
      : `should_trigger must be true or false, got ${describeValue(value)}`,
    value === undefined
      ? 'add "should_trigger": true for a prompt that should load the skill, false for one that should not'
      : 'write true or false, without quotes',
  );
  return undefined;
}
