import type { ListedText } from '../agents/listed.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { listedTextProbe } from '../agents/runtime.js';
import type { SiblingSkill } from '../inputs/siblings.js';
import type { Skill } from '../inputs/types.js';
import type { SiblingListed } from '../report/build/sibling-counts.js';
import type { CliIo } from './output.js';
import type { RunArgs } from './run-args.js';

/**
 * What each side measures: Claude Code's own listing of the SKILL.md (the listing probe), or the
 * emulation where the probe cannot run, said so; then each side's stub is checked once to be listed
 * as exactly that text (a mismatch is a failed gate, exit 2). Prints where the listed text is not
 * what the author wrote.
 */
export async function listedTexts(
  args: RunArgs,
  io: CliIo,
  signal: AbortSignal,
  skill: Skill,
  baselineDescription: string | undefined,
): Promise<{ candidate: string; baseline?: string; source: 'probe' | 'emulation' }> {
  // The listing is the CLI's, whichever model reads it: the first model's probe stands for all.
  const model = args.model ?? args.models?.[0];
  const probe = { bin: args.bins[DEFAULT_AGENT], env: io.env, signal, ...(model ? { model } : {}) };
  const listing = listedTextProbe(DEFAULT_AGENT);
  const candidateOf = (own: ListedText) =>
    args.description === undefined ? own.text : listing.override(args.description, skill);
  const baseline =
    baselineDescription === undefined ? undefined : listing.override(baselineDescription, skill);
  // The skill's own listing and its stubs' checks share starts of the CLI (`listAndCheck`).
  const { listed, checked } = await listing.listAndCheck(
    [skill],
    ([own]) =>
      own === undefined || listing.unlistedDefect(skill, own) !== undefined
        ? []
        : [
            { text: candidateOf(own), label: 'the description' },
            ...(baseline === undefined ? [] : [{ text: baseline, label: 'the baseline description' }]),
          ],
    args.stub,
    probe,
  );
  const own = listed[0];
  if (own === undefined) throw new Error('listedTexts: no listing for the skill');
  const unlisted = listing.unlistedDefect(skill, own);
  if (unlisted !== undefined) throw unlisted;
  for (const warning of own.warnings) io.stderr.write(`warning: ${warning}\n`);
  if (own.source === 'emulation')
    io.stderr.write(
      `listing: emulated, not read from Claude Code (${own.why}); see docs/listing-parity.md\n`,
    );
  for (const c of checked)
    if (c.skipped !== undefined)
      io.stderr.write(`listing: the stub's listing was not checked (${c.skipped})\n`);
  return { candidate: candidateOf(own), ...(baseline === undefined ? {} : { baseline }), source: own.source };
}

/** What Claude Code lists for each sibling, by the same listing path as the tested skill's own text. */
export async function siblingTexts(
  args: RunArgs,
  io: CliIo,
  signal: AbortSignal,
  siblings: readonly SiblingSkill[],
): Promise<SiblingListed[]> {
  const probe = {
    bin: args.bins[DEFAULT_AGENT],
    env: io.env,
    signal,
    ...(args.model ? { model: args.model } : {}),
  };
  const skills = siblings.map((s) => s.skill);
  const listing = listedTextProbe(DEFAULT_AGENT);
  // A sibling Claude Code leaves out of its listing never competes: installing it would invent a rival.
  const competes = (own: ListedText) => own.why !== listing.unlistedReason;
  const { listed, checked } = await listing.listAndCheck(
    skills,
    (texts) =>
      texts.flatMap((own, i) =>
        competes(own) ? [{ text: own.text, label: `sibling ${skills[i]?.name}'s description` }] : [],
      ),
    args.stub,
    probe,
  );
  const out: SiblingListed[] = [];
  for (const [i, skill] of skills.entries()) {
    const own = listed[i];
    if (own === undefined) continue;
    if (!competes(own)) {
      io.stderr.write(
        `siblings: ${skill.name} is not listed by Claude Code${skill.disableModelInvocation ? ' (disable-model-invocation: true)' : ''}, so it does not compete; left out\n`,
      );
      continue;
    }
    for (const warning of own.warnings) io.stderr.write(`warning: sibling ${skill.name}: ${warning}\n`);
    if (own.source === 'emulation')
      io.stderr.write(`listing: sibling ${skill.name} emulated, not read from Claude Code (${own.why})\n`);
    const skipped = checked.find((c) => c.label === `sibling ${skill.name}'s description`)?.skipped;
    if (skipped !== undefined)
      io.stderr.write(`listing: sibling ${skill.name}'s stub listing was not checked (${skipped})\n`);
    out.push({ name: skill.name, listed: own.text });
  }
  return out;
}
