import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { refuseSameModel } from '../../src/cli/cost-args.js';
import { UsageError } from '../../src/errors.js';

/** The model and cost flags of `run` and `improve` (docs/cost.md): checked before anything is spent. */
const run = (...flags: string[]) => parseCli(['run', '--skill', 's', '--eval', 'e.json', ...flags], {});

describe('run: --model, --late, --prices, --max-cost-usd, --dry-run', () => {
  it('one model stays model; several become models, in order', () => {
    expect(run('--model', 'sonnet')).toMatchObject({ model: 'sonnet' });
    const several = run('--model', 'claude-haiku-4-5, sonnet');
    expect(several).toMatchObject({ models: ['claude-haiku-4-5', 'sonnet'] });
    expect(several).not.toHaveProperty('model');
  });

  it('refuses a repeated model, an empty entry and an empty value', () => {
    expect(() => run('--model', 'sonnet,Sonnet')).toThrow(/--model names "Sonnet" twice/);
    expect(() => run('--model', 'sonnet,,haiku')).toThrow(/--model has an empty entry/);
    expect(() => run('--model', ' ')).toThrow(UsageError);
  });

  it('--late is a whole number from 0 to 10, 0 by default', () => {
    expect(run()).toMatchObject({ lateTurns: 0, dryRun: false });
    expect(run('--late', '2')).toMatchObject({ lateTurns: 2 });
    for (const bad of ['-1', '11', '1.5', 'x']) expect(() => run('--late', bad)).toThrow(/--late must be/);
  });

  it('--max-cost-usd is a positive number of dollars; --prices and --dry-run pass through', () => {
    expect(run('--max-cost-usd', '2.50', '--prices', 'p.json', '--dry-run')).toMatchObject({
      maxCostUsd: 2.5,
      prices: 'p.json',
      dryRun: true,
    });
    for (const bad of ['0', '-1', 'lots', '', '2,50', '1e3', '0x10', 'Infinity', '$'])
      expect(() => run('--max-cost-usd', bad)).toThrow(/--max-cost-usd must be/);
    expect(run('--max-cost-usd', '$2.50')).toMatchObject({ maxCostUsd: 2.5 });
    expect(run('--max-cost-usd', ' 3 ')).toMatchObject({ maxCostUsd: 3 });
  });

  it('improve takes --max-cost-usd and --prices', () => {
    const args = parseCli(
      ['improve', '--skill', 's', '--eval', 'e.json', '--max-cost-usd', '3', '--prices', 'p.json'],
      {},
    );
    expect(args).toMatchObject({ maxCostUsd: 3, prices: 'p.json' });
  });
});

describe('refuseSameModel: one model under two spellings', () => {
  it('refuses two entries the init events resolve alike, naming both spellings and the fix', () => {
    const init = {
      haiku: 'claude-haiku-5-5',
      'claude-haiku-5-5': 'claude-haiku-5-5',
      sonnet: 'claude-sonnet-5-5',
    };
    expect(() => refuseSameModel(['sonnet', 'haiku', 'claude-haiku-5-5'], { init })).toThrow(
      /"haiku" and "claude-haiku-5-5" are both claude-haiku-5-5 \(by the round trips' init events\).*Fix: keep one of "haiku" and "claude-haiku-5-5" in --model/,
    );
    expect(() => refuseSameModel(['haiku', 'claude-haiku-5-5'], { init })).toThrow(UsageError);
  });

  it('refuses a short id and its snapshot that only the API’s answers resolve alike', () => {
    const init = {
      'claude-haiku-4-5': 'claude-haiku-4-5',
      'claude-haiku-4-5-20251001': 'claude-haiku-4-5-20251001',
    };
    const message = {
      'claude-haiku-4-5': 'claude-haiku-4-5-20251001',
      'claude-haiku-4-5-20251001': 'claude-haiku-4-5-20251001',
    };
    expect(() => refuseSameModel(['claude-haiku-4-5', 'claude-haiku-4-5-20251001'], { init })).not.toThrow();
    expect(() =>
      refuseSameModel(['claude-haiku-4-5', 'claude-haiku-4-5-20251001'], { init, message }),
    ).toThrow(/by the round trips' answers/);
  });

  it('lets distinct models, one model, and models with nothing resolved through', () => {
    const init = { haiku: 'claude-haiku-5-5', sonnet: 'claude-sonnet-5-5' };
    expect(() => refuseSameModel(['haiku', 'sonnet'], { init })).not.toThrow();
    expect(() => refuseSameModel(['haiku'], { init })).not.toThrow();
    expect(() => refuseSameModel(undefined, { init })).not.toThrow();
    expect(() => refuseSameModel(['a', 'b'], {})).not.toThrow();
  });
});
