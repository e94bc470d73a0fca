import * as core from '@actions/core';
import type { ListedText, ProbeSettings } from '../agents/listed.js';
import type { StubLayout } from '../agents/process/stub-project.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { listedTextProbe } from '../agents/runtime.js';
import type { Skill } from '../inputs/types.js';
import type { MeasureTarget } from './plan.js';

/**
 * Which text the Action measures, as the CLI's `run` decides it (src/agents/listed.ts):
 * what Claude Code itself lists for the SKILL.md (the listing probe), else the emulation, said so;
 * then each side's stub is checked to be listed as exactly that text. A paired run measures both
 * sides the same way: when either side's probe cannot run, both sides are emulated.
 */

export interface ActionListed {
  /**
   * The `listed` setting of measureSkill: the texts the stubs are written from. Absent when the
   * probe could not read a side: measureSkill then emulates both, as the Action did before.
   */
  listed?: { candidate: string; baseline?: string; source: 'probe' };
  /**
   * The skill's warnings with the emulation's listing findings replaced by the probe's (the
   * listed text is what is measured, so its findings are the ones that hold).
   */
  warnings: string[];
}

export async function actionListedTexts(
  head: Skill,
  base: Skill | undefined,
  layout: StubLayout,
  probe: ProbeSettings,
): Promise<ActionListed> {
  // Both sides' listings and their stubs' checks share starts of the CLI (`listAndCheck`). The stubs
  // are checked only when both sides were read: otherwise both are emulated, unchecked, as before.
  const sides = base === undefined ? [head] : [head, base];
  const labels = ['the description', 'the base description'];
  const { listed: read, checked } = await listedTextProbe(DEFAULT_AGENT).listAndCheck(
    sides,
    (texts) =>
      texts.every((t) => t.source === 'probe')
        ? texts.map((t, i) => ({ text: t.text, label: labels[i] ?? 'the description' }))
        : [],
    layout,
    probe,
  );
  const own = read[0];
  const baseOwn = read[1];
  if (own === undefined) throw new Error('actionListedTexts: no listing for the head');
  const bothProbed = own.source === 'probe' && (baseOwn === undefined || baseOwn.source === 'probe');
  if (!bothProbed) {
    const why = own.source === 'emulation' ? own.why : `the base description: ${baseOwn?.why}`;
    core.info(`listing: emulated, not read from Claude Code (${why}); see docs/listing-parity.md`);
    return { warnings: head.warnings };
  }
  core.info('listing: read from Claude Code (the listing probe)');
  const listed = {
    candidate: own.text,
    ...(baseOwn === undefined ? {} : { baseline: baseOwn.text }),
    source: 'probe' as const,
  };
  for (const c of checked)
    if (c.skipped !== undefined) core.info(`listing: the stub's listing was not checked (${c.skipped})`);
  const emulatedFindings = new Set(head.listingWarnings ?? []);
  const otherWarnings = head.warnings.filter((w) => !emulatedFindings.has(w));
  return { listed, warnings: [...otherWarnings, ...own.warnings] };
}

/**
 * The listed texts of the competition (siblings, and the routing matrix's skills), read once per
 * SKILL.md text for the whole job: several changed skills share their siblings, and the matrix
 * lists every skill again. Each stub's listing is checked once per text (a mismatch is a failed
 * gate, exit 2), as the CLI's `run --siblings` and `matrix` check theirs.
 */
export class CompetitionListing {
  private readonly read = new Map<string, Promise<ListedText>>();
  private readonly checked = new Map<string, Promise<string | undefined>>();
  private readonly listing = listedTextProbe(DEFAULT_AGENT);

  constructor(
    private readonly layout: StubLayout,
    private readonly probe: ProbeSettings,
  ) {}

  private static key(skill: Skill): string {
    return skill.fileText ?? `\u0000${skill.name}\u0000${skill.description}`;
  }

  /**
   * Reads the skills not read yet in one go (`listAndCheck`), and checks the stubs of their texts
   * in the same starts when every one of them was read; what a later `checkStub` asks is then known.
   */
  private async readAll(skills: readonly Skill[]): Promise<void> {
    const fresh: Skill[] = [];
    for (const skill of skills) {
      const key = CompetitionListing.key(skill);
      if (!this.read.has(key) && !fresh.some((f) => CompetitionListing.key(f) === key)) fresh.push(skill);
    }
    if (fresh.length === 0) return;
    const unlistedReason = this.listing.unlistedReason;
    const pending = this.listing.listAndCheck(
      fresh,
      (texts) =>
        texts.some((t) => t.source === 'emulation' && t.why !== unlistedReason)
          ? []
          : texts.flatMap((t, i) =>
              t.why === unlistedReason || this.checked.has(t.text)
                ? []
                : [{ text: t.text, label: `skill ${fresh[i]?.name}` }],
            ),
      this.layout,
      this.probe,
    );
    for (const [i, skill] of fresh.entries()) {
      const one = pending.then(
        ({ listed }) => listed[i] ?? Promise.reject(new Error('no listing for the skill')),
      );
      one.catch(() => undefined); // the failure reaches the caller through `pending` below
      this.read.set(CompetitionListing.key(skill), one);
    }
    const { checked } = await pending;
    for (const c of checked)
      if (!this.checked.has(c.text)) this.checked.set(c.text, Promise.resolve(c.skipped));
  }

  /** A skill's listed text, read by `readAll` (which every `list` calls first). */
  private listedText(skill: Skill): Promise<ListedText> {
    return (
      this.read.get(CompetitionListing.key(skill)) ??
      Promise.reject(new Error('listing: the skill was not read'))
    );
  }

  private checkStub(text: string, label: string): Promise<string | undefined> {
    let found = this.checked.get(text);
    if (found === undefined) {
      found = this.listing.checkStub(text, this.layout, this.probe, label);
      this.checked.set(text, found);
    }
    return found;
  }

  /**
   * What Claude Code lists for each skill (`what` names them in the log: "siblings of alpha", "the
   * routing matrix"). By the probe when it could read every one; when it could not read one, every
   * text is the emulation, so all competitors are read alike, and the log says which and why. A
   * skill Claude Code leaves out of its listing (disable-model-invocation) is returned in
   * `unlisted` with `dropUnlisted` (it cannot compete: installing it would invent a rival), else
   * kept with its emulated text.
   */
  async list(
    skills: readonly Skill[],
    what: string,
    options: { dropUnlisted: boolean },
  ): Promise<{
    listed: { skill: Skill; text: string }[];
    unlisted: string[];
    source: 'probe' | 'emulation';
  }> {
    await this.readAll(skills);
    const read: { skill: Skill; own: ListedText }[] = [];
    for (const skill of skills) read.push({ skill, own: await this.listedText(skill) });
    const unlisted = options.dropUnlisted
      ? read.filter((r) => r.own.why === this.listing.unlistedReason).map((r) => r.skill.name)
      : [];
    const kept = read.filter((r) => !unlisted.includes(r.skill.name));
    for (const name of unlisted)
      core.info(`listing: ${name} is not listed by Claude Code, so it does not compete; left out of ${what}`);
    if (kept.length === 0) return { listed: [], unlisted, source: 'probe' };
    // A skill Claude Code read but does not list is no probe failure: its text stays the emulation.
    const failed = kept.find(
      (r) => r.own.source === 'emulation' && r.own.why !== this.listing.unlistedReason,
    );
    if (failed !== undefined) {
      core.info(
        `listing: ${what}: all ${kept.length} emulated, not read from Claude Code (${failed.skill.name}: ${failed.own.why}); see docs/listing-parity.md`,
      );
      return {
        listed: kept.map((r) => ({
          skill: r.skill,
          text: this.listing.foreseen(r.skill),
        })),
        unlisted,
        source: 'emulation',
      };
    }
    core.info(`listing: ${what}: all ${kept.length} read from Claude Code (the listing probe)`);
    for (const { skill, own } of kept) {
      if (own.source === 'emulation') {
        core.info(`listing: ${skill.name}: not listed by Claude Code, so emulated (${own.why})`);
        continue;
      }
      for (const warning of own.warnings) core.info(`listing: ${skill.name}: ${warning}`);
      const skipped = await this.checkStub(own.text, `skill ${skill.name}`);
      if (skipped !== undefined)
        core.info(`listing: ${skill.name}: the stub's listing was not checked (${skipped})`);
    }
    return { listed: kept.map((r) => ({ skill: r.skill, text: r.own.text })), unlisted, source: 'probe' };
  }
}

/**
 * Every target's siblings listed as Claude Code lists them (`competition: siblings`): the planned
 * emulated texts replaced by the probe's, or all kept emulated when the probe cannot read one, said
 * in the log either way. A sibling Claude Code does not list is left out, as `run --siblings` does.
 */
export async function listSiblings(
  targets: readonly MeasureTarget[],
  listing: CompetitionListing,
): Promise<void> {
  for (const target of targets) {
    if (target.siblings.length === 0) continue;
    const { listed } = await listing.list(
      target.siblings.map((s) => s.skill),
      `the siblings of ${target.plan.head.name}`,
      { dropUnlisted: true },
    );
    target.siblings = listed.map(({ skill, text }) => ({ name: skill.name, listed: text, skill }));
  }
}
