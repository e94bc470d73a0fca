import { describe, expect, it } from 'vitest';
import { InputErrors } from '../../src/errors.js';
import { readSkillCreatorJson } from '../../src/inputs/eval-json.js';
import { Problems } from '../../src/inputs/problems.js';

const FILE = 'skills/pdf/evals/evals.json';

/** The problems a text raises, whether thrown at once (syntax, top level) or collected per entry. */
function problemsOf(text: string): Problems {
  const problems = new Problems();
  try {
    readSkillCreatorJson(text, FILE, problems);
  } catch (error) {
    if (!(error instanceof InputErrors)) throw error;
  }
  return problems;
}

describe('readSkillCreatorJson', () => {
  it('reads each entry on its line; a string id is the id, other fields go to extra', () => {
    const problems = new Problems();
    const text = `[
  {"query": "fill this pdf", "should_trigger": true, "id": "a1", "note": "x"},
  {"query": "write a poem", "should_trigger": false, "id": 7}
]`;
    const rows = readSkillCreatorJson(text, FILE, problems);
    expect(problems.errors).toEqual([]);
    expect(rows[0]).toMatchObject({ position: 1, id: 'a1', query: 'fill this pdf', shouldTrigger: true });
    expect(rows[0]?.extra).toEqual({ note: 'x' });
    expect(rows[0]?.location).toEqual({ file: FILE, line: 2, entry: 'entry #1, id "a1"' });
    // A number id is no id: it stays in extra.
    expect(rows[1]?.id).toBeUndefined();
    expect(rows[1]?.extra).toEqual({ id: 7 });
    expect(rows[1]?.location.line).toBe(3);
  });

  it('a syntax error is placed on its line and column with the usual causes', () => {
    const [error, ...rest] = problemsOf('[\n  {"query": "a", "should_trigger": true,}\n]').errors;
    expect(rest).toEqual([]);
    expect(error?.location).toEqual({ file: FILE, line: 2 });
    expect(error?.problem).toMatch(/^is not valid JSON: /);
    expect(error?.fix).toMatch(/^fix the syntax at line 2, column \d+ \(a trailing comma/);
  });

  it('the wrong top level says what it looks like and what to write', () => {
    const creator = problemsOf('{"skill_name": "pdf", "evals": []}').errors[0];
    expect(creator?.problem).toContain("looks like skill-creator's evals/evals.json");
    expect(creator?.location).toEqual({ file: FILE, line: 1 });
    expect(problemsOf('{"tests": []}').errors[0]?.fix).toContain('AgentV EVAL.yaml');
    expect(problemsOf('{"a": 1, "b": 2}').errors[0]?.problem).toBe(
      'must be a JSON array of entries, got an object with keys a, b',
    );
    expect(problemsOf('"hello"').errors[0]?.problem).toBe(
      'must be a JSON array of entries, got the string "hello"',
    );
  });

  it('a key written twice in an entry is named with both lines (JSON.parse would drop one silently)', () => {
    const errors = problemsOf(`[
  {"query": "a",
   "should_trigger": true,
   "should_trigger": false}
]`).errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]?.location).toEqual({ file: FILE, line: 4, entry: 'entry #1' });
    expect(errors[0]?.problem).toMatch(/^has the key "should_trigger" twice \(first at line 3\)/);
    expect(errors[0]?.fix).toBe('keep one of the two');
  });

  it('an entry that is no object, a renamed query key and the camelCase key each get their own fix', () => {
    const errors = problemsOf(`[
  "just a string",
  {"prompt": "a", "should_trigger": true},
  {"query": "b", "shouldTrigger": false}
]`).errors;
    expect(errors.map((e) => [e.location.entry, e.problem, e.fix])).toEqual([
      [
        'entry #1',
        'is the string "just a string", not an object',
        'write each entry as {"query": "…", "should_trigger": true}',
      ],
      ['entry #2', expect.stringContaining('query'), expect.stringContaining('rename "prompt" to "query"')],
      ['entry #3', 'uses "shouldTrigger"; the key is "should_trigger"', 'rename the key'],
    ]);
  });

  it('a quoted boolean annotation is refused in a typed format', () => {
    const errors = problemsOf('[{"query": "a", "should_trigger": true, "needs_context": "true"}]').errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]?.problem).toBe('needs_context is the string "true", not a boolean');
  });
});
