import { UsageError } from '../errors.js';
import { accepted, NUMERIC_SETTINGS, type NumericSettingName, readNumber } from '../numeric-settings.js';
import { InputDefaults, type InputName } from './constants.js';

/** Reads one input's raw text (core.getInput in the Action; a map in tests). */
export type InputReader = (name: InputName) => string;

/** One input read as each kind of value the Action takes; a bad value throws a UsageError naming it. */
export interface InputText {
  /** The trimmed text, or the input's default when empty. */
  raw(name: InputName): string;
  /** The text, or undefined when it (and its default) is empty. */
  optional(name: InputName): string | undefined;
  /** One entry a line; blank lines and `#` comments dropped. */
  lines(name: InputName): string[];
  boolean(name: InputName): boolean;
  /** The number grammar and range of the CLI flag of the same name (numeric-settings.ts). */
  numeric(name: InputName & NumericSettingName, also?: string): number;
  /** An exact semver version (a cache key part, so never a range or a tag). */
  exactVersion(name: InputName, example: string): string;
}

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

function quoted(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);
}

/** The error for a bad input value: the input, what it accepts, and (shortened) what it got. */
export function bad(name: InputName, accepts: string, value: string): UsageError {
  return new UsageError(`input ${name}: expected ${accepts}, got ${quoted(value)}`);
}

export function inputText(read: InputReader): InputText {
  const raw = (name: InputName): string => {
    const value = read(name).trim();
    return value === '' ? (InputDefaults[name] ?? '') : value;
  };
  return {
    raw,
    optional: (name) => raw(name) || undefined,
    lines: (name) =>
      raw(name)
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#')),
    boolean: (name) => {
      const value = raw(name);
      // The YAML 1.2 core-schema spellings, as core.getBooleanInput accepts them.
      if (['true', 'True', 'TRUE'].includes(value)) return true;
      if (['false', 'False', 'FALSE'].includes(value)) return false;
      throw bad(name, 'true or false', value);
    },
    numeric: (name, also = '') => {
      const value = raw(name);
      const n = readNumber(NUMERIC_SETTINGS[name], value);
      if (n === undefined) throw bad(name, `${accepted(NUMERIC_SETTINGS[name])}${also}`, value);
      return n;
    },
    exactVersion: (name, example) => {
      const value = raw(name);
      if (!EXACT_VERSION.test(value)) {
        throw bad(
          name,
          `an exact version such as ${example} (ranges and tags like "latest" would make the cached install lie about its version)`,
          value,
        );
      }
      return value;
    },
  };
}
