/**
 * The listing a measured Codex run sends (docs/listing-budget.md, "The listing of a measured run").
 * Each run's own request is in its session rollout, so the stub's state is read from it run by run
 * (`codexStubListing`); the rest of the picture (the budget, every other entry's state) comes from
 * one probe of the same environment: the user's HOME as a run has it, the side's stub and siblings
 * in a project laid out as a run's, Codex's own system skills in a throwaway CODEX_HOME. The probe
 * reads each listed SKILL.md, so an entry cut by the budget is told from one listed whole.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseSkillsInstructions } from '../../simulated/responses-request.js';
import type { CrowdMember, ListingPicture, ListingState, StubListing } from '../listing.js';
import { yamlString } from '../process/stub-project.js';
import { codexListedDescription, codexListingOf } from './listing.js';
import { codexListingBudget } from './listing-budget.js';
import { type CodexListedSkill, probeCodexListing } from './listing-probe.js';
import { type CodexStubSpec, codexStubText } from './stub.js';

const chars = (text: string): number => Array.from(text).length;

/** A listed description against the whole one: bare when empty, whole when equal, else cut. */
function stateOf(listed: string, whole: string | undefined): ListingState {
  if (listed === '') return 'bare';
  return whole === undefined || listed === whole ? 'whole' : 'cut';
}

/**
 * The stub's entry in a run's `<skills_instructions>`: undefined when the stub is not listed (the
 * budget left it out) or the text holds no listing.
 */
export function codexStubListing(
  instructions: string,
  stubName: string,
  description: string,
): StubListing | undefined {
  const entry = parseSkillsInstructions(instructions).listing.find((e) => e.name === stubName);
  if (entry === undefined) return undefined;
  const listed = codexListedDescription(description);
  // Over Codex's cap of 1,024 the text ends `...`: listed whole as Codex reads it, and still cut.
  const capped = listed.endsWith('...') && chars(listed) < chars(description.trim());
  const state = stateOf(entry.description, listed);
  return { state: state === 'whole' && capped ? 'cut' : state, chars: chars(entry.description) };
}

/** The bytes of the listing's entry lines joined by line breaks, as the budget counts them. */
export function codexListingBytes(instructions: string): number {
  const lines = instructions
    .split('\n')
    .filter((line) => line.startsWith('- ') && line.endsWith(')') && line.includes(' (file: '));
  return (
    lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8'), 0) + Math.max(0, lines.length - 1)
  );
}

/** A listed skill's whole description, as Codex reads its SKILL.md; undefined when unread. */
function wholeOf(skill: CodexListedSkill): string | undefined {
  if (skill.text === undefined) return undefined;
  const listing = codexListingOf(skill.text, path.basename(path.dirname(skill.file)));
  return listing.kind === 'listed' ? listing.description : undefined;
}

export interface CodexRunListingOptions {
  bin: string;
  /** The user's environment, HOME included: `~/.agents/skills` is listed as in a measured run. */
  env: NodeJS.ProcessEnv;
  model?: string;
  root?: string;
  /** A roster's skills, listed instead of the user's `~/.agents/skills` (a throwaway HOME holds them). */
  userSkills?: ReadonlyArray<{ folder: string; text: string }>;
}

/** What a Codex run of this side lists, or why it could not be read. */
export async function probeCodexRunListing(
  stub: CodexStubSpec,
  options: CodexRunListingOptions,
): Promise<{ kind: 'read'; picture: ListingPicture } | { kind: 'failed'; reason: string }> {
  const nameOf = (skill: string) => `${skill}-stub-${randomBytes(4).toString('hex')}`;
  const name = nameOf(stub.skillName);
  const skills = [
    { folder: name, text: codexStubText(name, stub.description) },
    ...(stub.siblings ?? []).map((s) => {
      const sibling = nameOf(s.skillName);
      return { folder: sibling, text: codexStubText(sibling, s.description) };
    }),
  ];
  const result = await probeCodexListing({
    bin: options.bin,
    env: options.env,
    skills,
    readTexts: true,
    ...(options.userSkills ? { userSkills: options.userSkills } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.root ? { root: options.root } : {}),
  });
  if (result.kind === 'failed') return result;
  const own = codexStubListing(result.instructions, name, stub.description);
  if (own === undefined) return { kind: 'failed', reason: "the stub is not in Codex's listing" };
  const entries: ListingPicture['entries'] = result.skills
    .filter((s) => s.name !== name)
    .map((s) => ({ name: s.name, state: stateOf(s.description, wholeOf(s)) }));
  return {
    kind: 'read',
    picture: {
      unit: 'bytes',
      budget: codexListingBudget(),
      used: codexListingBytes(result.instructions),
      entries,
      stub: own,
    },
  };
}

/** A roster's skills as Codex finds them in `~/.agents/skills` (its commands are Claude Code's alone). */
export function codexCrowdSkills(crowd: readonly CrowdMember[]): Array<{ folder: string; text: string }> {
  return crowd
    .filter((e) => e.kind === 'skill')
    .map((e) => ({
      folder: e.name,
      text:
        e.fileText ?? `---\nname: ${e.name}\ndescription: ${yamlString(e.description ?? '')}\n---\n\nbody\n`,
    }));
}
