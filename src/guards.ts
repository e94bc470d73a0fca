/**
 * Type guards for data parsed from `unknown` (another program's JSON, a file read back): shared
 * so every parser means the same by "an object".
 */

/** A plain object (not null, not an array): its fields may be read as `unknown`. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
