import { InputError, InputErrors, type InputLocation } from '../errors.js';
import { clipChars } from '../format.js';
import { isRecord } from '../guards.js';

/**
 * Collects every defect of one input file, so a user fixes them all in one pass instead of one
 * per run. Loaders always throw `InputErrors` (even for a single defect): callers such as `check`
 * catch one type and read `.errors`; the message is the same one-line-per-defect text either way.
 */
export class Problems {
  readonly errors: InputError[] = [];

  add(location: InputLocation, problem: string, fix?: string): void {
    this.errors.push(new InputError(location, problem, fix));
  }

  get count(): number {
    return this.errors.length;
  }

  throwIfAny(): void {
    if (this.errors.length > 0) throw new InputErrors(this.errors);
  }
}

/** Throws a single defect the same way a file with several is reported. */
export function inputFailure(location: InputLocation, problem: string, fix?: string): InputErrors {
  return new InputErrors([new InputError(location, problem, fix)]);
}

/** Quotes user text for an error message: JSON-escaped (no raw newlines or control bytes) and capped. */
export function quote(text: string, max = 60): string {
  return JSON.stringify(clipChars(text, max));
}

/** What a value is, in words, for "expected X, got Y" messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export { isRecord };

/** Characters as a person counts them (code points), not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
