import { isRecord } from '../../guards.js';

/**
 * The readers every stream parser of this folder shares (claude's stream-json, codex's `--json`, the
 * init line's plugins): one line of JSON as an object, and its fields as the type they should be.
 * Another program's output is read from `unknown`, so a field of the wrong type reads as absent.
 */

/** One line as a JSON object; undefined when it is not JSON or not an object. */
export function jsonRecord(line: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return isRecord(value) ? value : undefined;
}

/** A string field; undefined for any other type. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A finite number field; undefined for any other type, NaN or an infinity. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
