import { describe, expect, it } from 'vitest';
import { readSettings } from '../../src/action/settings.js';
import { UsageError } from '../../src/errors.js';

/** The Action's inputs for late loads and cost, `late`, `prices` and `max-cost-usd`, read and refused (exit 1, naming the input). */

const reader = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('late, prices and max-cost-usd', () => {
  it('are off when not given', () => {
    const settings = readSettings(reader({}));
    expect(settings.lateTurns).toBe(0);
    expect(settings).not.toHaveProperty('prices');
    expect(settings).not.toHaveProperty('maxCostUsd');
  });

  it('read a turn count, a workspace-relative file and a dollar amount', () => {
    const settings = readSettings(
      reader({ late: '3', prices: '.github/prices.json', 'max-cost-usd': '$2.50' }),
    );
    expect(settings).toMatchObject({ lateTurns: 3, prices: '.github/prices.json', maxCostUsd: 2.5 });
    expect(readSettings(reader({ late: '10', 'max-cost-usd': '0.01' }))).toMatchObject({
      lateTurns: 10,
      maxCostUsd: 0.01,
    });
  });

  it.each([
    ['late', '11', 'input late: expected a whole number from 0 to 10 (turns to watch a miss for), got "11"'],
    ['late', '-1', 'input late: expected a whole number from 0 to 10 (turns to watch a miss for), got "-1"'],
    ['late', '1.5', 'input late: expected a whole number from 0 to 10'],
    ['prices', '/etc/prices.json', 'input prices: expected a price table file relative to the workspace'],
    ['prices', '../prices.json', 'input prices: expected a price table file relative to the workspace'],
    ['prices', 'C:\\prices.json', 'input prices: expected a price table file relative to the workspace'],
    ['max-cost-usd', '0', 'input max-cost-usd: expected a number of US dollars above 0, such as 2.50'],
    ['max-cost-usd', 'ten', 'input max-cost-usd: expected a number of US dollars above 0'],
    ['max-cost-usd', '1e3', 'input max-cost-usd: expected a number of US dollars above 0'],
    ['max-cost-usd', '-2', 'input max-cost-usd: expected a number of US dollars above 0'],
  ])('refuses %s = %j, naming the input and what it accepts', (name, value, message) => {
    const thrown = (() => {
      try {
        return readSettings(reader({ [name]: value }));
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toBeInstanceOf(UsageError);
    expect(thrown).toMatchObject({ exitCode: 1, message: expect.stringContaining(message) });
  });

  it('refuses max-cost-usd beside routing-matrix: the matrix runs are neither estimated nor stopped', () => {
    expect(() => readSettings(reader({ 'max-cost-usd': '2', 'routing-matrix': 'true' }))).toThrow(
      /input max-cost-usd: does not budget the routing matrix .*Fix: leave max-cost-usd empty, or set routing-matrix: false/,
    );
    expect(readSettings(reader({ 'max-cost-usd': '2', 'routing-matrix': 'false' })).maxCostUsd).toBe(2);
  });
});
