import * as core from '@actions/core';
import type { StubLayout } from '../adapters/stub-project.js';
import type { Skill } from '../inputs/types.js';
import { checkStubListing, type ProbeSettings, readListedText } from '../measure/listed-text.js';

/**
 * Which text the Action measures, as the CLI's `run` decides it (src/measure/listed-text.ts):
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
  const own = await readListedText(head, probe);
  const baseOwn = base === undefined ? undefined : await readListedText(base, probe);
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
  for (const [label, text] of [
    ['the description', listed.candidate],
    ['the base description', listed.baseline],
  ] as const) {
    if (text === undefined) continue;
    const skipped = await checkStubListing(text, layout, probe, label);
    if (skipped !== undefined) core.info(`listing: the stub's listing was not checked (${skipped})`);
  }
  const emulatedFindings = new Set(head.listingWarnings ?? []);
  const otherWarnings = head.warnings.filter((w) => !emulatedFindings.has(w));
  return { listed, warnings: [...otherWarnings, ...own.warnings] };
}
