/**
 * Every numeric setting of the CLI's flags and the Action's inputs, in one place: one grammar for
 * how a number is written, and one range per setting. `cli/option-values.ts` turns a refusal into
 * `--name must be …; got "…"`, `action/settings.ts` into `input name: expected …, got "…"`; the
 * rule behind both is the one here. Pure; no I/O.
 *
 * The grammar is plain digits with an optional decimal part (`30`, `2.5`): no sign, no exponent,
 * no hex, no `_` and no leading or trailing point. `Number()` alone takes `0x10` as 16 and `1e3`
 * as 1000, a value the user did not mean to type.
 */

/** How one numeric setting is written, and the values it takes. */
export interface NumericSetting {
  /** `whole`: digits only. `decimal`: digits with an optional decimal part. */
  grammar: 'whole' | 'decimal';
  /** The smallest value taken (itself taken unless `aboveMin`). */
  min: number;
  /** Only values above `min` (a threshold of 0, a budget of $0 mean nothing). */
  aboveMin?: true;
  /** The largest value taken; absent: no cap. */
  max?: number;
  /** What the number counts, in the message: `a number of seconds …`. */
  unit?: string;
  /** A value to show, where the range alone does not say how the number looks. */
  example?: string;
  /** What the value means, said after the range in the message. */
  meaning?: string;
  /** A leading `$` is allowed (a budget, as people write dollars). */
  dollarSign?: true;
}

/**
 * The shortest per-run (and per-call) timeout. With the simulated model answering at once, one run
 * of the pinned claude took 1.8 to 5.2 s on a loaded 2-core machine (CLI start, the turn, the
 * stream); a real model adds its own latency on top. Below 5 s nearly every run would time out,
 * and a measurement of timeouts is no measurement (docs/faults.md, `flag-timeout-below-floor`).
 */
export const TIMEOUT_FLOOR_SECONDS = 5;
/** The longest timeout: an hour for one run or one call. */
export const MAX_TIMEOUT_SECONDS = 3600;
/** The most runs per query (and the highest `auto:` maximum). */
export const MAX_RUNS = 100;
/** The most turns `--late` (and the Action's `late`) watches a miss for. */
export const MAX_LATE_TURNS = 10;
/**
 * The most warm standbys (`--standby`): each is a waiting claude of ~210 MB, and past a few they
 * only compete with the measured run for the cores (docs/speed.md, "A warm standby").
 */
export const MAX_STANDBY = 4;

/** The fewest and the most characters `--context-fill` takes (docs/context.md, "Filling context"). */
export const CONTEXT_FILL_MIN = 500;
export const CONTEXT_FILL_MAX = 1_000_000;

const timeout = (meaning?: string): NumericSetting => ({
  grammar: 'decimal',
  min: TIMEOUT_FLOOR_SECONDS,
  max: MAX_TIMEOUT_SECONDS,
  unit: 'seconds',
  ...(meaning === undefined ? {} : { meaning }),
});

/** The numeric settings, by the name of their flag or input. */
export const NUMERIC_SETTINGS = {
  runs: { grammar: 'whole', min: 1, max: MAX_RUNS },
  /** The `N` of `--runs auto:N`: one run says nothing about a rate. */
  autoMax: { grammar: 'whole', min: 2, max: MAX_RUNS },
  timeout: timeout(),
  'ask-timeout': timeout(),
  late: { grammar: 'whole', min: 0, max: MAX_LATE_TURNS, meaning: 'turns to watch a miss for' },
  'max-retries': { grammar: 'whole', min: 0, max: 10 },
  threshold: { grammar: 'decimal', min: 0, aboveMin: true, max: 0.999 },
  'max-cost-usd': {
    grammar: 'decimal',
    min: 0,
    aboveMin: true,
    unit: 'US dollars',
    example: '2.50',
    dollarSign: true,
  },
  count: { grammar: 'whole', min: 4, max: 100 },
  iterations: { grammar: 'whole', min: 1, max: 20 },
  'context-fill': {
    grammar: 'whole',
    min: CONTEXT_FILL_MIN,
    max: CONTEXT_FILL_MAX,
    unit: 'characters',
    meaning: 'of the shipped conversation before each query',
  },
  standby: {
    grammar: 'whole',
    min: 0,
    max: MAX_STANDBY,
    meaning: 'waiting processes (0: every run starts cold)',
  },
} as const satisfies Record<string, NumericSetting>;

export type NumericSettingName = keyof typeof NUMERIC_SETTINGS;

const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(?:\.\d+)?$/;

/** The value `text` writes under `setting`, or undefined when the grammar or the range refuses it. */
export function readNumber(setting: NumericSetting, text: string): number | undefined {
  let written = text.trim();
  if (setting.dollarSign) written = written.replace(/^\$/, '');
  if (!(setting.grammar === 'whole' ? WHOLE : DECIMAL).test(written)) return undefined;
  const n = Number(written);
  if (!Number.isFinite(n) || (setting.grammar === 'whole' && !Number.isSafeInteger(n))) return undefined;
  if (setting.aboveMin ? n <= setting.min : n < setting.min) return undefined;
  if (setting.max !== undefined && n > setting.max) return undefined;
  return n;
}

/** What `setting` takes, as the tail of `must be …` or `expected …`: `a whole number from 1 to 100`. */
export function accepted(setting: NumericSetting): string {
  const what = `${setting.grammar === 'whole' ? 'a whole number' : 'a number'}${setting.unit ? ` of ${setting.unit}` : ''}`;
  const range = setting.aboveMin
    ? `above ${setting.min}${setting.max === undefined ? '' : ` and at most ${setting.max}`}`
    : setting.max === undefined
      ? `of at least ${setting.min}`
      : `from ${setting.min} to ${setting.max}`;
  const example = setting.example === undefined ? '' : `, such as ${setting.example}`;
  const meaning = setting.meaning === undefined ? '' : ` (${setting.meaning})`;
  return `${what} ${range}${example}${meaning}`;
}
