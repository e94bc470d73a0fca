/**
 * Listings and crowds (part of the agent spec; docs/listing-budget.md, docs/roster.md): how an
 * entry reaches the model, a listing probe's picture and settings, the installed catalogue and a
 * roster's crowd, the siblings as an agent lists them, and an agent's reading of a SKILL.md alone
 * (`FileListing`). It imports no other part of the spec.
 */
import type { InputError } from '../errors.js';

/** How one entry reaches the model: its whole text, its text cut at the cap (ending `…`), or its name alone. */
export type ListingState = 'whole' | 'cut' | 'bare';

/** How a message says each state. */
export const LISTING_STATE_WORDS: Readonly<Record<ListingState, string>> = {
  whole: 'whole',
  cut: 'cut',
  bare: 'name-only',
};

/** The stub's entry in a listing: its state, and the characters of its text as listed (0 when bare). */
export interface StubListing {
  state: ListingState;
  chars: number;
}

/**
 * A whole skill listing as one probe of a run's environment read it (docs/listing-budget.md): the
 * budget where the agent says it or the rule knows it, what the listing used, every other entry by
 * its listed name with its state (`omitted`: Codex left it out), and the stub's own entry. Names are the adapter's; a report keeps only their hashes.
 */
export interface ListingPicture {
  /** Claude Code counts display width in characters, Codex UTF-8 bytes. */
  unit: 'characters' | 'bytes';
  budget?: number;
  used: number;
  entries: Array<{ name: string; state: ListingState | 'omitted' }>;
  stub: StubListing;
  /** How the skill itself would be listed in its user's place, where the stub is not whole and that was read. */
  realSkill?: ListingState;
}

/** What a listing probe read, or why it could not. */
export type ListingProbe = { kind: 'read'; picture: ListingPicture } | { kind: 'failed'; reason: string };

/** What an agent's listing probe is told: one side's stub, laid out as its runs lay it out. */
export interface AgentListingSettings {
  bin: string;
  /** The user's environment, HOME included: the catalogue a run lists is the one it finds there. */
  env: NodeJS.ProcessEnv;
  model?: string;
  skillName: string;
  /** The side's text as its SKILL.md holds it. */
  description: string;
  siblings: readonly SiblingText[];
  /** A roster's crowd, listed in a throwaway HOME instead of the user's catalogue. */
  crowd?: readonly CrowdMember[];
}

/** One entry of the catalogue an agent lists on this machine, as a roster holds it (docs/roster.md). */
export interface InstalledEntry {
  kind: 'skill' | 'command';
  source: 'user' | 'project' | 'plugin';
  /** The folder or command file name. */
  name: string;
  /** The text the agent lists for it. */
  description: string;
  /** The use record that ranks it (Claude Code's `skillUsage`). */
  usage?: { usageCount: number; lastUsedAt: number };
}

/** One entry of a roster's crowd (docs/roster.md): a skill folder's SKILL.md, or an entry's description to write one from. */
export interface CrowdMember {
  kind: InstalledEntry['kind'];
  source: InstalledEntry['source'];
  name: string;
  /** A folder roster's SKILL.md, byte for byte. */
  fileText?: string;
  /** A roster file's description (with hashed names: as many `x` as it had characters). */
  description?: string;
  usage?: InstalledEntry['usage'];
}

/** What a reading of the installed catalogue found, or why it could not. */
export type InstalledRead = { kind: 'read'; entries: InstalledEntry[] } | { kind: 'failed'; reason: string };

/** A sibling as an agent's run installs it: the sibling skill's name and its text as the agent lists it. */
export interface SiblingText {
  skillName: string;
  description: string;
  /** Its text as the default agent's listing shows it (`AgentStubs.listed`), where the core has it. */
  listed?: string;
}

/** The siblings as an agent sees them: those it lists, and those it leaves out, with why. */
export interface ListedSiblings {
  installed: SiblingText[];
  leftOut: Array<{ name: string; reason: string }>;
}

/** A SKILL.md as an agent's listing reads it: its name, where it is, its text as it stands. */
export interface SkillFile {
  name: string;
  /** The SKILL.md, and the folder holding it. */
  file: string;
  dir: string;
  /** The file's text (absent for a description given on the command line). */
  fileText?: string;
}

/**
 * How an agent lists a skill read off its SKILL.md alone, without starting its CLI: the agents
 * whose listing is their own reading of the file (docs/codex.md, docs/gemini.md). An agent whose
 * listing is read from its own CLI has a listed-text probe instead (`AgentLoopRuntime.listedText`).
 */
export interface FileListing {
  /** The input error of a SKILL.md it leaves out of its listing: nothing to measure on it. */
  unlisted(skill: SkillFile): InputError | undefined;
  /**
   * The siblings its runs install beside the stub, as it lists them; for a routing matrix, its
   * listing of the whole skill set (each skill's text as it lists it, and those it leaves out).
   */
  siblings(skills: readonly { skill: SkillFile; file: string }[]): ListedSiblings;
}

/** The crowd side `side` is listed among: none for a clean side (`--versus-clean`), else the roster's. */
export function sideCrowd(
  settings: { crowd?: readonly CrowdMember[]; cleanSides?: readonly number[] },
  side: number,
): readonly CrowdMember[] | undefined {
  return settings.cleanSides?.includes(side) ? [] : settings.crowd;
}
