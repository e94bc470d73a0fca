/**
 * Gemini CLI through the registry's runtime (src/agents/runtime.ts): its gates, its listing of
 * the skill and the siblings, and its loop agent, made from what the core hands every agent.
 */
import { InputError } from '../../errors.js';
import type { AgentLoopRuntime } from '../agent.js';
import type { SkillFile } from '../listing.js';
import { killAllAgentGroups } from '../process/group.js';
import { geminiAgent } from './agent.js';
import { askGemini } from './ask.js';
import { geminiGates } from './gates.js';
import { type GeminiListing, geminiListingOf } from './listing.js';
import { geminiProviderFrom } from './provider.js';
import { readGeminiVersion } from './run.js';

/** Gemini's listing of a SKILL.md as it stands, or of a description given without one. */
function listingOf(skill: SkillFile): GeminiListing | undefined {
  return skill.fileText === undefined ? undefined : geminiListingOf(skill.fileText);
}

/** The description Gemini lists from a SKILL.md's text, when it lists one. */
function ownText(text: string | undefined): string | undefined {
  const listing = text === undefined ? undefined : geminiListingOf(text);
  return listing?.kind === 'listed' ? listing.description : undefined;
}

export const geminiRuntime: AgentLoopRuntime = {
  gates: ({ bin, systemSkillsFolder: _none, ...settings }) => geminiGates({ ...settings, geminiBin: bin }),
  version: (bin, env) => readGeminiVersion(bin, env).catch(() => undefined),
  fileListing: {
    unlisted: (skill) => {
      const listing = listingOf(skill);
      if (listing === undefined || listing.kind === 'listed') return undefined;
      return new InputError(
        { file: skill.file },
        `Gemini CLI leaves this skill out of its listing (${listing.reason}), so a Gemini model never sees it and there is nothing to measure on Gemini`,
        'fix the frontmatter (docs/gemini.md "Listing parity"), or measure it without --agent gemini',
      );
    },
    siblings: (skills) => {
      const installed: Array<{ skillName: string; description: string }> = [];
      const leftOut: Array<{ name: string; reason: string }> = [];
      for (const { skill } of skills) {
        const listing = listingOf(skill);
        if (listing === undefined) continue;
        if (listing.kind === 'listed')
          installed.push({ skillName: skill.name, description: listing.description });
        else leftOut.push({ name: skill.name, reason: listing.reason });
      }
      return { installed, leftOut };
    },
  },
  open: ({ bin, env, stubs, memory }) =>
    geminiAgent(
      bin,
      // The auth gate has passed: the key is in the environment.
      geminiProviderFrom(env).provider,
      stubs.descriptions.map((description, side) => ({
        skillName: stubs.skillName,
        // Gemini lists the SKILL.md's own text as YAML parses it (a block scalar keeps its last line
        // break, which skilltrigger's reader trims): the candidate's stub is written from it.
        description: side === 0 ? (ownText(stubs.skillText) ?? description) : description,
        ...(stubs.siblings.length === 0 ? {} : { siblings: [...stubs.siblings] }),
        ...(memory === undefined ? {} : { memory }),
      })),
      env,
    ),
  matrix: ({ bin, env, sides }) =>
    // Each side's texts are Gemini's own listing of the skills (`siblings`); the auth gate has
    // passed, so the key is in the environment.
    geminiAgent(
      bin,
      geminiProviderFrom(env).provider,
      sides.map((side) => ({ ...side, siblings: [...side.siblings] })),
      env,
    ),
  killAll: killAllAgentGroups,
  ask: askGemini,
};
