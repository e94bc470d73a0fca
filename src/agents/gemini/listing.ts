/**
 * What Gemini CLI lists for a SKILL.md, as 0.61.0 showed it through the listing probe over the
 * frontmatter corpus (docs/gemini.md "Listing parity"), and as its skill loader reads a file:
 * - the frontmatter is what `^---\r?\n(…)\r?\n---` captures from the very start of the file: a
 *   byte-order mark takes the skill out; an inline ` --- ` inside a value closes nothing;
 * - the frontmatter is parsed as YAML, and both `name` and `description` must be strings: a skill
 *   without a `name` is left out (there is no folder-name fallback);
 * - when the YAML does not parse, a line parser takes over: `name: …` and `description: …` lines,
 *   the description followed by its indented continuation lines, joined with one space;
 * - the description is listed as parsed: no cap, no whitespace folding, no escaping (a block
 *   scalar keeps its final line break; `<`, `&` and `</description>` go into the XML raw);
 * - `:`, `\`, `/`, `<`, `>`, `*`, `?`, `"` and `|` in the name become `-`.
 * Pure.
 */
import { parse as parseYaml } from 'yaml';

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?/;

export type GeminiListing =
  | { kind: 'listed'; name: string; description: string }
  | { kind: 'unlisted'; reason: string };

/** Gemini's fallback when the YAML does not parse: `name:` and `description:` lines. */
function lineParse(frontmatter: string): { name: string; description: string } | undefined {
  const lines = frontmatter.split(/\r?\n/);
  let name: string | undefined;
  let description: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const nameMatch = /^\s*name:\s*(.*)$/.exec(line);
    if (nameMatch) {
      name = (nameMatch[1] ?? '').trim();
      continue;
    }
    const descriptionMatch = /^\s*description:\s*(.*)$/.exec(line);
    if (descriptionMatch) {
      const parts = [(descriptionMatch[1] ?? '').trim()];
      while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1] ?? '')) {
        parts.push((lines[i + 1] ?? '').trim());
        i++;
      }
      description = parts.filter(Boolean).join(' ');
    }
  }
  return name === undefined || description === undefined ? undefined : { name, description };
}

function yamlParse(frontmatter: string): { name: string; description: string } | undefined {
  try {
    const parsed: unknown = parseYaml(frontmatter);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { name, description } = parsed as Record<string, unknown>;
    return typeof name === 'string' && typeof description === 'string' ? { name, description } : undefined;
  } catch {
    return undefined;
  }
}

/** How Gemini would list one SKILL.md: its entry's name and description, or why it leaves it out. */
export function geminiListingOf(text: string): GeminiListing {
  const match = FRONTMATTER.exec(text);
  if (match?.[1] === undefined)
    return { kind: 'unlisted', reason: 'no frontmatter at the very start of the file' };
  const fields = yamlParse(match[1]) ?? lineParse(match[1]);
  if (fields === undefined)
    return { kind: 'unlisted', reason: 'the frontmatter has no name or no description' };
  return { kind: 'listed', name: fields.name.replace(/[:\\/<>*?"|]/g, '-'), description: fields.description };
}
