import { codexSiblings, codexUnlistedDefect } from '../agents/codex/listed.js';
import { codexProviderFrom } from '../agents/codex/provider.js';
import { agentFacts } from '../agents/registry.js';
import { InputErrors } from '../errors.js';
import type { MatrixEntrantInput } from '../matrix/entrants.js';
import type { MatrixCodex, MatrixEntrant } from '../matrix/measure.js';
import type { PreflightResult } from '../preflight/preflight.js';
import { otherAgentSettings } from './other-agents.js';
import type { CliIo } from './output.js';

/**
 * `matrix --agent codex`: every skill of the matrix is installed as Codex lists it (docs/codex.md
 * "Listing parity"), in every run, and the Codex decision names whichever one's SKILL.md a reader
 * command opened. A skill Codex leaves out of its listing would never be chosen there, so it is an
 * input error (exit 1), every such skill reported at once, before the gates.
 */
export function refuseCodexUnlisted(entrants: readonly MatrixEntrantInput[]): void {
  const defects = entrants.flatMap((e) => codexUnlistedDefect(e.skill) ?? []);
  const [only] = defects;
  if (defects.length === 1 && only) throw only;
  if (defects.length > 1) throw new InputErrors(defects);
}

/** Each skill with the description Codex lists for it, and what the Codex runs need; after the gates. */
export async function codexMatrix(
  bin: string,
  io: CliIo,
  preflight: PreflightResult,
  entrants: readonly MatrixEntrantInput[],
): Promise<{ entrants: MatrixEntrant[]; settings: MatrixCodex }> {
  // Every skill is the others' sibling: Codex's listing of each, as `run` installs its siblings.
  const { codex } = await otherAgentSettings({ codex: bin }, io, preflight, {
    codex: codexSiblings(entrants.map((e) => ({ skill: e.skill, file: e.skill.file }))),
  });
  const version = codex?.version;
  const defaultModel = agentFacts('codex').defaultModel(version);
  const listedOf = new Map((codex?.siblings ?? []).map((s) => [s.skillName, s.description]));
  return {
    entrants: entrants.map(({ skill, evalSet }) => ({
      name: skill.name,
      listed: listedOf.get(skill.name) ?? skill.description,
      evalSet,
    })),
    settings: {
      bin,
      // The auth gate has passed: the key is in the environment.
      provider: codexProviderFrom(io.env).provider,
      ...(defaultModel ? { defaultModel } : {}),
      ...(version ? { version } : {}),
    },
  };
}
