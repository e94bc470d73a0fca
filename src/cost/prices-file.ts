import { InputError, SkilltriggerError } from '../errors.js';
import { errorCode } from '../guards.js';
import { readInputText } from '../system/input-file.js';
import { type PricesIdentity, pricesIdentity } from './budget.js';
import { DEFAULT_PRICE_TABLE } from './price-table.js';
import { type PriceTable, parsePriceTable } from './prices.js';

/**
 * The price table a measurement is costed with: the built-in one, or a JSON file (the CLI's
 * `--prices`, the Action's `prices` input). Reading the file is this module's job; the table's
 * rules are in cost/.
 */

export interface Prices {
  table: PriceTable;
  identity: PricesIdentity;
}

/**
 * The built-in table, or the `--prices` file; a file that cannot be read or parsed is an input
 * error naming the flag and the file (`--prices: <file>: …`; the Action names its input instead,
 * from the same problem and fix).
 */
export async function loadPrices(file: string | undefined): Promise<Prices> {
  if (file === undefined)
    return { table: DEFAULT_PRICE_TABLE, identity: pricesIdentity(DEFAULT_PRICE_TABLE) };
  if (file.trim() === '') {
    throw new InputError(
      { file: '--prices' },
      'is empty',
      'name a JSON price table file (docs/cost.md), or leave --prices out for the built-in one',
    );
  }
  const named = `--prices: ${file}`;
  let text: string;
  try {
    text = await readInputText(file, 'the price table');
  } catch (error) {
    if (error instanceof SkilltriggerError) throw error;
    const code = errorCode(error);
    throw new InputError(
      { file: named },
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, not a price table file'
          : `cannot be read (${code ?? 'unknown error'})`,
      'pass --prices a JSON price table that exists (docs/cost.md), or leave it out for the built-in one',
    );
  }
  const table = parsePriceTable(text, named);
  return { table, identity: pricesIdentity(table, text) };
}
