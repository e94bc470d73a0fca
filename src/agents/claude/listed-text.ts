import { GateError, InputError } from '../../errors.js';
import { composeListing, listingFindings, listingSpaces, stubFieldsFor } from '../../inputs/listing.js';
import { quote } from '../../inputs/problems.js';
import type {
  ListedAndChecked,
  ListedSkill,
  ListedText,
  ListedTextProbe,
  ProbeSettings,
  StubCheck,
} from '../listed.js';
import { type StubLayout, stubFileText } from '../process/stub-project.js';
import { type ProbeFile, type ProbeResult, probeListing, probeListings } from './listing-probe.js';

/**
 * Which text is measured (docs/listing-parity.md): what Claude Code lists for the skill, read by the listing
 * probe from the user's own claude, else the emulation, said so. Then the stub is checked once to
 * make the CLI list exactly that text, before any measured run.
 */

/**
 * The reason `readListedText` gives when Claude Code read the file but left it out of its listing:
 * `disable-model-invocation: true` does that on purpose; for any other skill it is a defect
 * (`unlistedDefect`).
 */
const UNLISTED_REASON = 'Claude Code did not list the skill';

/**
 * The defect of a skill Claude Code does not list although nothing in its frontmatter asks for
 * that: the model would never see the real skill, so measuring a stub of it would measure a skill
 * that does not exist. Undefined when the skill is listed, or left out by its own flag.
 */
function unlistedDefect(skill: ListedSkill, listed: ListedText): InputError | undefined {
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
export async function readListedText(skill: ListedSkill, probe: ProbeSettings): Promise<ListedText> {
  const [listed] = await readListedTexts([skill], probe);
  if (listed === undefined) throw new Error('readListedText: no answer for the skill');
  return listed;
}

/** `readListedText` for several skills, in one start of the CLI where that is exact (`probeTogether`). */
export async function readListedTexts(
  skills: readonly ListedSkill[],
  probe: ProbeSettings,
): Promise<ListedText[]> {
  const { listed } = await listAndCheck(skills, () => [], 'skill', probe);
  return listed;
}

/** What the probe read for the skill, as the text to measure: the emulation where it read nothing usable. */
function listedFrom(skill: ListedSkill, result: ProbeResult): ListedText {
  const emulated = emulatedText(skill);
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

/** The text the emulation foresees Claude Code listing for a skill (what the probe usually reads). */
function foreseenListing(skill: ListedSkill): string {
  return emulatedText(skill);
}

function emulatedText(skill: ListedSkill): string {
  return skill.emulatedListing ?? composeListing(skill.description, skill.whenToUse);
}

/**
 * The listed text for a description given on the command line (`--description`,
 * `--baseline-description`): joined with the skill's when_to_use and capped as Claude Code does.
 */
function listedOverride(description: string, skill: ListedSkill): string {
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
async function checkStubListing(
  listed: string,
  layout: StubLayout,
  probe: ProbeSettings,
  label = 'the description',
): Promise<string | undefined> {
  const [skipped] = await checkStubListings([{ text: listed, label }], layout, probe);
  return skipped;
}

/**
 * `checkStubListing` for several texts, in one start where that is exact: one skip reason (or
 * undefined) per check, in order. The first mismatch, in order, throws.
 */
export async function checkStubListings(
  checks: readonly StubCheck[],
  layout: StubLayout,
  probe: ProbeSettings,
): Promise<Array<string | undefined>> {
  const files = checks.map((c, i) => stubFile(layout, i, c.text));
  const results = await probeTogether(files, (i, r) => listedAs(r, checks[i]?.text), probe);
  return judgeStubs(checks, results, layout);
}

/**
 * Each skill's listed text (`readListedText`), then the stubs `stubsFor` asks for checked
 * (`checkStubListing`), in as few starts of the CLI as is exact. The stubs are foreseen from the
 * emulation and listed in the same start as the real files; only the ones whose text the probe
 * then changes need a second start (docs/listing-parity.md, "Several files in one start").
 */
export async function listAndCheck(
  skills: readonly ListedSkill[],
  stubsFor: (listed: readonly ListedText[]) => StubCheck[],
  layout: StubLayout,
  probe: ProbeSettings,
): Promise<ListedAndChecked> {
  const real = skills.flatMap((skill, i) =>
    skill.fileText === undefined ? [] : [{ i, file: { layout: 'skill' as const, text: skill.fileText } }],
  );
  // Foreseen: the stubs asked for if the probe reads each skill as the emulation does (the usual case).
  const foreseen = stubsFor(
    skills.map((skill) => ({ text: emulatedText(skill), source: 'probe', warnings: [] })),
  );
  const files: ProbeFile[] = [
    ...real.map((r) => r.file),
    ...foreseen.map((c, i) => stubFile(layout, i, c.text)),
  ];
  const results = await probeTogether(
    files,
    (i, r) =>
      i < real.length
        ? r.kind === 'listed' && r.description !== ''
        : listedAs(r, foreseen[i - real.length]?.text),
    probe,
  );
  const listed = skills.map((skill, i) => {
    const at = real.findIndex((r) => r.i === i);
    const result: ProbeResult =
      at < 0 ? { kind: 'failed', reason: 'the SKILL.md text is not at hand' } : (results[at] ?? NO_ANSWER);
    return listedFrom(skill, result);
  });
  const checks = stubsFor(listed);
  // A check foreseen and passed in the first start is done; any other is probed now.
  const done = (c: StubCheck) =>
    foreseen.some((f, i) => f.text === c.text && listedAs(results[real.length + i] ?? NO_ANSWER, c.text));
  const rest = checks.filter((c) => !done(c));
  const skipped = await checkStubListings(rest, layout, probe);
  const checked = checks.map((c) => {
    const at = rest.indexOf(c);
    const reason = at < 0 ? undefined : skipped[at];
    return reason === undefined ? c : { ...c, skipped: reason };
  });
  return { listed, checked };
}

const NO_ANSWER: ProbeResult = { kind: 'failed', reason: 'no listing' };

/** Whether the probe listed the entry as exactly `text`. */
function listedAs(result: ProbeResult, text: string | undefined): boolean {
  return result.kind === 'listed' && text !== undefined && result.description === text;
}

/** The stub file a check lists, named apart from the others of its start. */
function stubFile(layout: StubLayout, i: number, listed: string): ProbeFile {
  const name = `parity-check-${layout}-${i + 1}`;
  const fields = stubFieldsFor(listed);
  return { layout, name, text: stubFileText(layout, name, fields.description, fields.whenToUse) };
}

/**
 * The probe's reading of several files: all in one start, then each answer `accept` refuses asked
 * again alone. One start lists an entry exactly as a start of its own would, but the listing shares
 * one size budget, and an entry over it is listed bare (`- name`): so only an answer that could
 * not be the batch's doing is kept (docs/listing-parity.md, "Several files in one start"). A start
 * that failed is not asked again: alone it fails the same way.
 */
async function probeTogether(
  files: readonly ProbeFile[],
  accept: (index: number, result: ProbeResult) => boolean,
  probe: ProbeSettings,
): Promise<ProbeResult[]> {
  const options = {
    claudeBin: probe.bin,
    env: probe.env,
    ...(probe.model ? { model: probe.model } : {}),
    ...(probe.signal ? { signal: probe.signal } : {}),
  };
  const batch = await probeListings(files, options);
  if (files.length <= 1) return batch;
  const out: ProbeResult[] = [];
  for (const [i, result] of batch.entries()) {
    const file = files[i];
    const again =
      file !== undefined && result.kind !== 'failed' && !accept(i, result) && !probe.signal?.aborted;
    out.push(again ? await probeListing(file, options) : result);
  }
  return out;
}

/** Skip reasons per check; throws the GateError of the first stub listed otherwise than its text. */
function judgeStubs(
  checks: readonly StubCheck[],
  results: readonly ProbeResult[],
  layout: StubLayout,
): Array<string | undefined> {
  return checks.map((check, i) => {
    const result = results[i] ?? NO_ANSWER;
    const failure = probeFailure(result);
    if (failure !== undefined || result.kind !== 'listed') return failure ?? 'no listing';
    if (result.description === check.text) return undefined;
    throw mismatch(result.description, check.text, layout, check.label);
  });
}

function mismatch(got: string, listed: string, layout: StubLayout, label: string): GateError {
  let at = 0;
  while (at < got.length && at < listed.length && got[at] === listed[at]) at++;
  return new GateError(
    `listing parity: the ${layout} stub for ${label} is listed by Claude Code as ${got.length} characters where ${listed.length} are to be measured, first differing at character ${at + 1} (${quote(got.slice(at, at + 30))} instead of ${quote(listed.slice(at, at + 30))}); nothing was measured. Fix: try --stub ${layout === 'command' ? 'skill' : 'command'}, and report this text's shape as a skilltrigger bug`,
  );
}

/** Claude Code's listed-text probe, as its loop runtime offers it to the core. */
export const claudeListedText: ListedTextProbe = {
  listAndCheck,
  read: readListedTexts,
  checkStub: checkStubListing,
  override: listedOverride,
  foreseen: foreseenListing,
  unlistedDefect,
  unlistedReason: UNLISTED_REASON,
};
