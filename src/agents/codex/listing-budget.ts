/**
 * How codex-cli 0.169.0 fits its skill listing into its budget (docs/listing-budget.md, confirmed
 * through the loopback capture of the real binary). The budget is 2% of the model's context
 * window, in tokens of 4 bytes: 5,440 tokens, 21,760 bytes, at the 272,000 Codex assumes for a
 * model it has no window for (`-c model_context_window=…` moves it). It counts the UTF-8 bytes of
 * the entry lines, `- name: description (file: r1/dir/SKILL.md)`, joined by line breaks.
 * - If every line fits whole, each is whole.
 * - Otherwise the descriptions share what the rest of the lines leave: each is cut (no marker) to
 *   one level, the largest multiple of 4 characters at which all fit, and one shorter stays whole;
 *   the bytes left lengthen the cut ones by 4 bytes each, the first in listing order first. The
 *   binary lists its own `imagegen` 2 bytes shorter than this gives; nothing else differs.
 * - When not even every name fits, descriptions go (`- name: (file: …)`) and the last entries are
 *   left out; that branch is modelled only roughly (the binary listed 38 of 123 entries where this
 *   gives 40).
 * Pure.
 */
import type { ListingState } from '../listing.js';

export const CODEX_DEFAULT_CONTEXT = 272_000;
export const CODEX_BUDGET_SHARE = 0.02;
const BYTES_PER_TOKEN = 4;

/** A Codex listing state: the three of Claude Code's, and `omitted` for an entry the budget leaves out. */
export type CodexListingState = ListingState | 'omitted';

/** The budget in bytes for a context window in tokens. */
export function codexListingBudget(contextWindow = CODEX_DEFAULT_CONTEXT): number {
  return Math.floor(contextWindow * CODEX_BUDGET_SHARE) * BYTES_PER_TOKEN;
}

/** One entry, in listing order (the system skills first). */
export interface CodexCatalogueEntry {
  name: string;
  /** The description as Codex reads it, already cut at 1,024 characters (`codexListedDescription`). */
  description: string;
  /** The locator as listed, `r1/<dir>/SKILL.md`. */
  file: string;
}

export interface CodexEntryListing {
  state: CodexListingState;
  /** The description as listed ('' when bare or omitted). */
  description: string;
  /** The bytes its line takes (0 when omitted). */
  bytes: number;
}

export interface CodexListing {
  budget: number;
  /** The bytes of the listing with every entry whole. */
  fullBytes: number;
  /** The bytes of the listing as sent. */
  usedBytes: number;
  fits: boolean;
  entries: CodexEntryListing[];
}

const encoder = new TextEncoder();
const bytesOf = (text: string): number => encoder.encode(text).length;

function lineOf(entry: CodexCatalogueEntry, description: string): string {
  return description === ''
    ? `- ${entry.name}: (file: ${entry.file})`
    : `- ${entry.name}: ${description} (file: ${entry.file})`;
}

/** The longest prefix of a text within a number of UTF-8 bytes, cut between code points. */
function prefixWithin(text: string, bytes: number): string {
  let used = 0;
  let out = '';
  for (const char of text) {
    const size = bytesOf(char);
    if (used + size > bytes) break;
    used += size;
    out += char;
  }
  return out;
}

/** The first `chars` characters (code points) of a text. */
function firstChars(text: string, chars: number): string {
  return Array.from(text).slice(0, chars).join('');
}

/**
 * Each description as listed when the descriptions share `room` bytes: every one is cut to one
 * level, the largest multiple of 4 characters at which they all fit (one shorter stays whole); the
 * bytes left then lengthen the cut ones by 4 bytes each, in listing order, while they last.
 */
function shareOut(descriptions: readonly string[], room: number): string[] {
  const at = (level: number) => descriptions.map((d) => firstChars(d, level));
  const size = (texts: readonly string[]) => texts.reduce((sum, t) => sum + bytesOf(t), 0);
  const longest = Math.max(0, ...descriptions.map((d) => Array.from(d).length));
  let low = 0;
  let high = Math.ceil(longest / BYTES_PER_TOKEN);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (size(at(mid * BYTES_PER_TOKEN)) <= room) low = mid;
    else high = mid - 1;
  }
  const cut = at(low * BYTES_PER_TOKEN);
  let left = room - size(cut);
  return cut.map((text, i) => {
    const whole = descriptions[i] ?? '';
    if (text === whole || left < BYTES_PER_TOKEN) return text;
    left -= BYTES_PER_TOKEN;
    return prefixWithin(whole, bytesOf(text) + BYTES_PER_TOKEN);
  });
}

/** The listing of a catalogue under a budget in bytes, as 0.169.0 builds it. */
export function codexListing(catalogue: readonly CodexCatalogueEntry[], budget: number): CodexListing {
  const joins = Math.max(0, catalogue.length - 1);
  const fullBytes = catalogue.reduce((sum, e) => sum + bytesOf(lineOf(e, e.description)), 0) + joins;
  const done = (entries: CodexEntryListing[]): CodexListing => ({
    budget,
    fullBytes,
    usedBytes:
      entries.reduce((sum, e) => sum + e.bytes, 0) +
      Math.max(0, entries.filter((e) => e.bytes > 0).length - 1),
    fits: fullBytes <= budget,
    entries,
  });
  if (fullBytes <= budget)
    return done(
      catalogue.map((e) => ({
        state: 'whole',
        description: e.description,
        bytes: bytesOf(lineOf(e, e.description)),
      })),
    );
  // The bare lines and one space per description: what is left is the descriptions' room.
  const bare = catalogue.reduce((sum, e) => sum + bytesOf(lineOf(e, '')), 0) + joins;
  const room = budget - bare - catalogue.length;
  if (room < catalogue.length * BYTES_PER_TOKEN) {
    let used = 0;
    return done(
      catalogue.map((e, i) => {
        const bytes = bytesOf(lineOf(e, '')) + (i > 0 ? 1 : 0);
        if (used + bytes > budget) return { state: 'omitted', description: '', bytes: 0 };
        used += bytes;
        return { state: 'bare', description: '', bytes: bytes - (i > 0 ? 1 : 0) };
      }),
    );
  }
  const listed = shareOut(
    catalogue.map((e) => e.description),
    room,
  );
  return done(
    catalogue.map((e, i) => {
      const description = listed[i] ?? '';
      const state = description === e.description ? 'whole' : description === '' ? 'bare' : 'cut';
      return { state, description, bytes: bytesOf(lineOf(e, description)) };
    }),
  );
}
