import { describe, expect, it } from 'vitest';
import { togglesFileSchema } from '../../src/schemas/toggles.js';

const toggle = {
  id: 'docs-helper@acme',
  scope: 'user',
  skill: 'handoff',
  printedAt: '2026-12-01T12:00:00.000Z',
};
const file = (toggles: unknown[], top: Record<string, unknown> = {}) => ({
  schema: 'skilltrigger/toggles',
  version: 1,
  toggles,
  ...top,
});
const valid = (value: unknown) => togglesFileSchema.safeParse(value).success;

describe('togglesFileSchema', () => {
  it('reads a toggles file as written, and one with no toggles', () => {
    expect(togglesFileSchema.parse(file([toggle]))).toEqual(file([toggle]));
    expect(togglesFileSchema.parse(file([]))).toEqual(file([]));
  });

  it('refuses another schema, another version or toggles that are not a list', () => {
    expect(valid(file([toggle], { schema: 'skilltrigger/report' }))).toBe(false);
    expect(valid(file([toggle], { version: 2 }))).toBe(false);
    expect(valid(file([toggle], { version: '1' }))).toBe(false);
    expect(valid({ schema: 'skilltrigger/toggles', version: 1 })).toBe(false);
    expect(valid(file([], { toggles: { a: toggle } }))).toBe(false);
    expect(valid(null)).toBe(false);
    expect(valid([])).toBe(false);
  });

  it('needs a plugin id, and a scope of letters and dashes only (it goes into a printed command)', () => {
    expect(valid(file([{ ...toggle, id: '' }]))).toBe(false);
    for (const scope of ['user', 'project', 'local', 'Managed-Policy']) {
      expect(valid(file([{ ...toggle, scope }])), scope).toBe(true);
    }
    for (const scope of ['', 'user project', 'user;rm', 'user\n', 'proj_1', '$(id)']) {
      expect(valid(file([{ ...toggle, scope }])), scope).toBe(false);
    }
  });

  it('needs every field of a toggle', () => {
    for (const key of ['id', 'scope', 'skill', 'printedAt'] as const) {
      const { [key]: _left, ...rest } = toggle;
      expect(valid(file([rest])), key).toBe(false);
    }
    expect(valid(file([{ ...toggle, skill: 5 }]))).toBe(false);
  });

  it('takes printedAt as an ISO date-time in UTC with seconds (as toISOString writes it)', () => {
    for (const printedAt of ['2026-12-01T12:00:00Z', '2026-12-01T12:00:00.123Z']) {
      expect(valid(file([{ ...toggle, printedAt }])), printedAt).toBe(true);
    }
    for (const printedAt of [
      '2026-12-01',
      '2026-12-01T12:00Z',
      '2026-12-01T12:00:00+01:00',
      'yesterday',
      '',
    ]) {
      expect(valid(file([{ ...toggle, printedAt }])), printedAt).toBe(false);
    }
  });

  it('drops fields it does not know, at the top and in a toggle', () => {
    expect(togglesFileSchema.parse(file([{ ...toggle, note: 'x' }], { extra: true }))).toEqual(
      file([toggle]),
    );
  });
});
