import type { AgentChoice } from '../agents/ids.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { loopRuntimeOf } from '../agents/runtime.js';
import { InputError } from '../errors.js';
import { splitItems } from '../improve/decide.js';
import { refuseContext } from '../inputs/agents.js';
import type { ContextTurn } from '../inputs/context.js';
import type { EvalSet, Skill } from '../inputs/types.js';
import type { MeasureSettings } from '../measure/measure-settings.js';
import type { ImproveArgs } from './author-args.js';

/**
 * What `improve` checks of its inputs before anything is spent, and `improve --agent <id>`
 * (docs/author-loop.md, "On another agent"): the session's measurements on that agent, and what is
 * refused for it, as `run --agent` refuses it.
 */

/** What these steps read of `improve`'s arguments. */
type AgentArgs = Pick<ImproveArgs, 'agent' | 'contextFill'> & { contextTurns?: readonly ContextTurn[] };

/** `--agent` as the loop and the gates take it: absent for the default agent. */
export function sessionAgents(args: Pick<ImproveArgs, 'agent'>): AgentChoice[] | undefined {
  return args.agent === undefined ? undefined : [{ agent: args.agent }];
}

/** What every measurement of a session on another agent adds: that agent, its executable and version. */
export function agentSettings(args: Pick<ImproveArgs, 'agent'>, others: MeasureSettings['others']) {
  const agents = sessionAgents(args);
  if (agents === undefined) return {};
  const versions = Object.fromEntries(
    Object.entries(others ?? {}).flatMap(([id, other]) => (other?.version ? [[id, other.version]] : [])),
  );
  return {
    agents,
    ...(others ? { others } : {}),
    ...(Object.keys(versions).length === 0 ? {} : { agentVersions: versions }),
  };
}

/**
 * Before anything is spent: a SKILL.md the agent does not list, or a context its runs cannot
 * start from, is refused as `run --agent` refuses them.
 */
export function refuseForAgent(args: AgentArgs, skill: Skill, evalSet: EvalSet): void {
  const agents = sessionAgents(args);
  if (agents === undefined) return;
  const unlisted = loopRuntimeOf(args.agent ?? DEFAULT_AGENT).fileListing?.unlisted(skill);
  if (unlisted) throw unlisted;
  refuseContext(
    agents,
    { context: args.contextTurns !== undefined, fill: args.contextFill !== undefined },
    evalSet.items,
    evalSet.file,
  );
}

/** Every input is checked before anything is spent: both classes on train, a holdout to check on. */
export function checkSplit(evalSet: EvalSet): void {
  const { train, holdout } = splitItems(evalSet.items);
  if (holdout.length === 0) {
    throw new InputError(
      { file: evalSet.file },
      'has no holdout queries, so a rewrite could not be checked on queries it was not tuned on',
      'mark about 40% of the prompts, positives and negatives alike, with "split": "holdout" (skilltrigger init does)',
    );
  }
  for (const [cls, wanted] of [
    ['positives', true],
    ['negatives', false],
  ] as const) {
    if (!train.some((i) => i.shouldTrigger === wanted)) {
      throw new InputError(
        { file: evalSet.file },
        `has no train ${cls} (every one is held out)`,
        `keep most ${cls} in the train split; hold out about 40%`,
      );
    }
  }
}
