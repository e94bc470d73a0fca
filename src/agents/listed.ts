import type { InputError } from '../errors.js';

/**
 * The listed-text probe's spec (docs/listing-parity.md): which text a measurement measures for a
 * skill, where the default agent lists a skill otherwise than its SKILL.md says (the listing read
 * from its own CLI, else the emulation), and the check that each stub is listed as exactly that
 * text before any measured run. The agent that has such a probe provides it on its loop runtime
 * (`AgentLoopRuntime.listedText`); the core reaches it through `listedTextProbe` in
 * src/agents/runtime.ts. This module imports no agent.
 */

/** A SKILL.md as the probe reads it: the file, and the texts its listing may come from. */
export interface ListedSkill {
  name: string;
  file: string;
  description: string;
  whenToUse?: string;
  /** The file's text as read: what the probe installs (absent for a text given on the command line). */
  fileText?: string;
  /** What the emulation foresees the agent listing (src/inputs/listing.ts). */
  emulatedListing?: string;
  /** The author's entry as the YAML reads it. */
  authoredListing?: string;
  /** The emulation's findings where its listing is not what the author wrote. */
  listingWarnings?: string[];
  /** The frontmatter keeps the skill out of the listing on purpose. */
  disableModelInvocation?: true;
}

/** The CLI a probe starts, and how. */
export interface ProbeSettings {
  /** The executable of the agent whose listing is read. */
  bin: string;
  env: NodeJS.ProcessEnv;
  model?: string;
  signal?: AbortSignal;
}

/** The text the agent lists for a skill, and how it was found. */
export interface ListedText {
  text: string;
  /** `probe`: read from the CLI's own request; `emulation`: src/inputs/listing.ts, see `why`. */
  source: 'probe' | 'emulation';
  /** Why the probe's reading is not used (the CLI is missing, or did not list the file). */
  why?: string;
  /**
   * Where this listed text is not what the author wrote (a cut at `---`, the cap, a dropped
   * comment): the probe's findings, or the emulation's (`skill.listingWarnings`).
   */
  warnings: string[];
}

/** A text a stub is written for, to be listed as exactly that; `label` names it in a failure. */
export interface StubCheck {
  text: string;
  label: string;
}

/** What `listAndCheck` found: each skill's listed text, and each stub check with why it was skipped, if it was. */
export interface ListedAndChecked {
  listed: ListedText[];
  checked: Array<StubCheck & { skipped?: string }>;
}

/** How a stub is laid out (`--stub`, docs/design.md). */
export type ListedStubLayout = 'command' | 'skill';

/** What the core asks of an agent's listed-text probe. */
export interface ListedTextProbe {
  /**
   * Each skill's listed text, then the stubs `stubsFor` asks for checked, in as few starts of the
   * CLI as is exact. A stub listed otherwise than its text throws a GateError (exit 2); a check the
   * probe could not run is returned with the reason it was skipped.
   */
  listAndCheck(
    skills: readonly ListedSkill[],
    stubsFor: (listed: readonly ListedText[]) => StubCheck[],
    layout: ListedStubLayout,
    probe: ProbeSettings,
  ): Promise<ListedAndChecked>;
  /** Each skill's listed text alone, no stub checked. Never throws for a CLI failure. */
  read(skills: readonly ListedSkill[], probe: ProbeSettings): Promise<ListedText[]>;
  /**
   * One stub written for `text` checked to be listed as exactly that (a GateError where it is
   * not); the reason when the probe could not run, else undefined.
   */
  checkStub(
    text: string,
    layout: ListedStubLayout,
    probe: ProbeSettings,
    label: string,
  ): Promise<string | undefined>;
  /** The listed text of a description given on the command line, for this skill. */
  override(description: string, skill: ListedSkill): string;
  /** The text the emulation foresees the agent listing for a skill (what the probe usually reads). */
  foreseen(skill: ListedSkill): string;
  /** The input error of a skill the agent reads but leaves out of its listing for no reason of its own. */
  unlistedDefect(skill: ListedSkill, listed: ListedText): InputError | undefined;
  /** The `why` of a listed text whose skill the agent read but left out of its listing. */
  unlistedReason: string;
}
