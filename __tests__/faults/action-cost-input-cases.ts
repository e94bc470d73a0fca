import type { ActionInputCase } from './bad-input-cases.js';

/**
 * The bad values of the Action's cost inputs (`late`, `prices`, `max-cost-usd`) and of
 * `routing-matrix`, as ACTION_INPUT_CASES cases (it lists them at its end; bad-inputs.e2e runs them
 * through the bundled Action). Each stops the step with exit 1 before claude is started: the
 * settings refuse a value, and a `prices` file is read and checked before the gates. A prices file
 * is written into the workspace under its case's own name, so no case reads another's.
 */

const lateTurns = 'input late: expected a whole number from 0 to 10 (turns to watch a miss for)';
const dollars =
  'input max-cost-usd: expected a number of US dollars above 0, such as 2.50 (or empty, for no budget)';
const relativeTable =
  'input prices: expected a price table file relative to the workspace, such as .github/skilltrigger-prices.json (no leading / and no ..)';
/** The fix the Action gives for a `prices` file that is missing or cannot be read. */
const pricesFix =
  'Fix: set prices to a JSON price table in the repository (docs/cost.md), or leave it empty for the built-in one';

/** The fix for a defect of the table's own fields (not a model's). */
const tableFix =
  'Fix: the table needs "source" (where the rates come from), "asOf" (the date they were read, YYYY-MM-DD) and "models" (the rates by model id), and nothing else';

/** A valid table's text with one change: a model's rates (or the whole table) replaced. */
const table = (change: Record<string, unknown> = {}, rates: Record<string, unknown> = {}) =>
  JSON.stringify({
    source: 'team rates',
    asOf: '2026-12-01',
    models: { 'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1, ...rates } },
    ...change,
  });

export const ACTION_COST_INPUT_CASES: readonly ActionInputCase[] = [
  {
    id: 'action-late-too-many',
    input: 'late',
    value: '11',
    what: 'more turns than the cap',
    error: `${lateTurns}, got "11"`,
    exit: 1,
  },
  {
    id: 'action-late-negative',
    input: 'late',
    value: '-1',
    what: 'negative',
    error: `${lateTurns}, got "-1"`,
    exit: 1,
  },
  {
    id: 'action-late-word',
    input: 'late',
    value: 'three',
    what: 'a word',
    error: `${lateTurns}, got "three"`,
    exit: 1,
  },
  {
    id: 'action-late-fraction',
    input: 'late',
    value: '1.5',
    what: 'a fraction',
    error: `${lateTurns}, got "1.5"`,
    exit: 1,
  },
  {
    id: 'action-max-cost-word',
    input: 'max-cost-usd',
    value: 'ten',
    what: 'not a number',
    error: `${dollars}, got "ten"`,
    exit: 1,
  },
  {
    id: 'action-max-cost-negative',
    input: 'max-cost-usd',
    value: '-2',
    what: 'negative',
    error: `${dollars}, got "-2"`,
    exit: 1,
  },
  {
    id: 'action-max-cost-zero',
    input: 'max-cost-usd',
    value: '0',
    what: 'zero (no run fits)',
    error: `${dollars}, got "0"`,
    exit: 1,
  },
  {
    id: 'action-max-cost-comma',
    input: 'max-cost-usd',
    value: '2,50',
    what: 'a decimal comma',
    error: `${dollars}, got "2,50"`,
    exit: 1,
  },
  {
    id: 'action-max-cost-exponent',
    input: 'max-cost-usd',
    value: '1e3',
    what: 'an exponent',
    error: `${dollars}, got "1e3"`,
    exit: 1,
  },
  {
    id: 'action-max-cost-routing-matrix',
    input: 'max-cost-usd',
    value: '2',
    with: { 'routing-matrix': 'true' },
    what: 'a budget with routing-matrix: true (the matrix runs are neither estimated nor stopped)',
    error:
      'input max-cost-usd: does not budget the routing matrix (routing-matrix: true), whose runs are not estimated or stopped. Fix: leave max-cost-usd empty, or set routing-matrix: false',
    exit: 1,
  },
  {
    id: 'action-routing-matrix-yes',
    input: 'routing-matrix',
    value: 'yes',
    what: 'yes instead of true',
    error: 'input routing-matrix: expected true or false, got "yes"',
    exit: 1,
  },
  {
    id: 'action-prices-absolute',
    input: 'prices',
    value: '/etc/skilltrigger-prices.json',
    what: 'an absolute path',
    error: `${relativeTable}, got "/etc/skilltrigger-prices.json"`,
    exit: 1,
  },
  {
    id: 'action-prices-parent',
    input: 'prices',
    value: '../prices.json',
    what: 'a path leaving the workspace',
    error: `${relativeTable}, got "../prices.json"`,
    exit: 1,
  },
  {
    id: 'action-prices-missing',
    input: 'prices',
    value: '.github/no-such-prices.json',
    what: 'the file does not exist',
    error: `input prices: .github/no-such-prices.json: no such file. ${pricesFix}`,
    exit: 1,
  },
  {
    id: 'action-prices-folder',
    input: 'prices',
    value: '.github/prices-folder',
    files: { '.github/prices-folder/prices.json': table() },
    what: 'a folder, not a file',
    error: `input prices: .github/prices-folder: is a folder, not a price table file. ${pricesFix}`,
    exit: 1,
  },
  {
    id: 'action-prices-not-json',
    input: 'prices',
    value: '.github/prices-not-json.json',
    files: { '.github/prices-not-json.json': 'claude-haiku-4-5:\n  input: 1\n' },
    what: 'YAML instead of JSON',
    // JSON.parse's own words (between the two) differ between Node versions.
    error: 'input prices: .github/prices-not-json.json: not valid JSON (',
    fix: 'Fix: write the price table as JSON: {"source": "…", "asOf": "YYYY-MM-DD", "models": {',
    exit: 1,
  },
  {
    id: 'action-prices-rate-text',
    input: 'prices',
    value: '.github/prices-rate-text.json',
    files: { '.github/prices-rate-text.json': table({}, { input: '1.00' }) },
    what: 'a rate written as text',
    error:
      'input prices: .github/prices-rate-text.json: not a valid price table: at models.claude-haiku-4-5.input: Invalid input: expected number, received string. Fix: each model needs input, output, cacheWrite and cacheRead as non-negative numbers',
    exit: 1,
  },
  {
    id: 'action-prices-misspelt-rate',
    input: 'prices',
    value: '.github/prices-misspelt-rate.json',
    files: { '.github/prices-misspelt-rate.json': table({}, { cacheReads: 0.1 }) },
    what: 'a misspelt rate name',
    error:
      'input prices: .github/prices-misspelt-rate.json: not a valid price table: at models.claude-haiku-4-5: Unrecognized key: "cacheReads". Fix: each model needs input, output, cacheWrite and cacheRead',
    exit: 1,
  },
  {
    id: 'action-prices-model-id',
    input: 'prices',
    value: '.github/prices-model-id.json',
    files: {
      '.github/prices-model-id.json': table({
        models: { 'claude haiku': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 } },
      }),
    },
    what: 'a model name with a space, not an id',
    error:
      'input prices: .github/prices-model-id.json: not a valid price table: at models.claude haiku: Invalid key in record. Fix: name each model by its id, in letters, digits and . _ : - only, such as claude-haiku-4-5',
    exit: 1,
  },
  {
    id: 'action-prices-no-models',
    input: 'prices',
    value: '.github/prices-no-models.json',
    files: {
      '.github/prices-no-models.json': JSON.stringify({
        source: 'team rates',
        asOf: '2026-12-01',
        'claude-haiku-4-5': { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 },
      }),
    },
    what: 'the rates at the top level, without models',
    error: `input prices: .github/prices-no-models.json: not a valid price table: at models: Invalid input: expected record, received undefined. ${tableFix}`,
    exit: 1,
  },
  {
    id: 'action-prices-date',
    input: 'prices',
    value: '.github/prices-date.json',
    files: { '.github/prices-date.json': table({ asOf: '1 December 2026' }) },
    what: 'asOf not a YYYY-MM-DD date',
    error:
      'input prices: .github/prices-date.json: not a valid price table: at asOf: Invalid string: must match pattern',
    fix: tableFix,
    exit: 1,
  },
];
