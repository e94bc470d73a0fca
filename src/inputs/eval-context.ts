/**
 * An eval-set entry's own context (docs/context.md, "A context per entry"): `context` names a
 * context file, relative to the eval set, or holds the turns inline. Read here as the entry is read
 * (pure); a file is read later, by `resolveEvalContexts` (src/inputs/files.ts). The field leaves
 * the entry's extra fields, so neither its text nor its path reaches a report.
 */
import type { InputLocation } from '../errors.js';
import { readInlineTurns } from './context.js';
import { describeValue, type Problems, quote } from './problems.js';
import type { ContextRef } from './types.js';

const FIX =
  'give "context" the path of a context file (relative to the eval set), or the turns inline as [{"role": "user", "content": "…"}, {"role": "assistant", "content": "…"}]';

/** The entry's field named `context`, in any case (a CSV header is matched so). */
function contextKey(fields: Record<string, unknown>): string | undefined {
  if ('context' in fields) return 'context';
  return Object.keys(fields).find((k) => k.toLowerCase() === 'context');
}

/**
 * Takes `context` out of `extra` (the entry's other fields) and reads it. `typed` formats (JSON,
 * YAML) give a path as a string or the turns as a list; in a CSV every cell is text: an empty cell
 * is no context, a cell that starts with `[` holds the turns as JSON, any other is a path.
 */
export function takeContext(
  extra: Record<string, unknown>,
  location: InputLocation,
  problems: Problems,
  typed: boolean,
): ContextRef | undefined {
  const key = contextKey(extra);
  if (key === undefined) return undefined;
  const value = extra[key];
  delete extra[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') {
      if (!typed) return undefined;
      problems.add(location, 'context is empty', FIX);
      return undefined;
    }
    if (!typed && text.startsWith('[')) return inlineFromCell(text, location, problems);
    if (text.includes('\0') || /[\r\n]/.test(text)) {
      problems.add(location, `context ${quote(text)} is not a file path`, FIX);
      return undefined;
    }
    return { kind: 'file', path: text };
  }
  if (Array.isArray(value)) {
    const turns = readInlineTurns(value, contextLocation(location), problems);
    return turns === undefined ? undefined : { kind: 'inline', turns };
  }
  problems.add(location, `context must be a file path or a list of turns, got ${describeValue(value)}`, FIX);
  return undefined;
}

/** Messages about the inline turns name the entry's context: `entry #3, context, turn #2`. */
function contextLocation(location: InputLocation): InputLocation {
  return { ...location, entry: location.entry ? `${location.entry}, context` : 'context' };
}

function inlineFromCell(text: string, location: InputLocation, problems: Problems): ContextRef | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    problems.add(
      location,
      `context starts with "[" but is not a JSON list of turns (${error instanceof Error ? error.message : String(error)})`,
      'write the turns as JSON in the cell (quotes doubled inside a quoted CSV field), or the path of a context file',
    );
    return undefined;
  }
  if (!Array.isArray(data)) return undefined;
  const turns = readInlineTurns(data, contextLocation(location), problems);
  return turns === undefined ? undefined : { kind: 'inline', turns };
}
