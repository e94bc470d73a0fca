/**
 * Type guards for data parsed from `unknown` (another program's JSON, a file read back): shared
 * so every parser means the same by "an object".
 */

/** A plain object (not null, not an array): its fields may be read as `unknown`. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `code` of an OS error (`ENOENT`, …); undefined for anything else. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}
