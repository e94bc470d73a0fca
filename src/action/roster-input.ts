import path from 'node:path';
import type { AgentChoice } from '../agents/ids.js';
import { DEFAULT_AGENTS, measures } from '../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { ROSTER_AGENTS } from '../agents/runtime.js';
import { InputError, InputErrors, UsageError } from '../errors.js';
import { loadRoster } from '../inputs/roster.js';
import { annotate } from './annotate.js';
import { Inputs } from './constants.js';
import { bad, type InputText } from './input-reader.js';
import { leavesWorkspace } from './settings-job.js';

/**
 * The Action's `roster` input (docs/action.md, "Measuring among a roster"; docs/roster.md): a
 * committed roster file or folder of skill folders, read from the workspace (the pull request's
 * checkout) before anything is installed, so that every changed skill is measured among that crowd
 * on both sides, as `run --roster` measures it. A bad path or a bad file is an input error (exit 1).
 */

/** `roster`: a path inside the workspace, for agents that can be listed among one. */
export function readRosterInput(
  input: InputText,
  agents: readonly AgentChoice[] | undefined,
): { roster?: string } {
  const roster = input.optional(Inputs.Roster);
  if (roster === undefined) return {};
  if (leavesWorkspace(roster))
    throw bad(
      Inputs.Roster,
      'a roster file or a folder of skill folders relative to the workspace, such as .github/skilltrigger/crowd (no leading / and no ..)',
      roster,
    );
  const refused = (agents ?? DEFAULT_AGENTS).find((a) => !ROSTER_AGENTS.includes(a.agent));
  if (refused)
    throw new UsageError(
      `input ${Inputs.Roster}: ${agentFacts(refused.agent).label} cannot be measured among a roster: only ${ROSTER_AGENTS.map((id) => agentFacts(id).label).join(' and ')} place one. Fix: leave ${Inputs.Roster} empty, or set ${Inputs.Agents} to ${ROSTER_AGENTS.join(',')}`,
    );
  return { roster };
}

/** The fix for a `roster` path that names nothing readable. */
const MISSING_FIX = `set ${Inputs.Roster} to a roster file (\`skilltrigger roster export\`) or a folder of skill folders committed in the repository, as a path relative to the workspace (docs/roster.md), or leave it empty`;

/** What the settings hold once the `roster` input was read. */
export interface RosterSettings {
  roster?: string;
  rosterCrowd?: Awaited<ReturnType<typeof loadRoster>>;
}

/**
 * The settings with the roster's crowd (`rosterCrowd`), read from the workspace. A path that names
 * nothing, or a file that is no roster, is annotated on the file and fails the step with exit 1,
 * naming the input, the path as the workflow wrote it, the entry and the fix.
 */
export async function withActionRoster<S extends RosterSettings>(workspace: string, settings: S): Promise<S> {
  const given = settings.roster;
  if (given === undefined) return settings;
  try {
    return { ...settings, rosterCrowd: await loadRoster(path.resolve(workspace, given)) };
  } catch (error) {
    const errors =
      error instanceof InputErrors ? error.errors : error instanceof InputError ? [error] : undefined;
    if (errors === undefined) throw error;
    const named = errors.map((e) => {
      const unread = e.problem === 'no such file or folder';
      return new InputError({ ...e.location, file: given }, e.problem, unread ? MISSING_FIX : e.fix);
    });
    for (const e of named)
      annotate('error', `${e.problem}${e.fix ? `. Fix: ${e.fix}` : ''}`, {
        title: 'skilltrigger: input error',
        file: given,
      });
    throw new UsageError(`input ${Inputs.Roster}: ${named.map((e) => e.message).join('\n')}`);
  }
}

/** The variables that carry a key Claude Code uses with no login in its HOME. */
const KEY_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];

/**
 * Claude Code among a roster runs in a HOME of its own, which holds no login: without a key in the
 * runs' environment it is refused before anything is installed (exit 1), as `run --roster` refuses it.
 */
export function rosterKeyRefusal(
  settings: RosterSettings & { agents?: AgentChoice[] },
  env: NodeJS.ProcessEnv,
): UsageError | undefined {
  if (settings.rosterCrowd === undefined) return undefined;
  if (!measures(settings.agents ?? DEFAULT_AGENTS, DEFAULT_AGENT)) return undefined;
  if (KEY_VARIABLES.some((name) => (env[name] ?? '') !== '')) return undefined;
  const keyInput = agentFacts(DEFAULT_AGENT).inputs.apiKey;
  return new UsageError(
    `input ${Inputs.Roster}: Claude Code runs among a roster in a HOME of their own, which holds no login. Fix: set ${keyInput} (or ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN in the step's environment), or leave ${Inputs.Roster} empty`,
  );
}
