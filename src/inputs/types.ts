import type { ContextTurn } from './context.js';

/** One query of an eval set. */
export interface EvalItem {
  /** A stable identifier: the entry's own `id` where the format has one, else `q<index+1>`. */
  id: string;
  query: string;
  shouldTrigger: boolean;
  /** Every other field of the entry (e.g. `note`, `needs_context`), carried into the report as is. */
  extra: Record<string, unknown>;
  /** The entry's own context (docs/context.md, "A context per entry"): never in `extra`, never in a report. */
  context?: EvalContext;
}

/**
 * An entry's context: the turns its runs start with. Inline turns are read with the entry; a file
 * (as the entry names it, relative to the eval set) is read by `resolveEvalContexts`
 * (src/inputs/files.ts), which sets `turns`.
 */
export interface EvalContext {
  turns?: readonly ContextTurn[];
  file?: string;
}

/** An entry's `context` as the loader read it: a file's path as written, or the turns inline. */
export type ContextRef = { kind: 'file'; path: string } | { kind: 'inline'; turns: ContextTurn[] };

export type EvalFormat = 'skill-creator-json' | 'agentv-yaml' | 'csv';

export interface EvalSet {
  /** The file as the user named it (never written into a report). */
  file: string;
  format: EvalFormat;
  items: EvalItem[];
  /** Non-fatal findings of the loader, e.g. an AgentV input's file parts left out of the prompt. */
  warnings?: string[];
}

/** A skill folder's SKILL.md, parsed. */
export interface Skill {
  dir: string;
  file: string;
  /** `name` from the frontmatter, else the folder name. */
  name: string;
  description: string;
  /** 1-based line of the `description:` key in SKILL.md, for annotations and error messages. */
  descriptionLine: number;
  whenToUse?: string;
  /** The SKILL.md text as read (BOM, CRLF and all): what the listing probe installs. */
  fileText?: string;
  /**
   * What Claude Code lists for this file, by the emulation (src/inputs/listing.ts); `run` and
   * `check` read the real listing with the probe where the CLI is there.
   */
  emulatedListing?: string;
  /** The author's entry as the YAML reads it: description, ` - ` and when_to_use. */
  authoredListing?: string;
  /** The warnings (also in `warnings`) that compare the emulated listing with the authored text. */
  listingWarnings?: string[];
  /** `disable-model-invocation: true`: Claude Code keeps the skill out of the listing on purpose. */
  disableModelInvocation?: true;
  /** Non-fatal findings, e.g. a description the CLI will truncate in the listing. */
  warnings: string[];
}
