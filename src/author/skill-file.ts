import { isMap, isScalar, parseDocument } from 'yaml';

/**
 * Reading a SKILL.md's body and replacing its description in place, byte for byte everywhere else.
 * Pure (text in, text out); the file itself is read and written by src/author/files.ts.
 */

/** Where the frontmatter sits in the raw text (offsets of its first and past-its-last character). */
function frontmatterBounds(text: string): { start: number; end: number; bodyStart: number } | undefined {
  const open = /^\uFEFF?---[ \t]*\r?\n/.exec(text);
  if (!open) return undefined;
  const start = open[0].length;
  const close = /^---[ \t]*(?:\r?\n|$)/m;
  const rest = text.slice(start);
  const match = close.exec(rest);
  if (!match) return undefined;
  return { start, end: start + match.index, bodyStart: start + match.index + match[0].length };
}

/** The SKILL.md body: everything after the closing `---` line (the whole text without frontmatter). */
export function skillBody(text: string): string {
  const bounds = frontmatterBounds(text);
  return bounds === undefined ? text : text.slice(bounds.bodyStart);
}

/** Why the description cannot be replaced in place. */
export class DescriptionEditError extends Error {}

/**
 * Replaces the `description:` value of the frontmatter with `description` as a YAML double-quoted
 * scalar (JSON string syntax, which YAML reads back exactly: quotes, colons, `#`, leading
 * specials and non-ASCII all survive). Only the key's own lines change — a block scalar (`>`, `|`)
 * and a plain value continued over several lines are replaced whole; a comment after the value,
 * the other keys, the body and the line endings stay byte-identical.
 */
export function replaceDescription(text: string, description: string): string {
  const bounds = frontmatterBounds(text);
  if (bounds === undefined) throw new DescriptionEditError('the file has no frontmatter between --- lines');
  const frontmatter = text.slice(bounds.start, bounds.end);
  const doc = parseDocument(frontmatter);
  if (doc.errors.length > 0) {
    throw new DescriptionEditError(
      'the frontmatter is not strict YAML (Claude Code repairs it when loading), so it is not rewritten automatically; quote its values, then retry',
    );
  }
  if (!isMap(doc.contents)) throw new DescriptionEditError('the frontmatter is not a mapping of keys');
  const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === 'description');
  const keyRange = pair && isScalar(pair.key) ? pair.key.range : undefined;
  const value = pair?.value;
  const valueRange =
    value && typeof value === 'object' && 'range' in value
      ? (value.range as [number, number, number])
      : undefined;
  if (keyRange === undefined || valueRange === undefined) {
    throw new DescriptionEditError('the frontmatter has no description value to replace');
  }
  const from = keyRange[0];
  const segment = frontmatter.slice(from, valueRange[1]);
  // A block scalar's range takes its last line break along: give it back.
  const trailing = /(?:\r?\n)*$/.exec(segment)?.[0] ?? '';
  const replaced = `description: ${JSON.stringify(description)}${trailing}`;
  return text.slice(0, bounds.start + from) + replaced + text.slice(bounds.start + valueRange[1]);
}
