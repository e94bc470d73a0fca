import { describe, expect, it } from 'vitest';
import { RECOMMENDATION_TEXT } from '../../src/improve/recommendation.js';
import { improveReportSchema } from '../../src/schemas/improve.js';

describe('RECOMMENDATION_TEXT', () => {
  it('has a text for exactly the recommendations an improve report can hold', () => {
    const recommendations = improveReportSchema.shape.final.shape.recommendation.options;
    expect(Object.keys(RECOMMENDATION_TEXT).sort()).toEqual([...recommendations].sort());
  });

  it('adopts only the winner that held on the holdout; every other outcome keeps the original', () => {
    expect(RECOMMENDATION_TEXT.adopt).toBe('Adopt the winner: it improved on train and held on the holdout.');
    expect(RECOMMENDATION_TEXT['keep-original']).toMatch(/^Keep the original: /);
    expect(RECOMMENDATION_TEXT['did-not-generalise']).toMatch(/^Keep the original: /);
    expect(RECOMMENDATION_TEXT['did-not-generalise']).toContain('did not generalise to the holdout');
    expect(RECOMMENDATION_TEXT['no-verdict']).toMatch(/^No verdict: /);
    expect(RECOMMENDATION_TEXT['no-verdict']).toContain('--max-cost-usd');
    expect(RECOMMENDATION_TEXT['no-verdict']).toContain('keep the original');
  });

  it('says each outcome differently, as one line that ends a sentence', () => {
    const texts = Object.values(RECOMMENDATION_TEXT);
    expect(new Set(texts).size).toBe(texts.length);
    for (const text of texts) {
      expect(text).not.toContain('\n');
      expect(text).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('holds nothing that Markdown or HTML would read as markup (the improve Markdown puts it in as it is)', () => {
    for (const text of Object.values(RECOMMENDATION_TEXT)) {
      expect(text).not.toMatch(/[<>&*_`[\]|#\\]/);
    }
  });
});
