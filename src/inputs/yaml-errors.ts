import { type Document, isScalar, type LineCounter, visit, type YAMLError, YAMLParseError } from 'yaml';
import { type InputLocation, messageOf } from '../errors.js';
import { inputFailure } from './problems.js';

/**
 * `doc.toJS()` for a document that parsed without errors. Building the value can still fail: the
 * parser refuses aliases that expand too far (a few lines of `&a [*b, *b, …]` make millions of
 * nodes, the "billion laughs"), and that refusal is an exception, not a parse error. It becomes an
 * input error naming the file, like every other defect of the file.
 */
export function yamlValue(doc: Document.Parsed, location: InputLocation): unknown {
  try {
    return doc.toJS();
  } catch (error) {
    const reason = messageOf(error);
    throw inputFailure(
      location,
      `the YAML cannot be read: ${reason}`,
      /merge/i.test(reason)
        ? 'make each "<<:" name a mapping, e.g. "<<: *defaults" where "defaults: &defaults" holds keys and values'
        : 'write the repeated values out instead of expanding anchors (&name) with aliases (*name)',
    );
  }
}

/**
 * The 1-based line a YAML error belongs to. For an unclosed quote the parser points at the end of
 * the document, where nothing is wrong; the line that opened the quote is the one to fix, so it is
 * found by scanning back for a line with an odd number of that quote character.
 */
export function yamlErrorLine(error: YAMLError, text: string, lineCounter: LineCounter): number {
  const reported = lineCounter.linePos(error.pos[0]).line;
  const quote = error.code === 'MISSING_CHAR' ? /closing (["'])/.exec(error.message)?.[1] : undefined;
  if (!quote) return reported;
  const lines = text.split('\n');
  for (let i = Math.min(reported, lines.length) - 1; i >= 0; i--) {
    const count = lines[i]?.split(quote).length ?? 1;
    if ((count - 1) % 2 === 1) return i + 1;
  }
  return reported;
}

/**
 * What is wrong, for a YAML error: the parser's message, after `what` (e.g. "is not valid YAML").
 * Running out of stack on deep nesting is no syntax error, and its message says so instead.
 */
export function yamlProblem(error: YAMLError, what: string): string {
  if (error.code === 'RESOURCE_EXHAUSTION') {
    return `${what.replace(/is not valid YAML$/, 'cannot be read')}: it is nested too deeply for the YAML reader (${error.message})`;
  }
  return `${what}: ${error.message}`;
}

/** How to fix a YAML error, by the parser's code. */
export function yamlFix(code: string): string {
  switch (code) {
    case 'RESOURCE_EXHAUSTION':
      return 'remove the deep nesting: no field of an eval set or a frontmatter needs more than a few levels of lists and mappings';
    case 'DUPLICATE_KEY':
      return 'keep only one of the repeated keys';
    case 'TAB_AS_INDENT':
      return 'indent with spaces, not tabs';
    case 'MISSING_CHAR':
      return 'close the quote or bracket that is left open';
    default:
      return 'quote the value on that line ("…"), or write a long text as a block (key: >-, then the text indented on the next lines)';
  }
}

/**
 * The parse options of an eval set: the YAML library checks each key against every earlier key of
 * its mapping, so one mapping of n keys costs n² comparisons (yaml 2.9.1 here: 2,000 keys 243 ms,
 * 20,000 keys 6.7 s, under the file-size limit). Its check is off, and `duplicateKeys` finds the
 * same repeats in one pass.
 */
export const LINEAR_KEYS = { uniqueKeys: false } as const;

/**
 * A repeated key in any mapping of `doc` (parsed with LINEAR_KEYS), as the library reports one:
 * the same code and message, at the repeat. Keys compare as the library's do: scalars by value.
 */
export function duplicateKeys(doc: Document.Parsed): YAMLError[] {
  const found: YAMLError[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        if (seen.has(pair.key.value)) {
          const start = pair.key.range?.[0] ?? 0;
          found.push(new YAMLParseError([start, start + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
        }
        seen.add(pair.key.value);
      }
    },
  });
  return found;
}
