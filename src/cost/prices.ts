import { z } from 'zod';
import { InputError, messageOf } from '../errors.js';
import { isRecord } from '../guards.js';

/**
 * Price tables: what a model's tokens cost, in US dollars per million tokens. The default table is
 * src/cost/price-table.ts; `--prices <file>` replaces it with a JSON file of the same shape.
 */

/** `2026-02-28` is, `2026-02-29` and `2026-99-99` are not: the day a UTC date prints back as itself. */
function isCalendarDay(text: string): boolean {
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

const rate = z.number().finite().nonnegative();

const ratesSchema = z.strictObject({
  /** Uncached input tokens. */
  input: rate,
  output: rate,
  /** Tokens written to the prompt cache (priced at the 5-minute rate). */
  cacheWrite: rate,
  /** Tokens read from the prompt cache. */
  cacheRead: rate,
});

const modelPriceSchema = ratesSchema.extend({
  /** Rates for a request whose prompt (input + cache reads + cache writes) passes `thresholdTokens`. */
  longPrompt: ratesSchema.extend({ thresholdTokens: z.number().int().positive() }).optional(),
});

export const priceTableSchema = z.strictObject({
  /** Where the rates come from, in words (shown in the Markdown report). */
  source: z.string().min(1),
  /** The date the rates were read, YYYY-MM-DD: a day of the calendar (not 2026-99-99 or 2026-02-29). */
  asOf: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .refine(isCalendarDay, { message: 'not a day of the calendar' }),
  /** Keyed by model id; a reported model matches the longest key it starts with. */
  models: z
    .record(z.string().regex(/^[A-Za-z0-9._:-]+$/), modelPriceSchema)
    // An empty table prices nothing: every run would be "price unknown", and --max-cost-usd refused after the gates.
    .refine((models) => Object.keys(models).length > 0, { message: 'prices no model' }),
});

export type PriceTable = z.infer<typeof priceTableSchema>;
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** The fix for a price table's first defect, by where it is: the table's own fields, a model's id, or its rates. */
function priceTableFix(where: readonly PropertyKey[], code: string | undefined): string {
  if (where[0] !== 'models' || where.length === 1) {
    return 'the table needs "source" (where the rates come from), "asOf" (the date they were read, YYYY-MM-DD) and "models" (the rates by model id), and nothing else; see docs/cost.md';
  }
  if (where.includes('longPrompt')) {
    return 'a longPrompt needs thresholdTokens (a whole number of prompt tokens above 0) and input, output, cacheWrite and cacheRead as non-negative numbers; see docs/cost.md';
  }
  if (code === 'invalid_key') {
    return 'name each model by its id, in letters, digits and . _ : - only, such as claude-haiku-4-5; see docs/cost.md';
  }
  return 'each model needs input, output, cacheWrite and cacheRead as non-negative numbers (US dollars per million tokens); see docs/cost.md';
}

/**
 * Reads a `--prices` file's text; every defect is an input error naming the file (`file`, as the
 * message should name it: the CLI puts its flag before the path) and the entry.
 */
export function parsePriceTable(text: string, file: string): PriceTable {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new InputError(
      { file },
      `not valid JSON (${messageOf(error)})`,
      'write the price table as JSON: {"source": "…", "asOf": "YYYY-MM-DD", "models": {"<model id>": {"input": 3, "output": 15, "cacheWrite": 3.75, "cacheRead": 0.3}}} (US dollars per million tokens; see docs/cost.md)',
    );
  }
  // zod's record skips a "__proto__" key unchecked (it would set the prototype of the object it
  // builds), so the model would vanish without a word: no model has that id, so it is refused.
  if (isRecord(value) && isRecord(value.models) && Object.hasOwn(value.models, '__proto__')) {
    throw new InputError(
      { file },
      'not a valid price table: at models.__proto__: "__proto__" is not a model id',
      priceTableFix(['models', '__proto__'], 'invalid_key'),
    );
  }
  const parsed = priceTableSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.map(String).join('.') : 'the top level';
    throw new InputError(
      { file },
      `not a valid price table: at ${where}: ${issue?.message ?? 'invalid'}`,
      priceTableFix(issue?.path ?? [], issue?.code),
    );
  }
  return parsed.data;
}

/**
 * The price of a model as the CLI reported or was asked for it: the longest key of the table the
 * id starts with (`claude-haiku-4-5-20251001` → `claude-haiku-4-5`), ignoring a `[1m]`-style
 * context suffix. An alias (`sonnet`) or an unknown id has no price.
 */
export function priceFor(model: string, table: PriceTable): { id: string; price: ModelPrice } | undefined {
  const bare = model.replace(/\[[^\]]*\]$/, '');
  let best: string | undefined;
  for (const id of Object.keys(table.models)) {
    const fits = bare === id || (bare.startsWith(id) && /^[-@]/.test(bare.slice(id.length)));
    if (fits && (best === undefined || id.length > best.length)) best = id;
  }
  const price = best === undefined ? undefined : table.models[best];
  return best === undefined || price === undefined ? undefined : { id: best, price };
}
