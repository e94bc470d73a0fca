import { parse as parseYaml } from 'yaml';
import { isRecord } from '../guards.js';

/**
 * The emulation of how Claude Code 2.1.328 turns a SKILL.md into its line of the skill listing, for
 * where the listing probe (src/agents/claude/listing-probe.ts) cannot run, e.g. `check` with no claude
 * binary. The probe's reading is the truth; this is documented, tested against it, and says so when
 * used. Read from the binary and confirmed by experiment (docs/listing-parity.md):
 *
 * 1. A leading BOM is dropped. There is frontmatter only when a `---` follows the start, and the
 *    splitter is `/^---\s*\n([\s\S]*?)---\s*\n?/`: the frontmatter ends at the FIRST `---` anywhere,
 *    even in the middle of a value (`… PDF task --- merging` is cut to `… PDF task`).
 * 2. The frontmatter is YAML read by Bun's parser (`Bun.YAML.parse`); when that throws, the CLI
 *    quotes one-line values holding `: ` or a YAML indicator and turns leading tabs into spaces, and
 *    tries once more. If that fails too, the frontmatter is treated as empty. (Here the `yaml`
 *    package stands in for Bun's parser: they agree on the corpus, not provably everywhere.)
 * 3. A missing or empty description falls back to the first non-empty body line, `#`s stripped.
 * 4. Line breaks and tabs become spaces; the description is trimmed, `when_to_use` is not.
 * 5. The entry is `description - when_to_use` when when_to_use is set, cut to 1,535 UTF-16 units
 *    and `…` when it is longer than 1,536.
 */

/** Claude Code cuts a listing entry to this many UTF-16 units, the last being `…`. */
export const LISTING_CAP = 1536;

/** The frontmatter splitter of Claude Code 2.1.328, verbatim. */
const FRONTMATTER = /^---\s*\n([\s\S]*?)---\s*\n?/;
/** A one-line value Claude Code's repair pass quotes. */
const NEEDS_QUOTES = /[{}[\]*&#!|>%@`]|: /;

export interface EmulatedListing {
  /** The listed text, as Claude Code would list it. */
  listed: string;
  /** How the frontmatter text ended: at a `---` inside a line (the cut), else undefined. */
  cutAtDashes?: { offset: number };
  /** The frontmatter could not be read as YAML, so the description came from the body. */
  fellBackToBody: boolean;
}

/** Collapse line breaks and tabs the way the listing does. */
export function listingSpaces(text: string): string {
  return text.replace(/[\r\n\t\u0085\u2028\u2029]+/g, ' ');
}

/** Join and cap: `description - when_to_use`, cut to {@link LISTING_CAP} with `…`. */
export function composeListing(description: string, whenToUse?: string): string {
  const joined = whenToUse ? `${description} - ${whenToUse}` : description;
  return joined.length > LISTING_CAP ? `${joined.slice(0, LISTING_CAP - 1)}…` : joined;
}

/** Where a cut listing stopped: undefined when the text is listed whole. */
export function isCutListing(listed: string): boolean {
  return listed.length === LISTING_CAP && listed.endsWith('…');
}

/** Claude Code's second try at broken YAML (its `nu` and the tab repair), ported. */
function repairLikeClaude(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const m = /^([a-zA-Z_-]+):\s+(\S.*)$/.exec(line);
      if (!m?.[1] || !m[2]) return line;
      const value = m[2];
      if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))
        return line;
      if (value.startsWith('[') && value.endsWith(']')) {
        try {
          if (Array.isArray(parseYaml(value))) return line;
        } catch {
          /* not a list: fall through */
        }
      }
      if (NEEDS_QUOTES.test(value))
        return `${m[1]}: "${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
      return line;
    })
    .join('\n')
    .replace(/^\t+/gm, (tabs) => '  '.repeat(tabs.length));
}

function readYaml(text: string): Record<string, unknown> | undefined {
  for (const attempt of [() => text, () => repairLikeClaude(text)]) {
    try {
      const value: unknown = parseYaml(attempt(), { prettyErrors: false, merge: true });
      if (value === null || value === undefined) return {};
      return isRecord(value) ? value : {};
    } catch {
      /* try the repair, then give up */
    }
  }
  return undefined;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Emulate Claude Code's listing of a SKILL.md (or command file) text. */
export function emulateListing(fileText: string): EmulatedListing {
  const text = fileText.replace(/^\uFEFF/, '');
  const match = text.indexOf('---', 3) < 0 ? null : FRONTMATTER.exec(text);
  const frontmatterText = match?.[1] ?? '';
  const body = match ? text.slice(match[0].length) : text;
  let cutAtDashes: { offset: number } | undefined;
  if (match) {
    const end = (match.index ?? 0) + match[0].indexOf('---', 3);
    const lineStart = text.lastIndexOf('\n', end - 1) + 1;
    if (text.slice(lineStart, end).trim() !== '') cutAtDashes = { offset: end };
  }
  const data = match ? readYaml(frontmatterText) : {};
  const fellBackToBody = data === undefined;
  const raw = scalarText(data?.description);
  let description = raw === undefined ? '' : listingSpaces(raw).trim();
  if (description === '') {
    const line = body.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
    description = line.replace(/^#+\s*/, '').trim();
  }
  const rawWhen = scalarText(data?.when_to_use);
  const whenToUse = rawWhen === undefined ? undefined : listingSpaces(rawWhen);
  return {
    listed: composeListing(description, whenToUse),
    ...(cutAtDashes ? { cutAtDashes } : {}),
    fellBackToBody,
  };
}

/**
 * The stub's `description` and `when_to_use` that make Claude Code list exactly `listed`. Claude
 * Code trims a description but not a when_to_use, so a listed text with whitespace at its end (a
 * when_to_use block scalar's last line break) is split at its last ` - `: the tail, spaces and
 * all, goes into when_to_use, which the CLI joins back with ` - `. Any other text is the
 * description alone, so there is nothing left for the CLI to join or re-read.
 */
export function stubFieldsFor(listed: string): { description: string; whenToUse?: string } {
  if (listed === listed.trim()) return { description: listed };
  const at = listed.lastIndexOf(' - ');
  const head = at < 0 ? '' : listed.slice(0, at);
  const tail = at < 0 ? '' : listed.slice(at + 3);
  if (head !== '' && head === head.trim() && tail !== '') return { description: head, whenToUse: tail };
  return { description: listed };
}

/** Counting as the CLI does (UTF-16 units), with the cut point quoted for a person. */
function around(text: string, at: number): string {
  return JSON.stringify(
    `${at > 0 ? '…' : ''}${text.slice(Math.max(0, at - 20), at + 20)}${at + 20 < text.length ? '…' : ''}`,
  );
}

/**
 * Warnings for where Claude Code lists something other than the author wrote (`authored`: the
 * frontmatter's description, ` - ` and when_to_use, as the YAML says): a cut at a `---`, the
 * 1,536 cap, or any other difference. Each quotes both lengths and where the texts part.
 */
export function listingFindings(authored: string, listed: string): string[] {
  const normal = listingSpaces(authored);
  if (listed === normal || listed === authored) return [];
  if (isCutListing(listed) && normal.startsWith(listed.slice(0, LISTING_CAP - 1))) {
    const lost = normal.length - (LISTING_CAP - 1);
    return [
      `description and when_to_use together make a listing entry of ${normal.length} characters; Claude Code cuts it to ${LISTING_CAP - 1} characters and "…", so the model never reads the last ${lost} (from ${around(normal, LISTING_CAP - 1)}); shorten when_to_use or the description`,
    ];
  }
  let at = 0;
  while (at < listed.length && at < normal.length && listed[at] === normal[at]) at++;
  if (at === listed.length && /^\s*-{3}/.test(normal.slice(at))) {
    return [
      `Claude Code lists only the first ${listed.length} of the ${normal.length} characters the frontmatter holds: its frontmatter reader ends the frontmatter at the "---" at character ${at + 1} (${around(normal, at)}), so the model never reads the rest; the listed text is measured. Fix: write the dashes differently (— or –), or drop them`,
    ];
  }
  return [
    `listed text differs from the frontmatter (${listed.length} vs ${normal.length} characters, first at character ${at + 1}: Claude Code lists ${around(listed, at)} where the frontmatter holds ${around(normal, at)}); the listed text is measured. Fix: quote the description, or check it for "---", "#" after a space and line breaks`,
  ];
}
