import * as core from '@actions/core';
import { type AgentChoice, type AgentId, DEFAULT_AGENTS } from '../agents/ids.js';
import type { ContextTurn } from '../inputs/context.js';
import type { MemoryFile } from '../inputs/memory.js';
import type { Crowd } from '../inputs/roster.js';
import type { Shard } from '../matrix/shard.js';
import { Inputs } from './constants.js';
import { type InputReader, inputText } from './input-reader.js';
import { readMemoryInput } from './memory-input.js';
import type { BaselineMode } from './results/results.js';
import { readRosterInput } from './roster-input.js';
import {
  type AgentInputs,
  modelFields,
  ownModelInputs,
  readAgents,
  readBaseline,
  readEvalTemplates,
  readInstall,
  readModelInputs,
  readSkillGlobs,
} from './settings-checks.js';
import {
  readChoices,
  readCostInputs,
  readFolders,
  readMatrixAndDrift,
  readModeAndShard,
} from './settings-job.js';

export type { InputReader } from './input-reader.js';
export type { AgentInputs } from './settings-checks.js';

/** The agents the job measures: `agents`, else the default (Claude Code alone). */
export function agentsOf(settings: Pick<Settings, 'agents'>): readonly AgentChoice[] {
  return settings.agents ?? DEFAULT_AGENTS;
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
  /** `context`: a context file, relative to the workspace (`run --context <file>`); not with `contextFill`. */
  context?: string;
  /**
   * The `context` file's turns, read and checked before the gates (context-input.ts); absent until
   * then, and without `context`.
   */
  contextTurns?: readonly ContextTurn[];
  /** `versus-fresh`: each query with a context measured fresh too, interleaved (`run --versus-fresh`). */
  versusFresh: boolean;
  /** `roster`: a roster file or folder of skill folders, relative to the workspace (`run --roster`). */
  roster?: string;
  /** The `roster`'s crowd, read and checked before anything is installed (roster-input.ts); absent until then. */
  rosterCrowd?: Crowd;
  /** `memory: auto`: the repository's root memory files in every run's project (memory-input.ts). */
  memory?: 'auto';
  /** Those files, read and checked before the gates, each for the agents that read it; absent until then. */
  memoryFiles?: readonly MemoryFile[];
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

const coreReader: InputReader = (name) => core.getInput(name);

/**
 * Reads every input once into typed settings. A bad value is a UsageError (exit 1) naming the input
 * and what it accepts. The steps run in a fixed order, so the first bad input met is the one named.
 */
export function readSettings(read: InputReader = coreReader): Settings {
  const input = inputText(read);
  const install = readInstall(input);
  const { model, models } = readModelInputs(input);
  const { agentNames, agents } = readAgents(input, { models, ...(model === undefined ? {} : { model }) });
  const baseline = readBaseline(input);
  const skills = readSkillGlobs(input);
  const evals = readEvalTemplates(input);
  const { mode, shard } = readModeAndShard(input);
  const { resultsDir, out } = readFolders(input);
  const { competition, onFork } = readChoices(input);
  const cost = readCostInputs(input, agents);
  const { roster } = readRosterInput(input, agents);
  const { routingMatrix, acceptDrift } = readMatrixAndDrift(input, {
    firstAgent: agentNames[0],
    maxCostUsd: cost.maxCostUsd,
    mode,
  });
  const own = ownModelInputs(agentNames, { models, ...(model === undefined ? {} : { model }) });
  const githubToken = input.optional(Inputs.GithubToken);
  const memory = readMemoryInput(input.raw(Inputs.Memory));
  return {
    install,
    ...(agents === undefined ? {} : { agents }),
    ...modelFields(agents, own.models, own.model),
    runs: input.numeric(Inputs.Runs),
    timeoutSeconds: input.numeric(Inputs.Timeout),
    skills,
    skillsAll: input.boolean(Inputs.SkillsAll),
    evals,
    baseline,
    failOnRegression: input.boolean(Inputs.FailOnRegression),
    comment: input.boolean(Inputs.Comment),
    allowConflict: input.boolean(Inputs.AllowConflict),
    allowPullRequestTarget: input.boolean(Inputs.AllowPullRequestTarget),
    onFork,
    ...(githubToken === undefined ? {} : { githubToken }),
    out,
    mode,
    acceptDrift,
    ...(shard === undefined ? {} : { shard }),
    resultsDir,
    competition,
    crossNegatives: input.boolean(Inputs.CrossNegatives),
    lateTurns: input.numeric(Inputs.Late),
    ...(cost.contextFill === undefined ? {} : { contextFill: cost.contextFill }),
    ...(cost.context === undefined ? {} : { context: cost.context }),
    versusFresh: cost.versusFresh,
    ...(roster === undefined ? {} : { roster }),
    ...(memory === undefined ? {} : { memory }),
    ...(cost.prices === undefined ? {} : { prices: cost.prices }),
    ...(cost.maxCostUsd === undefined ? {} : { maxCostUsd: cost.maxCostUsd }),
    routingMatrix,
  };
}
