import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { InputErrors } from '../../src/errors.js';
import { yamlErrorLine, yamlFix, yamlProblem, yamlValue } from '../../src/inputs/yaml-errors.js';

const parse = (text: string) => {
  const lineCounter = new LineCounter();
  return { doc: parseDocument(text, { lineCounter, prettyErrors: false }), lineCounter };
};
const firstError = (text: string): YAMLError => {
  const [error] = parse(text).doc.errors;
  if (!error) throw new Error('expected a YAML error');
  return error;
};

describe('yamlErrorLine', () => {
  it('an unclosed quote is placed on the line that opened it, not at the end of the document', () => {
    const text = 'a: 1\nb: "open\nc: 2\nd: 3\n';
    const { doc, lineCounter } = parse(text);
    const error = doc.errors.find((e) => e.code === 'MISSING_CHAR');
    if (!error) throw new Error('expected MISSING_CHAR');
    expect(lineCounter.linePos(error.pos[0]).line).not.toBe(2);
    expect(yamlErrorLine(error, text, lineCounter)).toBe(2);
  });

  it('any other error keeps the line the parser gave', () => {
    const text = 'a: 1\na: 2\n';
    const { doc, lineCounter } = parse(text);
    const error = doc.errors[0];
    if (!error) throw new Error('expected DUPLICATE_KEY');
    expect(error.code).toBe('DUPLICATE_KEY');
    expect(yamlErrorLine(error, text, lineCounter)).toBe(lineCounter.linePos(error.pos[0]).line);
  });
});

describe('yamlProblem and yamlFix', () => {
  it('a syntax error follows what is wrong with the parser message, and its fix is by code', () => {
    const error = firstError('a: 1\na: 2\n');
    expect(yamlProblem(error, 'is not valid YAML')).toBe(`is not valid YAML: ${error.message}`);
    expect(yamlFix('DUPLICATE_KEY')).toBe('keep only one of the repeated keys');
    expect(yamlFix('TAB_AS_INDENT')).toContain('spaces');
    expect(yamlFix('MISSING_CHAR')).toContain('close the quote');
    expect(yamlFix('SOMETHING_ELSE')).toContain('quote the value');
  });

  it('deep nesting is not called a syntax error', () => {
    const error = { code: 'RESOURCE_EXHAUSTION', message: 'too deep' } as YAMLError;
    expect(yamlProblem(error, 'evals.yaml is not valid YAML')).toBe(
      'evals.yaml cannot be read: it is nested too deeply for the YAML reader (too deep)',
    );
    expect(yamlFix('RESOURCE_EXHAUSTION')).toMatch(/^remove the deep nesting/);
  });
});

describe('yamlValue', () => {
  it('returns the value of a document that builds', () => {
    expect(yamlValue(parse('a: [1, 2]\n').doc, { file: 'x.yaml' })).toEqual({ a: [1, 2] });
  });

  it('an alias bomb is an input error naming the file, with the fix to write the values out', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
      'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]',
      'f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]',
      'g: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]',
    ].join('\n');
    let caught: unknown;
    try {
      yamlValue(parse(bomb).doc, { file: 'evals.yaml' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InputErrors);
    const message = (caught as InputErrors).message;
    expect(message).toMatch(/^evals\.yaml: the YAML cannot be read: /);
    expect(message).toContain('Fix: write the repeated values out');
  });
});
