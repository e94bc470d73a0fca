import type { AgentChoice, AgentId } from '../agents/ids.js';
import { AGENTS, DEFAULT_AGENT } from '../agents/registry.js';
import { type Naming, ownModels, parseAgents, qualifiedModels } from '../inputs/agents.js';
import { type InputName, Inputs } from './constants.js';
import { bad, type InputText } from './input-reader.js';
import { BASELINE_MODES, type BaselineMode } from './results/results.js';
import { globToRegExp } from './skill-glob.js';

/*
 * The steps of reading the Action's settings (settings.ts), one group of inputs each, in the order
 * readSettings takes them: the first bad input met is the one reported.
 */

/** One agent's inputs: `claude-code-version`, `claude-path`, `anthropic-api-key` for Claude Code. */
export interface AgentInputs {
  version: string;
  path?: string;
  apiKey?: string;
}

/** Each agent's exact version to install, the executable to use instead, and its API key. */
export function readInstall(input: InputText): Record<AgentId, AgentInputs> {
  return Object.fromEntries(
    Object.values(AGENTS).map((agent) => {
      const path = input.optional(agent.inputs.path);
      const apiKey = input.optional(agent.inputs.apiKey);
      const inputs: AgentInputs = {
        version: input.exactVersion(agent.inputs.version, agent.pinnedVersion),
        ...(path === undefined ? {} : { path }),
        ...(apiKey === undefined ? {} : { apiKey }),
      };
      return [agent.id, inputs];
    }),
  ) as Record<AgentId, AgentInputs>;
}

/** `model` (one name) and `models` (names by line or comma, each once), as written. */
export function readModelInputs(input: InputText): { model?: string; models: string[] } {
  const model = input.optional(Inputs.Model);
  if (model !== undefined && (/\s/.test(model) || model.length > 200)) {
    throw bad(Inputs.Model, 'a model name without spaces, such as claude-sonnet-4-5', model);
  }
  const models = input
    .lines(Inputs.Models)
    .flatMap((line) => line.split(','))
    .map((m) => m.trim())
    .filter((m) => m !== '');
  for (const [i, m] of models.entries()) {
    if (/\s/.test(m) || m.length > 200)
      throw bad(Inputs.Models, 'model names without spaces, such as claude-haiku-4-5,claude-sonnet-4-5', m);
    if (models.indexOf(m) !== i)
      throw bad(
        Inputs.Models,
        'each model once (a model named twice would be measured twice)',
        input.raw(Inputs.Models),
      );
  }
  return { ...(model === undefined ? {} : { model }), models };
}

/** The agents rule's messages (src/inputs/agents.ts) name these inputs. */
function inputNaming(modelInput: InputName): Naming {
  return {
    agent: `input ${Inputs.Agents}`,
    model: `input ${modelInput}`,
    setAgent: (value) => `${Inputs.Agents}: ${value}`,
    setModel: (value) => `${modelInput}: ${value}`,
  };
}

/**
 * `agents`, as written (`agentNames`), and as the choice measured: several agents take one model
 * each, named with its agent, from `models` (else `model`); one agent other than the default stands
 * alone; the default alone is absent.
 */
export function readAgents(
  input: InputText,
  { model, models }: { model?: string; models: string[] },
): { agentNames: AgentId[]; agents?: AgentChoice[] } {
  const agentNames = parseAgents(input.raw(Inputs.Agents), inputNaming(Inputs.Agents));
  const modelInput = models.length > 0 ? Inputs.Models : Inputs.Model;
  const agents: AgentChoice[] | undefined =
    agentNames.length > 1
      ? qualifiedModels(
          agentNames,
          models.length > 0 ? models : model === undefined ? undefined : model.split(','),
          inputNaming(modelInput),
        )
      : agentNames[0] !== undefined && agentNames[0] !== DEFAULT_AGENT
        ? [{ agent: agentNames[0] }]
        : undefined;
  return { agentNames, ...(agents === undefined ? {} : { agents }) };
}

/**
 * One agent: its own prefix on a model (`codex:gpt-5`) is not part of the id, as with the CLI's
 * `--model`; another agent's prefix is refused. Several agents keep their prefixes (`readAgents`).
 */
export function ownModelInputs(
  agentNames: readonly AgentId[],
  { model, models }: { model?: string; models: string[] },
): { model?: string; models: string[] } {
  const [only, second] = agentNames;
  if (only === undefined || second !== undefined)
    return { ...(model === undefined ? {} : { model }), models };
  const own = (value: string, name: InputName): string => ownModels(only, value, inputNaming(name)) ?? value;
  return {
    ...(model === undefined ? {} : { model: own(model, Inputs.Model) }),
    models: models.map((m) => own(m, Inputs.Models)),
  };
}

/**
 * The settings' model fields: none when several agents carry their models; else `models` for two
 * or more, `model` for one (from `models`, else `model`).
 */
export function modelFields(
  agents: readonly AgentChoice[] | undefined,
  models: string[],
  model: string | undefined,
): { model?: string; models?: string[] } {
  if (agents !== undefined && agents.length > 1) return {};
  if (models.length > 1) return { models };
  if (models.length === 1) return { model: models[0] as string };
  return model === undefined ? {} : { model };
}

function isBaselineMode(value: string): value is BaselineMode {
  return (BASELINE_MODES as readonly string[]).includes(value);
}

export function readBaseline(input: InputText): BaselineMode {
  const baseline = input.raw(Inputs.Baseline);
  if (!isBaselineMode(baseline)) {
    throw bad(
      Inputs.Baseline,
      `${BASELINE_MODES.slice(0, -1).join(', ')} or ${BASELINE_MODES.at(-1)}`,
      baseline,
    );
  }
  return baseline;
}

/** `{` and `}` nest and close (the glob reader would otherwise close them silently at the end). */
function bracesPair(glob: string): boolean {
  let depth = 0;
  for (const c of glob) {
    if (c === '{') depth++;
    else if (c === '}' && --depth < 0) return false;
  }
  return depth === 0;
}

function canMatchSkillFile(glob: string): boolean {
  const last = glob.split('/').at(-1) ?? '';
  return last === '**' || globToRegExp(last).test('SKILL.md');
}

/** `skills`: at least one included glob, each relative, `/`-separated, braces paired, able to match SKILL.md. */
export function readSkillGlobs(input: InputText): string[] {
  const skills = input.lines(Inputs.Skills);
  if (skills.length === 0 || skills.every((glob) => glob.startsWith('!'))) {
    throw bad(
      Inputs.Skills,
      'at least one glob of SKILL.md files, such as **/SKILL.md',
      input.raw(Inputs.Skills),
    );
  }
  for (const glob of skills) {
    const pattern = glob.replace(/^!/, '');
    if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
      throw bad(Inputs.Skills, 'globs relative to the repository root (no leading / and no ..)', glob);
    }
    if (pattern.includes('\\')) {
      throw bad(Inputs.Skills, 'globs with / between folders (a \\ is never a separator)', glob);
    }
    if (!bracesPair(pattern)) {
      throw bad(Inputs.Skills, 'globs whose { and } pair up, such as skills/{pdf,docx}/SKILL.md', glob);
    }
    // Only files named SKILL.md are skills: an included glob that cannot match one (a folder, say)
    // would silently measure nothing.
    if (!glob.startsWith('!') && !canMatchSkillFile(pattern)) {
      throw bad(
        Inputs.Skills,
        'globs that can match a file named SKILL.md, such as .claude/skills/*/SKILL.md or .claude/skills/**',
        glob,
      );
    }
  }
  return skills;
}

/** `evals`: path templates relative to the repository root. */
export function readEvalTemplates(input: InputText): string[] {
  const evals = input.lines(Inputs.Evals);
  for (const template of evals) {
    if (template.startsWith('/') || template.split('/').includes('..')) {
      throw bad(
        Inputs.Evals,
        'paths relative to the repository root, e.g. {dir}/evals/evals.json (no leading / and no ..)',
        template,
      );
    }
  }
  return evals;
}
