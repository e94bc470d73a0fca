import { expect } from 'vitest';
import { type InputError, InputErrors } from '../../src/errors.js';

export const FIXTURES = '__tests__/fixtures/inputs';

/** The defects a loader threw, failing the test if it threw anything else or nothing. */
export async function defectsOf(run: () => Promise<unknown> | unknown): Promise<readonly InputError[]> {
  let thrown: unknown;
  try {
    await run();
  } catch (error) {
    thrown = error;
  }
  if (!(thrown instanceof InputErrors)) {
    throw new Error(`expected InputErrors, got ${thrown instanceof Error ? thrown.stack : String(thrown)}`);
  }
  expect(thrown.exitCode).toBe(1);
  return thrown.errors;
}

/** The one defect a loader threw. */
export async function defectOf(run: () => Promise<unknown> | unknown): Promise<InputError> {
  const errors = await defectsOf(run);
  expect(errors.map((e) => e.message)).toHaveLength(1);
  const [first] = errors;
  if (!first) throw new Error('no defect');
  return first;
}
