import { describe, expect, it } from 'vitest';
import { InputErrors } from '../../src/errors.js';
import { readCsv } from '../../src/inputs/eval-csv.js';
import { Problems } from '../../src/inputs/problems.js';

const FILE = 'skills/pdf/evals.csv';

/** The problems a text raises: thrown at the header or the parse, else collected per row. */
function problemsOf(text: string): Problems {
  const problems = new Problems();
  try {
    readCsv(text, FILE, problems);
  } catch (error) {
    if (!(error instanceof InputErrors)) throw error;
  }
  return problems;
}

describe('readCsv', () => {
  it("reads Codex's id,should_trigger,prompt with yes/no words, other columns kept as text in extra", () => {
    const problems = new Problems();
    const rows = readCsv(
      'ID,Should_Trigger,Prompt,note\r\na1,yes,fill this pdf,first\r\n,0,"write a poem, please",\r\n',
      FILE,
      problems,
    );
    expect(problems.errors).toEqual([]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ position: 1, id: 'a1', query: 'fill this pdf', shouldTrigger: true });
    expect(rows[0]?.extra).toEqual({ note: 'first' });
    expect(rows[1]).toMatchObject({ position: 2, query: 'write a poem, please', shouldTrigger: false });
    expect(rows[1]?.id).toBeUndefined();
    // CRLF does not shift the lines: row 2 is on line 3.
    expect(rows[1]?.location).toEqual({ file: FILE, line: 3, entry: 'entry #2' });
  });

  it('a row is placed on the line it starts on, a quoted prompt with line breaks included', () => {
    const problems = new Problems();
    const rows = readCsv('query,should_trigger\n"two\nlines",true\nthird,maybe\n', FILE, problems);
    expect(rows[0]?.location.line).toBe(2);
    expect(problems.errors).toHaveLength(1);
    expect(problems.errors[0]?.location).toEqual({ file: FILE, line: 4, entry: 'entry #2' });
    expect(problems.errors[0]?.message).toContain('should_trigger is "maybe". Fix: write true or false');
  });

  it('a header without should_trigger or a query column names both, with a header to copy', () => {
    const [error, ...rest] = problemsOf('id,text\n1,hello\n').errors;
    expect(rest).toEqual([]);
    expect(error?.location).toEqual({ file: FILE, line: 1 });
    expect(error?.problem).toBe(
      'the header ("id", "text") has no "should_trigger" column and no "query" or "prompt" column',
    );
    expect(error?.fix).toBe('make the first line a header such as id,should_trigger,prompt');
  });

  it('both query and prompt, or a column named twice, is refused at the header', () => {
    const both = problemsOf('query,prompt,should_trigger\na,b,true\n').errors;
    expect(both.map((e) => e.problem)).toEqual([
      'the header ("query", "prompt", "should_trigger") has both a "query" and a "prompt" column',
    ]);
    expect(both[0]?.fix).toBe('keep one of the two columns');
    const twice = problemsOf('prompt,should_trigger,Note,note\na,true,x,y\n').errors;
    expect(twice[0]?.problem).toBe('the header names the column "note" twice');
  });

  it('a row with another number of fields, or an empty should_trigger, is named by its entry and line', () => {
    const errors = problemsOf('id,should_trigger,prompt\nx,true,a, b\ny,,c\n').errors;
    expect(errors.map((e) => e.message)).toEqual([
      `${FILE}:line 2 (entry #1, id "x"): has 4 field(s), the header has 3. Fix: wrap a prompt that holds a comma in double quotes, and give every row the same columns`,
      `${FILE}:line 3 (entry #2, id "y"): should_trigger is empty. Fix: write true or false (yes/no and 1/0 work too)`,
    ]);
  });

  it('text that is not CSV at all is one input error naming the file and how to quote', () => {
    const errors = problemsOf('prompt,should_trigger\n"unclosed,true\n').errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]?.location.file).toBe(FILE);
    expect(errors[0]?.problem).toMatch(/^is not valid CSV: /);
    expect(errors[0]?.fix).toContain('double any quote inside it');
  });

  it('an empty file has no rows and no problem (the eval set reader says it holds no query)', () => {
    const problems = new Problems();
    expect(readCsv('', FILE, problems)).toEqual([]);
    expect(problems.errors).toEqual([]);
  });
});
