import type { InputLocation } from '../errors.js';
import { parseBooleanWord } from './eval-entry.js';
import { describeValue, isRecord, type Problems, quote } from './problems.js';

/**
 * The two annotations of an eval entry that change what the totals count (the entry keeps them in
 * `extra`, as the user wrote them, and so does the report):
 *
 * - `needs_context: true`: the prompt presupposes session history ("dump the state of this
 *   refactor"). `claude -p` starts from nothing, so such a prompt measures whether the model loads
 *   the skill before it goes looking for material a real session would already hold. Its runs are
 *   counted as usual, and the totals are also shown without it.
 * - `split: holdout` (or `test`/`validation`/`val`, or `holdout: true`): a query kept out of any
 *   tuning of the description; train (the default) and holdout are totalled apart.
 *
 * An AgentV test may carry either one on the test itself or under its `metadata`.
 */

const HOLDOUT_SPLITS = new Set(['holdout', 'test', 'validation', 'val']);
const TRAIN_SPLITS = new Set(['train', 'training']);
const SPLIT_WORDS = 'train or holdout';

type Extra = Record<string, unknown>;

/**
 * A field by its name, matched as the CSV reader matches its header (case-insensitively), the
 * exact spelling first.
 */
function field(fields: Extra, key: string): unknown {
  if (fields[key] !== undefined) return fields[key];
  const name = Object.keys(fields).find((k) => k.toLowerCase() === key);
  return name === undefined ? undefined : fields[name];
}

/** The annotation's value: on the entry itself, else under an AgentV test's `metadata`. */
function annotation(extra: Extra, key: string): unknown {
  const own = field(extra, key);
  if (own !== undefined) return own;
  const metadata = field(extra, 'metadata');
  return isRecord(metadata) ? field(metadata, key) : undefined;
}

/** A boolean annotation as JSON/YAML (true) or a CSV cell ("true", "yes", "1") writes it. */
function truthy(value: unknown): boolean {
  return value === true || (typeof value === 'string' && parseBooleanWord(value) === true);
}

/** Whether the entry is marked `needs_context: true` (it presupposes session history). */
export function needsContext(extra: Extra): boolean {
  return truthy(annotation(extra, 'needs_context'));
}

/** Whether the entry is held out: `split: holdout|test|validation|val`, or `holdout: true`. */
export function heldOut(extra: Extra): boolean {
  const split = annotation(extra, 'split');
  if (typeof split === 'string' && HOLDOUT_SPLITS.has(split.trim().toLowerCase())) return true;
  return truthy(annotation(extra, 'holdout'));
}

/**
 * Checks the annotations of one entry's extra fields. `typed` formats (JSON, YAML) must write a
 * boolean as a boolean: a quoted "false" is truthy to other tools that read the same file. In a
 * CSV every cell is text, so a yes/no word is the value and an empty cell means "not set".
 */
export function checkAnnotations(
  extra: Extra,
  location: InputLocation,
  problems: Problems,
  typed: boolean,
): void {
  const places: [Extra, string][] = [[extra, '']];
  for (const [key, value] of Object.entries(extra)) {
    if (key.toLowerCase() === 'metadata' && isRecord(value)) places.push([value, `${key}.`]);
  }
  for (const [fields, prefix] of places) {
    for (const [key, value] of Object.entries(fields)) {
      const name = key.toLowerCase();
      if (value === undefined) continue;
      const cell: Cell = { field: `${prefix}${key}`, location, problems, typed };
      if (name === 'needs_context' || name === 'holdout') checkBoolean(value, cell);
      else if (name === 'split') checkSplit(value, cell);
    }
  }
}

/** Where an annotation's value stands: its field (`metadata.` before it there), the file, the format. */
interface Cell {
  field: string;
  location: InputLocation;
  problems: Problems;
  typed: boolean;
}

function checkBoolean(value: unknown, { field, location, problems, typed }: Cell): void {
  if (typeof value === 'boolean') return;
  if (typeof value === 'string') {
    const word = parseBooleanWord(value);
    if (!typed && (word !== undefined || value.trim() === '')) return;
    if (typed && word !== undefined) {
      problems.add(
        location,
        `${field} is the string ${quote(value)}, not a boolean`,
        `write ${String(word)} without quotes`,
      );
      return;
    }
  }
  problems.add(
    location,
    `${field} must be true or false, got ${describeValue(value)}`,
    typed
      ? 'write true or false, without quotes'
      : 'write true or false (yes/no and 1/0 work too), or leave the cell empty',
  );
}

function checkSplit(value: unknown, { field, location, problems, typed }: Cell): void {
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (HOLDOUT_SPLITS.has(word) || TRAIN_SPLITS.has(word) || (!typed && word === '')) return;
  }
  problems.add(
    location,
    `${field} must be ${SPLIT_WORDS}, got ${describeValue(value)}`,
    `write ${field}: holdout for a query kept out of tuning, or leave it out (train is the default)`,
  );
}
