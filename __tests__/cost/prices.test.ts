import { describe, expect, it } from 'vitest';
import { type PriceTable, parsePriceTable, priceFor, priceTableSchema } from '../../src/cost/prices.js';
import { InputError } from '../../src/errors.js';

// Price tables on their own, with a small table of this file's; cost.test.ts prices usage with the
// default table.
const RATES = { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 };
const TABLE: PriceTable = {
  source: 'test rates',
  asOf: '2026-12-01',
  models: {
    claude: { ...RATES, input: 99 },
    'claude-opus-5': { ...RATES, input: 5 },
    'claude-opus-5-5': { ...RATES, input: 4 },
    'gpt-5.1': { ...RATES, input: 1.25 },
  },
};

/** The message a table's text is refused with. */
function refusal(text: string): string {
  try {
    parsePriceTable(text, '--prices p.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).message;
  }
  throw new Error('the table was accepted');
}
const table = (models: unknown, top: Record<string, unknown> = {}) =>
  JSON.stringify({ source: 's', asOf: '2026-12-01', models, ...top });

describe('priceFor', () => {
  it('the exact id, or the longest key the id starts with followed by - or @', () => {
    expect(priceFor('claude-opus-5-5', TABLE)?.id).toBe('claude-opus-5-5');
    expect(priceFor('claude-opus-5-5-20261001', TABLE)?.id).toBe('claude-opus-5-5');
    expect(priceFor('claude-opus-5@20260101', TABLE)?.id).toBe('claude-opus-5');
    expect(priceFor('claude-opus-5-1', TABLE)?.id).toBe('claude-opus-5');
    expect(priceFor('claude-sonnet-5', TABLE)?.id).toBe('claude');
  });

  it('returns the price of the key it matched', () => {
    expect(priceFor('claude-opus-5-5', TABLE)).toEqual({
      id: 'claude-opus-5-5',
      price: { ...RATES, input: 4 },
    });
  });

  it('a bracketed context suffix at the end is ignored, and only there', () => {
    expect(priceFor('claude-opus-5-5[1m]', TABLE)?.id).toBe('claude-opus-5-5');
    expect(priceFor('claude-opus-5-5-20261001[1m]', TABLE)?.id).toBe('claude-opus-5-5');
    expect(priceFor('claude-opus-5-5[1m]x', TABLE)?.id).toBe('claude-opus-5');
  });

  it('a key that is only a prefix without a separator, an alias, or nothing at all has no price', () => {
    expect(priceFor('claude-opus-55', TABLE)?.id).toBe('claude');
    expect(priceFor('gpt-5.10', TABLE)).toBeUndefined();
    expect(priceFor('opus', TABLE)).toBeUndefined();
    expect(priceFor('', TABLE)).toBeUndefined();
    expect(priceFor('[1m]', TABLE)).toBeUndefined();
  });

  it('matching is case-sensitive, as model ids are', () => {
    expect(priceFor('Claude-Opus-5', TABLE)).toBeUndefined();
  });
});

describe('parsePriceTable', () => {
  it('reads a table, a long-prompt tier and a byte-order mark included', () => {
    const longPrompt = { thresholdTokens: 200_000, input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 };
    const text = `\uFEFF${table({ 'claude-x': { ...RATES, longPrompt } })}`;
    expect(parsePriceTable(text, 'p.json')).toEqual({
      source: 's',
      asOf: '2026-12-01',
      models: { 'claude-x': { ...RATES, longPrompt } },
    });
  });

  it('JSON that does not parse names the file and shows the shape to write', () => {
    expect(refusal('')).toBe(
      '--prices p.json: not valid JSON (Unexpected end of JSON input). Fix: write the price table as JSON: {"source": "…", "asOf": "YYYY-MM-DD", "models": {"<model id>": {"input": 3, "output": 15, "cacheWrite": 3.75, "cacheRead": 0.3}}} (US dollars per million tokens; see docs/cost.md)',
    );
  });

  it('a defect of the table itself gives the table fix', () => {
    const fix =
      'Fix: the table needs "source" (where the rates come from), "asOf" (the date they were read, YYYY-MM-DD) and "models" (the rates by model id), and nothing else; see docs/cost.md';
    expect(refusal('null')).toBe(
      `--prices p.json: not a valid price table: at the top level: Invalid input: expected object, received null. ${fix}`,
    );
    expect(refusal(table({ m: RATES }, { source: '' }))).toMatch(
      /^--prices p\.json: not a valid price table: at source: /,
    );
    expect(refusal(table({ m: RATES }, { asOf: '2026-12-1' }))).toContain('at asOf:');
    // The shape of a date is not enough: it is a day of the calendar.
    for (const asOf of ['2026-99-99', '2026-02-29', '2026-04-31', '2026-00-10']) {
      expect(refusal(table({ m: RATES }, { asOf })), asOf).toContain(
        `at asOf: not a day of the calendar. ${fix}`,
      );
    }
    expect(() => parsePriceTable(table({ m: RATES }, { asOf: '2028-02-29' }), 'p.json')).not.toThrow();
    expect(refusal(table({ m: RATES }, { currency: 'EUR' }))).toContain(
      `Unrecognized key: "currency". ${fix}`,
    );
    // zod's record would skip it unchecked: refused, never silently dropped, alone or beside others.
    for (const models of [
      '{"__proto__": {}}',
      `{"m": ${JSON.stringify(RATES)}, "__proto__": ${JSON.stringify(RATES)}}`,
    ]) {
      expect(refusal(`{"source": "s", "asOf": "2026-12-01", "models": ${models}}`)).toBe(
        '--prices p.json: not a valid price table: at models.__proto__: "__proto__" is not a model id. Fix: name each model by its id, in letters, digits and . _ : - only, such as claude-haiku-4-5; see docs/cost.md',
      );
    }
    expect(refusal(table({}))).toBe(
      `--prices p.json: not a valid price table: at models: prices no model. ${fix}`,
    );
  });

  it('a model id outside letters, digits and . _ : - gives the id fix', () => {
    expect(refusal(table({ 'claude opus': RATES }))).toBe(
      '--prices p.json: not a valid price table: at models.claude opus: Invalid key in record. Fix: name each model by its id, in letters, digits and . _ : - only, such as claude-haiku-4-5; see docs/cost.md',
    );
    expect(refusal(table({ 'claude/opus': RATES }))).toContain('Fix: name each model by its id');
  });

  it('a bad rate gives the rates fix, with the path to it', () => {
    const fix =
      'Fix: each model needs input, output, cacheWrite and cacheRead as non-negative numbers (US dollars per million tokens); see docs/cost.md';
    expect(refusal(table({ m: { ...RATES, output: -0.5 } }))).toMatch(
      /at models\.m\.output: .*Fix: each model needs/,
    );
    expect(refusal(table({ m: { ...RATES, cacheRead: '0.1' } }))).toContain('at models.m.cacheRead');
    expect(refusal(table({ m: { ...RATES, note: 'x' } }))).toContain(
      `at models.m: Unrecognized key: "note". ${fix}`,
    );
    // JSON has no infinity, but 1e999 reads as one.
    expect(refusal(table({ m: RATES }).replace('"input":1', '"input":1e999'))).toContain('at models.m.input');
  });

  it('a bad long-prompt tier gives the long-prompt fix', () => {
    const fix =
      'Fix: a longPrompt needs thresholdTokens (a whole number of prompt tokens above 0) and input, output, cacheWrite and cacheRead as non-negative numbers; see docs/cost.md';
    for (const thresholdTokens of [0, 1.5, undefined]) {
      const message = refusal(table({ m: { ...RATES, longPrompt: { ...RATES, thresholdTokens } } }));
      expect(message, String(thresholdTokens)).toContain('at models.m.longPrompt.thresholdTokens');
      expect(message).toContain(fix);
    }
    expect(refusal(table({ m: { ...RATES, longPrompt: { thresholdTokens: 10, input: 1 } } }))).toContain(
      'at models.m.longPrompt.output',
    );
  });

  it('a control character in a model id is escaped in the message', () => {
    expect(refusal(table({ 'a\u001b[2Jb': RATES }))).toContain('at models.a\\u001B[2Jb:');
  });
});

it('the schema accepts the table of this file', () => {
  expect(priceTableSchema.safeParse(TABLE).success).toBe(true);
});
