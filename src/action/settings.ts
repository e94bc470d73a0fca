import * as core from '@actions/core';
import { type AgentChoice, type AgentId, DEFAULT_AGENTS } from '../agents/agent.js';
import { AGENTS, DEFAULT_AGENT } from '../agents/registry.js';
import { UsageError } from '../errors.js';
import { contextRefusal, type Naming, ownModels, parseAgents, qualifiedModels } from '../inputs/agents.js';
import { MAX_SHARDS, parseShard, type Shard } from '../matrix/shard.js';
import { accepted, NUMERIC_SETTINGS, type NumericSettingName, readNumber } from '../numeric-settings.js';
import { MATRIX_AGENTS } from '../schemas/matrix.js';
import { InputDefaults, type InputName, Inputs } from './constants.js';
import { BASELINE_MODES, type BaselineMode } from './results/results.js';
import { globToRegExp } from './skill-glob.js';

function isBaselineMode(value: string): value is BaselineMode {
  return (BASELINE_MODES as readonly string[]).includes(value);
}

/** The agents the job measures: `agents`, else the default (Claude Code alone). */
export function agentsOf(settings: Pick<Settings, 'agents'>): readonly AgentChoice[] {
  return settings.agents ?? DEFAULT_AGENTS;
}

/** One agent's inputs: `claude-code-version`, `claude-path`, `anthropic-api-key` for Claude Code. */
export interface AgentInputs {
  version: string;
  path?: string;
  apiKey?: string;
}

/** Every input of the Action, read once and validated. Nothing else reads `core.getInput`. */
export interface Settings {
  /**
   * Each agent's own inputs (the registry names them, src/agents/registry.ts): the exact version to
   * install (a cache key part, so never a range), an executable to use instead, and the API key its
   * runs get (masked; absent: the step's own environment decides).
   */
  install: Record<AgentId, AgentInputs>;
  /**
   * `agents`: the agents measured, each with its model when there are several (`claude:M,codex:M`
   * in `model`/`models`; then `model` and `models` are absent). Absent: Claude Code alone, the default.
   */
  agents?: AgentChoice[];
  /** `--model` for every run; absent: the CLI's default. */
  model?: string;
  /** `models`: several models, each measured on every query (then `model` is absent). */
  models?: string[];
  /** Runs per query (≥ 1). */
  runs: number;
  /** Per-run timeout in seconds. */
  timeoutSeconds: number;
  /** Globs (repository-relative, `/`-separated) of the SKILL.md files to consider; `!` excludes. */
  skills: string[];
  /** On a push to the default branch: measure every matching skill, not only the changed ones. */
  skillsAll: boolean;
  /** Where each skill's eval set is, as path templates (`{dir}`, `{name}`); empty: the convention. */
  evals: string[];
  baseline: BaselineMode;
  /** A regression fails the step. */
  failOnRegression: boolean;
  /** Post (or update) the sticky PR comment. */
  comment: boolean;
  /** Measure even when a plugin offers a skill or command of the same name. */
  allowConflict: boolean;
  /**
   * Measure a fork's pull request under `pull_request_target`, which runs with this repository's
   * secrets and a write token: the fork's descriptions and eval queries then reach a model holding
   * the API key, whose tools run on the runner. Off: such a run is refused (exit 1).
   */
  allowPullRequestTarget: boolean;
  /**
   * A fork's `pull_request` run that no credential reached: `skip` ends it neutral (exit 0, a
   * notice, nothing spent); `fail` runs it as any pull request, so its auth gate fails it (exit 2).
   */
  onFork: 'skip' | 'fail';
  /** For the PR comment; absent: no comment is attempted. */
  githubToken?: string;
  /** Where reports are written (relative to the workspace). */
  out: string;
  /**
   * `measure`: measure the skills (all, or this shard's); `merge`: gather the shards' results files;
   * `drift`: on a schedule or by hand, measure every skill of the default branch against its stored
   * baseline, keep the drift issue, refresh the baselines only when nothing moved (docs/action.md).
   */
  mode: 'measure' | 'merge' | 'drift';
  /**
   * `accept-drift`, with `mode: drift`: this run's measurements become the stored baselines even
   * where a skill moved, and the drift issue is closed as accepted.
   */
  acceptDrift: boolean;
  /** This leg of a matrix (`shard: i/n`): it measures its part, writes a results file, posts no comment. */
  shard?: Shard;
  /** In merge mode: the folder (relative to the workspace) the legs' results files were downloaded to. */
  resultsDir: string;
  /** `siblings`: every changed skill is measured with the repository's other skills installed beside it; `isolated`: alone. */
  competition: 'siblings' | 'isolated';
  /** With siblings: the siblings' positives are measured as extra negatives (`run --cross-negatives`). */
  crossNegatives: boolean;
  /** `late`: turns a miss is watched for a late load (`run --late N`); 0: off. */
  lateTurns: number;
  /** `context-fill`: characters of the shipped conversation every run starts with (`run --context-fill N`). */
  contextFill?: number;
  /** `prices`: a price table file, relative to the workspace (`run --prices`); absent: the built-in table. */
  prices?: string;
  /** `max-cost-usd`: the whole job's budget in US dollars (`run --max-cost-usd`); absent: none. */
  maxCostUsd?: number;
  /**
   * Also measure the repository's whole routing matrix (every skill with an eval set, every query,
   * `skilltrigger matrix`), this shard's slice of its queries with `shard: i/n`. Off by default: it
   * costs the sum of every eval set's queries × runs.
   */
  routingMatrix: boolean;
}

/** Reads one input's raw text (core.getInput in the Action; a map in tests). */
export type InputReader = (name: InputName) => string;

const coreReader: InputReader = (name) => core.getInput(name);

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

function quoted(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);
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

/** The agents rule's messages (src/inputs/agents.ts) name these inputs. */
function inputNaming(modelInput: InputName): Naming {
  return {
    agent: `input ${Inputs.Agents}`,
    model: `input ${modelInput}`,
    setAgent: (value) => `${Inputs.Agents}: ${value}`,
    setModel: (value) => `${modelInput}: ${value}`,
  };
}

function bad(name: InputName, accepts: string, value: string): UsageError {
  return new UsageError(`input ${name}: expected ${accepts}, got ${quoted(value)}`);
}

/**
 * Reads every input once into typed settings. A bad value is a UsageError (exit 1) naming the input
 * and what it accepts.
 */
export function readSettings(read: InputReader = coreReader): Settings {
  const raw = (name: InputName): string => {
    const value = read(name).trim();
    return value === '' ? (InputDefaults[name] ?? '') : value;
  };
  const optional = (name: InputName): string | undefined => raw(name) || undefined;
  const lines = (name: InputName): string[] =>
    raw(name)
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));

  const boolean = (name: InputName): boolean => {
    const value = raw(name);
    // The YAML 1.2 core-schema spellings, as core.getBooleanInput accepts them.
    if (['true', 'True', 'TRUE'].includes(value)) return true;
    if (['false', 'False', 'FALSE'].includes(value)) return false;
    throw bad(name, 'true or false', value);
  };

  // The number grammar and each input's range are the CLI flag's of the same name (numeric-settings.ts).
  const numeric = (name: InputName & NumericSettingName, also = ''): number => {
    const value = raw(name);
    const n = readNumber(NUMERIC_SETTINGS[name], value);
    if (n === undefined) throw bad(name, `${accepted(NUMERIC_SETTINGS[name])}${also}`, value);
    return n;
  };

  const exactVersion = (name: InputName, example: string): string => {
    const value = raw(name);
    if (!EXACT_VERSION.test(value)) {
      throw bad(
        name,
        `an exact version such as ${example} (ranges and tags like "latest" would make the cached install lie about its version)`,
        value,
      );
    }
    return value;
  };
  const install = Object.fromEntries(
    Object.values(AGENTS).map((agent) => {
      const path = optional(agent.inputs.path);
      const apiKey = optional(agent.inputs.apiKey);
      const inputs: AgentInputs = {
        version: exactVersion(agent.inputs.version, agent.pinnedVersion),
        ...(path === undefined ? {} : { path }),
        ...(apiKey === undefined ? {} : { apiKey }),
      };
      return [agent.id, inputs];
    }),
  ) as Record<AgentId, AgentInputs>;

  const model = optional(Inputs.Model);
  if (model !== undefined && (/\s/.test(model) || model.length > 200)) {
    throw bad(Inputs.Model, 'a model name without spaces, such as claude-sonnet-4-5', model);
  }

  const models = lines(Inputs.Models)
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
        raw(Inputs.Models),
      );
  }

  // Several agents take one model each, named with its agent, from `models` (else `model`).
  const agentNames = parseAgents(raw(Inputs.Agents), inputNaming(Inputs.Agents));
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
  // One agent: its models may carry its own prefix (`codex:gpt-5`), which is not part of the id.
  const only = agentNames.length === 1 ? agentNames[0] : undefined;
  const ownModel =
    only === undefined || model === undefined ? model : ownModels(only, model, inputNaming(Inputs.Model));
  const ownModelList =
    only === undefined ? models : models.map((m) => ownModels(only, m, inputNaming(Inputs.Models)) ?? m);

  const baseline = raw(Inputs.Baseline);
  if (!isBaselineMode(baseline)) {
    throw bad(
      Inputs.Baseline,
      `${BASELINE_MODES.slice(0, -1).join(', ')} or ${BASELINE_MODES.at(-1)}`,
      baseline,
    );
  }

  const skills = lines(Inputs.Skills);
  if (skills.length === 0 || skills.every((glob) => glob.startsWith('!'))) {
    throw bad(Inputs.Skills, 'at least one glob of SKILL.md files, such as **/SKILL.md', raw(Inputs.Skills));
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

  const evals = lines(Inputs.Evals);
  for (const template of evals) {
    if (template.startsWith('/') || template.split('/').includes('..')) {
      throw bad(
        Inputs.Evals,
        'paths relative to the repository root, e.g. {dir}/evals/evals.json (no leading / and no ..)',
        template,
      );
    }
  }

  const mode = raw(Inputs.Mode);
  if (mode !== 'measure' && mode !== 'merge' && mode !== 'drift')
    throw bad(Inputs.Mode, 'measure, merge or drift', mode);
  const shardValue = optional(Inputs.Shard);
  const shard = shardValue === undefined ? undefined : parseShard(shardValue);
  if (shardValue !== undefined && shard === undefined) {
    throw bad(
      Inputs.Shard,
      `i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, such as 2/3 (or empty, for no sharding)`,
      shardValue,
    );
  }
  if (shardValue !== undefined && mode === 'merge') {
    throw bad(Inputs.Shard, 'empty with mode: merge (the merge step gathers every shard)', shardValue);
  }
  if (shardValue !== undefined && mode === 'drift') {
    throw bad(
      Inputs.Shard,
      'empty with mode: drift (one job measures every skill, so that one issue can say which moved)',
      shardValue,
    );
  }
  const resultsDir = raw(Inputs.ResultsDir);
  if (resultsDir.split(/[\\/]/).includes('..')) {
    throw bad(
      Inputs.ResultsDir,
      'a folder inside the workspace, such as skilltrigger-results (no ..)',
      resultsDir,
    );
  }

  // The reports folder, as results-dir and prices: inside the workspace, so a workflow input cannot
  // write the reports (and the Pages artifact made from them) anywhere else on the runner.
  const out = raw(Inputs.Out);
  if (/^([\\/]|[A-Za-z]:)/.test(out) || out.split(/[\\/]/).includes('..')) {
    throw bad(
      Inputs.Out,
      'a folder relative to the workspace, such as skilltrigger-results (no leading / and no ..)',
      out,
    );
  }

  const competition = raw(Inputs.Competition);
  if (competition !== 'siblings' && competition !== 'isolated') {
    throw bad(Inputs.Competition, 'siblings or isolated', competition);
  }

  const onFork = raw(Inputs.OnFork);
  if (onFork !== 'skip' && onFork !== 'fail') throw bad(Inputs.OnFork, 'skip or fail', onFork);

  const prices = optional(Inputs.Prices);
  if (prices !== undefined && (/^([\\/]|[A-Za-z]:)/.test(prices) || prices.split(/[\\/]/).includes('..'))) {
    throw bad(
      Inputs.Prices,
      'a price table file relative to the workspace, such as .github/skilltrigger-prices.json (no leading / and no ..)',
      prices,
    );
  }
  const contextFill =
    optional(Inputs.ContextFill) === undefined
      ? undefined
      : numeric(Inputs.ContextFill, ' (or empty, for none)');
  const noContext = contextRefusal(
    agents ?? DEFAULT_AGENTS,
    contextFill === undefined ? undefined : `input ${Inputs.ContextFill}`,
  );
  if (noContext) throw noContext;
  const maxCostUsd =
    optional(Inputs.MaxCostUsd) === undefined
      ? undefined
      : numeric(Inputs.MaxCostUsd, ' (or empty, for no budget)');

  const routingMatrix = boolean(Inputs.RoutingMatrix);
  const matrixAgent = agentNames[0];
  if (
    routingMatrix &&
    matrixAgent !== undefined &&
    !(MATRIX_AGENTS as readonly string[]).includes(matrixAgent)
  ) {
    // The matrix holds the first agent's runs, and it runs on the agents its loop knows.
    throw new UsageError(
      `input ${Inputs.RoutingMatrix}: the routing matrix runs on ${MATRIX_AGENTS.join(' or ')}, and ${Inputs.Agents} puts ${matrixAgent} first. Fix: list ${MATRIX_AGENTS.join(' or ')} first in ${Inputs.Agents}, or set ${Inputs.RoutingMatrix}: false`,
    );
  }
  if (maxCostUsd !== undefined && routingMatrix) {
    // The matrix loop has no budget stop and is not in the job's estimate: refuse rather than
    // let a "budget" quietly not cover the costliest part of the job.
    throw new UsageError(
      `input ${Inputs.MaxCostUsd}: does not budget the routing matrix (routing-matrix: true), whose runs are not estimated or stopped. Fix: leave ${Inputs.MaxCostUsd} empty, or set routing-matrix: false`,
    );
  }

  const acceptDrift = boolean(Inputs.AcceptDrift);
  if (acceptDrift && mode !== 'drift') {
    throw bad(Inputs.AcceptDrift, `false unless mode is drift (this step's mode is ${mode})`, 'true');
  }
  if (routingMatrix && mode === 'drift') {
    throw new UsageError(
      `input ${Inputs.RoutingMatrix}: mode: drift measures each skill against its stored baseline, not the routing matrix. Fix: set routing-matrix: false on the drift step`,
    );
  }

  const githubToken = optional(Inputs.GithubToken);
  return {
    install,
    ...(agents === undefined ? {} : { agents }),
    ...(agents !== undefined && agents.length > 1
      ? {}
      : ownModelList.length > 1
        ? { models: ownModelList }
        : ownModelList.length === 1
          ? { model: ownModelList[0] as string }
          : ownModel === undefined
            ? {}
            : { model: ownModel }),
    runs: numeric(Inputs.Runs),
    timeoutSeconds: numeric(Inputs.Timeout),
    skills,
    skillsAll: boolean(Inputs.SkillsAll),
    evals,
    baseline,
    failOnRegression: boolean(Inputs.FailOnRegression),
    comment: boolean(Inputs.Comment),
    allowConflict: boolean(Inputs.AllowConflict),
    allowPullRequestTarget: boolean(Inputs.AllowPullRequestTarget),
    onFork,
    ...(githubToken === undefined ? {} : { githubToken }),
    out,
    mode,
    acceptDrift,
    ...(shard === undefined ? {} : { shard }),
    resultsDir,
    competition,
    crossNegatives: boolean(Inputs.CrossNegatives),
    lateTurns: numeric(Inputs.Late),
    ...(contextFill === undefined ? {} : { contextFill }),
    ...(prices === undefined ? {} : { prices }),
    ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
    routingMatrix,
  };
}
