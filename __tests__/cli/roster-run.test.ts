import { describe, expect, it } from 'vitest';
import { versusCleanRefusal } from '../../src/cli/roster-run.js';

/** `--versus-clean` where it makes no sense is refused before anything runs (exit 1), with the fix. */
describe('versusCleanRefusal', () => {
  const given = { versusClean: true, roster: 'crowd', versusFresh: false };

  it('lets a roster through, and says nothing without --versus-clean', () => {
    expect(versusCleanRefusal(given)).toBeUndefined();
    expect(versusCleanRefusal({ versusClean: false, versusFresh: true })).toBeUndefined();
  });

  it('refuses it without a roster, beside a baseline description, and beside --versus-fresh', () => {
    const { roster: _, ...alone } = given;
    expect(versusCleanRefusal(alone)?.message).toBe(
      '--versus-clean: there is no crowd to measure against the clean room. Fix: give the crowd with --roster <file|dir>, or drop --versus-clean',
    );
    for (const other of [{ baselineDescription: 'x' }, { baselineDescriptionFile: 'b.txt' }])
      expect(versusCleanRefusal({ ...given, ...other })?.message).toMatch(
        /^--versus-clean: the baseline side is the clean room.*Fix: drop --baseline-description/,
      );
    expect(versusCleanRefusal({ ...given, versusFresh: true })?.exitCode).toBe(1);
    expect(versusCleanRefusal({ ...given, versusFresh: true })?.message).toContain(
      'Fix: drop --versus-fresh',
    );
  });
});
