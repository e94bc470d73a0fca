import { type ProbeResult, probeListing } from '../adapters/listing-probe.js';
import { type StubLayout, stubFileText } from '../adapters/stub-project.js';
import { GateError, InputError } from '../errors.js';
import { composeListing, listingFindings, listingSpaces, stubFieldsFor } from '../inputs/listing.js';
import { quote } from '../inputs/problems.js';
import type { Skill } from '../inputs/types.js';
import { sha256Hex } from '../report/privacy.js';

/**
 * Which text is measured (docs/listing-parity.md): what Claude Code lists for the skill, read by the listing
 * probe from the user's own claude, else the emulation, said so. Then the stub is checked once to
 * make the CLI list exactly that text, before any measured run.
 */

export interface ProbeSettings {
  claudeBin: string;
  env: NodeJS.ProcessEnv;
  model?: string;
  signal?: AbortSignal;
}

/** The text Claude Code lists for a skill, and how it was found. */
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

/**
 * The reason `readListedText` gives when Claude Code read the file but left it out of its listing:
 * `disable-model-invocation: true` does that on purpose; for any other skill it is a defect
 * (`unlistedDefect`).
 */
export const UNLISTED_REASON = 'Claude Code did not list the skill';

/**
 * The defect of a skill Claude Code does not list although nothing in its frontmatter asks for
 * that: the model would never see the real skill, so measuring a stub of it would measure a skill
 * that does not exist. Undefined when the skill is listed, or left out by its own flag.
 */
export function unlistedDefect(skill: Skill, listed: ListedText): InputError | undefined {
  if (listed.why !== UNLISTED_REASON || skill.disableModelInvocation) return undefined;
  return new InputError(
    { file: skill.file },
    'Claude Code reads this SKILL.md but leaves the skill out of its listing, so the model never sees it and there is nothing to measure',
    'check the frontmatter and the file size against docs/listing-parity.md, and see what `claude` lists with /skills in this project',
  );
}

/** Why a probe gave no usable line, in words (no paths). */
function probeFailure(result: ProbeResult): string | undefined {
  if (result.kind === 'failed') return result.reason;
  if (result.kind === 'unlisted') return UNLISTED_REASON;
  return undefined;
}

/** Read how Claude Code lists the skill's own SKILL.md. Never throws for a CLI failure. */
export async function readListedText(skill: Skill, probe: ProbeSettings): Promise<ListedText> {
  const emulated = skill.emulatedListing ?? composeListing(skill.description, skill.whenToUse);
  const result =
    skill.fileText === undefined
      ? ({ kind: 'failed', reason: 'the SKILL.md text is not at hand' } as const)
      : await probeListing(
          { layout: 'skill', text: skill.fileText },
          {
            claudeBin: probe.claudeBin,
            env: probe.env,
            ...(probe.model ? { model: probe.model } : {}),
            ...(probe.signal ? { signal: probe.signal } : {}),
          },
        );
  const failure = probeFailure(result);
  if (failure !== undefined || result.kind !== 'listed') {
    return {
      text: emulated,
      source: 'emulation',
      why: failure ?? 'no listing',
      warnings: skill.listingWarnings ?? [],
    };
  }
  const authored = skill.authoredListing ?? skill.description;
  const warnings = listingFindings(authored, result.description);
  if (result.description === '') {
    warnings.push(
      'Claude Code lists this skill with no description at all, so the model has nothing to decide on; check the frontmatter',
    );
  }
  return { text: result.description, source: 'probe', warnings };
}

/**
 * The listed text for a description given on the command line (`--description`,
 * `--baseline-description`): joined with the skill's when_to_use and capped as Claude Code does.
 */
export function listedOverride(description: string, skill: Skill): string {
  return composeListing(
    listingSpaces(description).trim(),
    skill.whenToUse === undefined ? undefined : listingSpaces(skill.whenToUse),
  );
}

/**
 * The gate before measured runs: a stub written for `listed` must be listed as exactly `listed`.
 * Throws a GateError (exit 2) saying where they part; resolves quietly when they agree. When the
 * probe cannot run at all, the check is skipped and the reason returned for the caller to print.
 */
export async function checkStubListing(
  listed: string,
  layout: StubLayout,
  probe: ProbeSettings,
  label = 'the description',
): Promise<string | undefined> {
  const name = `parity-check-${layout}`;
  const fields = stubFieldsFor(listed);
  const result = await probeListing(
    { layout, name, text: stubFileText(layout, name, fields.description, fields.whenToUse) },
    {
      claudeBin: probe.claudeBin,
      env: probe.env,
      ...(probe.model ? { model: probe.model } : {}),
      ...(probe.signal ? { signal: probe.signal } : {}),
    },
  );
  const failure = probeFailure(result);
  if (failure !== undefined || result.kind !== 'listed') return failure ?? 'no listing';
  if (result.description === listed) return undefined;
  const got = result.description;
  let at = 0;
  while (at < got.length && at < listed.length && got[at] === listed[at]) at++;
  throw new GateError(
    `listing parity: the ${layout} stub for ${label} is listed by Claude Code as ${got.length} characters where ${listed.length} are to be measured, first differing at character ${at + 1} (${quote(got.slice(at, at + 30))} instead of ${quote(listed.slice(at, at + 30))}); nothing was measured. Fix: try --stub ${layout === 'command' ? 'skill' : 'command'}, and report this text's shape as a skilltrigger bug`,
  );
}

/** The listed text (what Claude Code lists, and what was measured) as the report holds it: size and hash. */
export function describeListed(
  text: string,
  source: 'probe' | 'emulation',
): { bytes: number; sha256: string; source: 'probe' | 'emulation' } {
  return { bytes: Buffer.byteLength(text, 'utf8'), sha256: sha256Hex(text), source };
}
