/**
 * How Claude Code 2.1.328 fits its skill listing into its character budget (docs/listing-budget.md,
 * every rule confirmed through the loopback capture of the real binary): which entries keep their
 * text (`whole`, or `cut` at the per-entry cap) and which are listed `bare`, as `- name`.
 * Pure: the catalogue and the budget inputs in, each entry's state and the characters out.
 */
import type { ListingState } from '../listing.js';
import { displayWidth } from './display-width.js';

/** The per-entry cap of 2.1.328 (settings key `skillListingMaxDescChars`). */
export const CLAUDE_ENTRY_CAP = 1536;
/** The share of the context window, in characters, the listing may take (settings key `skillListingBudgetFraction`). */
export const CLAUDE_BUDGET_FRACTION = 0.01;
/** The context window the CLI assumes for a model it knows no window of. */
export const CLAUDE_DEFAULT_CONTEXT = 200_000;

/** The skills 2.1.328 ships inside itself, which keep their text whatever the budget, in its listing order. */
export const CLAUDE_BUNDLED_SKILLS = [
  'dataviz',
  'update-config',
  'keybindings-help',
  'code-review',
  'simplify',
  'fewer-permission-prompts',
  'loop',
  'claude-api',
  'workflow-authoring',
  'run',
  'plugin-authoring',
] as const;

/** Its built-in commands in the listing, listed after the bundled skills and made bare like any other entry. */
export const CLAUDE_BUILT_IN_COMMANDS = ['init', 'security-review'] as const;

/** One entry of the catalogue, in the CLI's listing order (`claudeListingOrder`). */
export interface ClaudeCatalogueEntry {
  /** The name as listed: the folder (or command) name, or `folder (name)` when the frontmatter's differs. */
  listedName: string;
  /** The text after `: `, before the cap: the description, and ` - when_to_use` when there is one. */
  text: string;
  /**
   * `bundled`: a skill shipped inside the CLI, which keeps its text whatever the budget;
   * `name-only`: an entry the user's `skillOverrides` lists as its name alone.
   */
  fixed?: 'bundled' | 'name-only';
  /** The use score (`claudeUseScore`); 0 for an entry never used. */
  score: number;
}

/** What the budget is made of. */
export interface ClaudeBudgetInputs {
  /** `SLASH_COMMAND_TOOL_CHAR_BUDGET` as set; a number other than 0 replaces the formula. */
  override?: string;
  /** The model's context window in tokens; the CLI assumes 200,000 where it knows none. */
  contextWindow?: number;
  /** 4 for most models, 3 for some (the default `claude-opus-5-5`); read from the probe's budget line. */
  bytesPerToken?: number;
  /** The `skillListingBudgetFraction` setting. */
  fraction?: number;
}

/** The listing budget in characters (display width): the override, else ⌊window × bytes per token × fraction⌋. */
export function claudeListingBudget(inputs: ClaudeBudgetInputs): number {
  const override = inputs.override === undefined ? Number.NaN : Number(inputs.override);
  if (!Number.isNaN(override) && override !== 0) return override;
  const window = inputs.contextWindow ?? CLAUDE_DEFAULT_CONTEXT;
  const raw = window * (inputs.bytesPerToken ?? 4) * (inputs.fraction ?? CLAUDE_BUDGET_FRACTION);
  return Math.max(1, Math.floor(raw));
}

/** A `skillUsage` record of `~/.claude.json`. */
export interface SkillUsage {
  usageCount: number;
  /** Milliseconds since the epoch. */
  lastUsedAt: number;
}

const DAY_MS = 86_400_000;

/** The rank the CLI gives an entry: its use count, halved every 7 days since its last use, never below a tenth. */
export function claudeUseScore(usage: SkillUsage | undefined, nowMs: number): number {
  if (usage === undefined) return 0;
  const days = (nowMs - usage.lastUsedAt) / DAY_MS;
  return usage.usageCount * Math.max(0.5 ** (days / 7), 0.1);
}

/** The listed text: cut at the cap to its first cap − 1 characters and `…`. */
export function claudeCappedText(text: string, cap = CLAUDE_ENTRY_CAP): string {
  return text.length > cap ? `${text.slice(0, cap - 1)}\u2026` : text;
}

/** One entry as the CLI lists it. */
export interface ClaudeEntryListing {
  state: ListingState;
  /** The entry's line as sent: `- name: text`, or `- name` when bare. */
  line: string;
  /** Its width, as the budget counts it. */
  chars: number;
}

export interface ClaudeListing {
  budget: number;
  /** The width the listing would take with every entry whole (the CLI's "chars" of its budget line). */
  fullChars: number;
  /** The width of the listing as sent, entries joined by line breaks. */
  usedChars: number;
  /** False when the whole listing overflowed the budget and entries were made bare. */
  fits: boolean;
  entries: ClaudeEntryListing[];
}

/**
 * The listing of a catalogue under a budget, as 2.1.328 builds it: if every entry fits whole, all
 * are; otherwise the bundled entries keep their text, every other entry starts bare, and the space
 * left is handed out in order of use score (ties keep the listing order): an entry gets its text
 * back when `: text` still fits, and stays bare when not, so a shorter one later may still fit.
 */
export function claudeListing(
  catalogue: readonly ClaudeCatalogueEntry[],
  budget: number,
  cap = CLAUDE_ENTRY_CAP,
  width: (text: string) => number = displayWidth,
): ClaudeListing {
  const lines = catalogue.map((entry) => {
    const bare = `- ${entry.fixed === 'name-only' ? entry.listedName.replace(/ \(.*\)$/, '') : entry.listedName}`;
    const text = claudeCappedText(entry.text, cap);
    const full = entry.fixed === 'name-only' ? bare : `${bare}: ${text}`;
    return { bare, full, cut: text !== entry.text };
  });
  const joins = Math.max(0, lines.length - 1);
  const fullChars = lines.reduce((sum, l) => sum + width(l.full), 0) + joins;
  const isFixed = (i: number): boolean => catalogue[i]?.fixed !== undefined;
  const kept = new Set<number>();
  if (fullChars <= budget) for (const i of lines.keys()) kept.add(i);
  else {
    let left = budget - lines.reduce((sum, l, i) => sum + width(isFixed(i) ? l.full : l.bare), 0) - joins;
    const order = lines.map((_, i) => i).filter((i) => !isFixed(i));
    order.sort((a, b) => (catalogue[b]?.score ?? 0) - (catalogue[a]?.score ?? 0));
    for (const i of order) {
      const line = lines[i];
      if (line === undefined) continue;
      const extra = width(line.full) - width(line.bare);
      if (extra <= left) {
        kept.add(i);
        left -= extra;
      }
    }
  }
  const entries = lines.map((l, i): ClaudeEntryListing => {
    const whole = kept.has(i) || catalogue[i]?.fixed === 'bundled';
    const line = whole ? l.full : l.bare;
    const state: ListingState =
      !whole || catalogue[i]?.fixed === 'name-only' ? 'bare' : l.cut ? 'cut' : 'whole';
    return { state, line, chars: width(line) };
  });
  const usedChars = entries.reduce((sum, e) => sum + e.chars, 0) + joins;
  return { budget, fullChars, usedChars, fits: fullChars <= budget, entries };
}

/** Where an entry comes from, which decides its place in the listing. */
export type ClaudeEntrySource = 'user-skill' | 'project-skill' | 'command' | 'bundled' | 'built-in';

const SOURCE_RANK: Record<ClaudeEntrySource, number> = {
  'user-skill': 0,
  'project-skill': 1,
  command: 2,
  bundled: 3,
  'built-in': 4,
};

/**
 * The listing order of 2.1.328: `~/.claude/skills` first, then the project's `.claude/skills`, each
 * by folder name; then the commands of both places together, by name; then the bundled skills and
 * the built-in commands in the CLI's own order (kept as given). Stable.
 */
export function claudeListingOrder<T extends { source: ClaudeEntrySource; folder: string }>(
  entries: readonly T[],
): T[] {
  const sorted = (source: ClaudeEntrySource): boolean => source !== 'bundled' && source !== 'built-in';
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => {
      const bySource = SOURCE_RANK[a.entry.source] - SOURCE_RANK[b.entry.source];
      if (bySource !== 0) return bySource;
      if (!sorted(a.entry.source)) return a.index - b.index;
      return a.entry.folder < b.entry.folder ? -1 : a.entry.folder > b.entry.folder ? 1 : a.index - b.index;
    })
    .map(({ entry }) => entry);
}
