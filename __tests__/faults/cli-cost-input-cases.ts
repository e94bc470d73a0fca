import type { BadInputCase } from './bad-input-cases.js';

/**
 * The bad values of the CLI's cost flags (`--late`, `--max-cost-usd`, `--prices`) on
 * `run` and, where it takes them, `improve`: the CLI's side of action-cost-input-cases.ts, as
 * BAD_INPUT_CASES cases (it lists them at its end). Each stops with exit 1 before claude is
 * started: the flags are refused as they are parsed, and a `--prices` file is read and checked
 * before the gates. A value's message starts with its flag (the case's `flag`), then says what the
 * value must be (`must be …; got "…"`) or what is wrong with the file and the fix
 * (`: <file>: … Fix: …`); `improve --late` is an unknown option, as improve does not watch for late loads.
 */

/** `run` on the harness's valid skill and eval set, with `rest` and the stand-in claude. */
export const run = (...rest: string[]) => [
  'run',
  '--skill',
  '{skill}',
  '--eval',
  '{eval}',
  ...rest,
  '--claude',
  '{claude}',
  '--max-retries',
  '0',
];
/** improve needs a holdout (checked before the prices are read), so its cases bring their own eval set. */
const improve = (...rest: string[]) => [
  'improve',
  '--skill',
  '{skill}',
  '--eval',
  '{dir}/evals.json',
  ...rest,
  '--out',
  '{dir}/results',
  '--claude',
  '{claude}',
  '--max-retries',
  '0',
];
const IMPROVE_EVAL = {
  'evals.json': JSON.stringify([
    { query: 'write the handoff notes', should_trigger: true },
    { query: 'rename this variable', should_trigger: false },
    { query: 'write a handoff for the next session', should_trigger: true, split: 'holdout' },
    { query: 'fix the failing lint rule', should_trigger: false, split: 'holdout' },
  ]),
};

const lateTurns = '--late must be a whole number from 0 to 10 (turns to watch a miss for); got';
const dollars =
  '--max-cost-usd must be a number of US dollars above 0, such as 2.50 (or leave it out, for no budget); got';
/** The fix for a `--prices` file that is missing or cannot be read. */
const readFix =
  'Fix: pass --prices a JSON price table that exists (docs/cost.md), or leave it out for the built-in one';
/** The fix for a defect of the table's own fields (not a model's). */
const tableFix =
  'Fix: the table needs "source" (where the rates come from), "asOf" (the date they were read, YYYY-MM-DD) and "models" (the rates by model id), and nothing else; see docs/cost.md';
const ratesFix =
  'Fix: each model needs input, output, cacheWrite and cacheRead as non-negative numbers (US dollars per million tokens); see docs/cost.md';

const HAIKU = { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 };
/** A valid table's text with one change: a model's rates (or the whole table) replaced. */
const table = (change: Record<string, unknown> = {}, rates: Record<string, unknown> = {}) =>
  JSON.stringify({
    source: 'team rates',
    asOf: '2026-12-01',
    models: { 'claude-haiku-4-5': { ...HAIKU, ...rates } },
    ...change,
  });
/** A `run --prices {dir}/<file>` case whose file holds `text`. */
const pricesFile = (file: string, text: string) => ({
  files: { [file]: text },
  args: run('--prices', `{dir}/${file}`),
});

export const CLI_COST_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'flag-late-too-many',
    area: 'flags',
    what: '--late 11 (more turns than the cap)',
    args: run('--late', '11'),
    error: `${lateTurns} "11"`,
    flag: '--late',
    exit: 1,
  },
  {
    id: 'flag-late-negative',
    area: 'flags',
    what: '--late -1',
    args: run('--late', '-1'),
    error: `${lateTurns} "-1"`,
    flag: '--late',
    exit: 1,
  },
  {
    id: 'flag-late-word',
    area: 'flags',
    what: '--late three',
    args: run('--late', 'three'),
    error: `${lateTurns} "three"`,
    flag: '--late',
    exit: 1,
  },
  {
    id: 'flag-late-fraction',
    area: 'flags',
    what: '--late 1.5',
    args: run('--late', '1.5'),
    error: `${lateTurns} "1.5"`,
    flag: '--late',
    exit: 1,
  },
  {
    id: 'flag-late-empty',
    area: 'flags',
    what: '--late ""',
    args: run('--late', ''),
    error: `${lateTurns} ""`,
    flag: '--late',
    exit: 1,
  },
  {
    id: 'flag-max-cost-word',
    area: 'flags',
    what: '--max-cost-usd ten (not a number)',
    args: run('--max-cost-usd', 'ten'),
    error: `${dollars} "ten"`,
    flag: '--max-cost-usd',
    exit: 1,
  },
  {
    id: 'flag-max-cost-negative',
    area: 'flags',
    what: '--max-cost-usd -2',
    args: run('--max-cost-usd', '-2'),
    error: `${dollars} "-2"`,
    flag: '--max-cost-usd',
    exit: 1,
  },
  {
    id: 'flag-max-cost-zero',
    area: 'flags',
    what: '--max-cost-usd 0 (no run fits)',
    args: run('--max-cost-usd', '0'),
    error: `${dollars} "0"`,
    flag: '--max-cost-usd',
    exit: 1,
  },
  {
    id: 'flag-max-cost-comma',
    area: 'flags',
    what: '--max-cost-usd 2,50 (a decimal comma)',
    args: run('--max-cost-usd', '2,50'),
    error: `${dollars} "2,50"`,
    flag: '--max-cost-usd',
    exit: 1,
  },
  {
    id: 'flag-max-cost-exponent',
    area: 'flags',
    what: '--max-cost-usd 1e3 (an exponent)',
    args: run('--max-cost-usd', '1e3'),
    error: `${dollars} "1e3"`,
    flag: '--max-cost-usd',
    exit: 1,
  },
  {
    id: 'flag-max-cost-hex',
    area: 'flags',
    what: '--max-cost-usd 0x10 (hexadecimal)',
    args: run('--max-cost-usd', '0x10'),
    error: `${dollars} "0x10"`,
    flag: '--max-cost-usd',
    exit: 1,
  },
  {
    id: 'flag-max-cost-empty',
    area: 'flags',
    what: '--max-cost-usd ""',
    args: run('--max-cost-usd', ''),
    error: `${dollars} ""`,
    flag: '--max-cost-usd',
    exit: 1,
  },
  {
    id: 'flag-improve-max-cost-zero',
    area: 'flags',
    what: 'improve --max-cost-usd 0.00',
    files: IMPROVE_EVAL,
    args: improve('--max-cost-usd', '0.00'),
    error: `${dollars} "0.00"`,
    flag: '--max-cost-usd',
    exit: 1,
  },
  {
    id: 'flag-improve-max-cost-word',
    area: 'flags',
    what: 'improve --max-cost-usd "five dollars"',
    files: IMPROVE_EVAL,
    args: improve('--max-cost-usd', 'five dollars'),
    error: `${dollars} "five dollars"`,
    flag: '--max-cost-usd',
    exit: 1,
  },
  {
    id: 'flag-improve-late',
    area: 'flags',
    what: 'improve --late (only run watches for late loads)',
    files: IMPROVE_EVAL,
    args: improve('--late', '2'),
    error: 'unknown option --late for improve; it takes --skill, --eval,',
    exit: 1,
  },
  {
    id: 'flag-prices-empty',
    area: 'flags',
    what: '--prices ""',
    args: run('--prices', ''),
    error: '--prices: is empty (an empty string names no file). Fix: give --prices a <file>',
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-missing',
    area: 'price table',
    what: 'the file does not exist',
    args: run('--prices', '{dir}/no-such-prices.json'),
    error: `--prices: {dir}/no-such-prices.json: no such file. ${readFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-folder',
    area: 'price table',
    what: 'a folder, not a file',
    files: { 'prices-folder/prices.json': table() },
    args: run('--prices', '{dir}/prices-folder'),
    error: `--prices: {dir}/prices-folder: is a folder, not a price table file. ${readFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-not-json',
    area: 'price table',
    what: 'YAML instead of JSON',
    ...pricesFile('prices-not-json.json', 'claude-haiku-4-5:\n  input: 1\n'),
    // JSON.parse's own words (between the two) differ between Node versions.
    error: '--prices: {dir}/prices-not-json.json: not valid JSON (',
    fix: 'Fix: write the price table as JSON: {"source": "…", "asOf": "YYYY-MM-DD", "models": {',
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-empty-file',
    area: 'price table',
    what: 'an empty file',
    ...pricesFile('prices-empty.json', ''),
    error: '--prices: {dir}/prices-empty.json: not valid JSON (',
    fix: 'Fix: write the price table as JSON: {"source": "…", "asOf": "YYYY-MM-DD", "models": {"<model id>": {"input": 3',
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-array',
    area: 'price table',
    what: 'a JSON array, not a table',
    ...pricesFile('prices-array.json', JSON.stringify([{ 'claude-haiku-4-5': HAIKU }])),
    error: `--prices: {dir}/prices-array.json: not a valid price table: at the top level: Invalid input: expected object, received array. ${tableFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-rate-text',
    area: 'price table',
    what: 'a rate written as text',
    ...pricesFile('prices-rate-text.json', table({}, { input: '1.00' })),
    error: `--prices: {dir}/prices-rate-text.json: not a valid price table: at models.claude-haiku-4-5.input: Invalid input: expected number, received string. ${ratesFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-rate-negative',
    area: 'price table',
    what: 'a negative rate',
    ...pricesFile('prices-rate-negative.json', table({}, { output: -5 })),
    error: `--prices: {dir}/prices-rate-negative.json: not a valid price table: at models.claude-haiku-4-5.output: Too small: expected number to be >=0. ${ratesFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-misspelt-rate',
    area: 'price table',
    what: 'a misspelt rate name',
    ...pricesFile('prices-misspelt-rate.json', table({}, { cacheReads: 0.1 })),
    error: `--prices: {dir}/prices-misspelt-rate.json: not a valid price table: at models.claude-haiku-4-5: Unrecognized key: "cacheReads". ${ratesFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-rate-missing',
    area: 'price table',
    what: 'a model without its cacheWrite rate',
    ...pricesFile(
      'prices-rate-missing.json',
      table({ models: { 'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1 } } }),
    ),
    error: `--prices: {dir}/prices-rate-missing.json: not a valid price table: at models.claude-haiku-4-5.cacheWrite: Invalid input: expected number, received undefined. ${ratesFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-long-prompt-threshold',
    area: 'price table',
    what: 'a longPrompt without thresholdTokens',
    ...pricesFile('prices-long-prompt.json', table({}, { longPrompt: { ...HAIKU, input: 2 } })),
    error:
      '--prices: {dir}/prices-long-prompt.json: not a valid price table: at models.claude-haiku-4-5.longPrompt.thresholdTokens: Invalid input: expected number, received undefined. Fix: a longPrompt needs thresholdTokens (a whole number of prompt tokens above 0) and input, output, cacheWrite and cacheRead as non-negative numbers; see docs/cost.md',
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-model-id',
    area: 'price table',
    what: 'a model name with a space, not an id',
    ...pricesFile('prices-model-id.json', table({ models: { 'claude haiku': HAIKU } })),
    error:
      '--prices: {dir}/prices-model-id.json: not a valid price table: at models.claude haiku: Invalid key in record. Fix: name each model by its id, in letters, digits and . _ : - only, such as claude-haiku-4-5; see docs/cost.md',
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-no-models',
    area: 'price table',
    what: 'the rates at the top level, without models',
    ...pricesFile(
      'prices-no-models.json',
      JSON.stringify({ source: 'team rates', asOf: '2026-12-01', 'claude-haiku-4-5': HAIKU }),
    ),
    error: `--prices: {dir}/prices-no-models.json: not a valid price table: at models: Invalid input: expected record, received undefined. ${tableFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-models-empty',
    area: 'price table',
    what: 'models with no model in it (every run would be "price unknown")',
    ...pricesFile('prices-models-empty.json', table({ models: {} })),
    error: `--prices: {dir}/prices-models-empty.json: not a valid price table: at models: prices no model. ${tableFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-extra-key',
    area: 'price table',
    what: 'a key the table does not have ("currency")',
    ...pricesFile('prices-extra-key.json', table({ currency: 'USD' })),
    error: `--prices: {dir}/prices-extra-key.json: not a valid price table: at the top level: Unrecognized key: "currency". ${tableFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'prices-date',
    area: 'price table',
    what: 'asOf not a YYYY-MM-DD date',
    ...pricesFile('prices-date.json', table({ asOf: '1 December 2026' })),
    error:
      '--prices: {dir}/prices-date.json: not a valid price table: at asOf: Invalid string: must match pattern',
    fix: tableFix,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'improve-prices-missing',
    area: 'price table',
    what: 'improve: the file does not exist',
    files: IMPROVE_EVAL,
    args: improve('--prices', '{dir}/no-such-improve-prices.json'),
    error: `--prices: {dir}/no-such-improve-prices.json: no such file. ${readFix}`,
    flag: '--prices',
    exit: 1,
  },
  {
    id: 'improve-prices-rate-text',
    area: 'price table',
    what: 'improve: a rate written as text',
    files: { ...IMPROVE_EVAL, 'improve-prices.json': table({}, { cacheRead: 'free' }) },
    args: improve('--prices', '{dir}/improve-prices.json'),
    error: `--prices: {dir}/improve-prices.json: not a valid price table: at models.claude-haiku-4-5.cacheRead: Invalid input: expected number, received string. ${ratesFix}`,
    flag: '--prices',
    exit: 1,
  },
];
