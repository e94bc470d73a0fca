import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type Script,
  type SimulatedModel,
  type SimulatedModelOptions,
  startSimulatedModel,
} from '../../src/simulated/model.js';
import { type ActionResult, GitRepo } from '../action/harness.js';
import { type CacheServiceFake, startCacheService } from './cache-service.js';
import { type FakeTokenOptions, type GitHubApiFake, startGitHubApi } from './github-api.js';

/**
 * What every end-to-end test of the bundled Action sets up, once per file: a scratch folder with a
 * throwaway HOME, TMPDIR and RUNNER_TEMP, a real git repository, the simulated model the real
 * `claude` talks to, and the loopback fakes of the GitHub REST API and the cache service; then the
 * runner's environment built from them. The scenario's own parts (commits, scripts, inputs) stay
 * in its test file.
 */
export interface ActionWorld {
  work: string;
  home: string;
  runnerTemp: string;
  repo: GitRepo;
  model: SimulatedModel;
  github: GitHubApiFake;
  cache: CacheServiceFake;
  /**
   * The step's environment as a Linux runner gives it: PATH and LANG from this process, nothing
   * else of it (no real HOME, no real key), the fakes' URLs, SKILLTRIGGER_SIMULATED=1.
   */
  env(extra?: Record<string, string>): Record<string, string>;
  /** A new job on the same runner: RUNNER_TEMP emptied, the workspace's cache and results gone. */
  freshJob(): Promise<void>;
  close(): Promise<void>;
}

export interface ActionWorldOptions {
  /** Names the scratch folder (`skilltrigger-<name>-…`). */
  name: string;
  script: Script;
  seed?: number;
  /** The tokens the GitHub fake accepts. */
  tokens: Record<string, FakeTokenOptions>;
  model?: Omit<SimulatedModelOptions, 'script' | 'seed'>;
  /** The repository's folder inside the scratch folder, as a runner lays it out (default `repo`). */
  repoDir?: string;
  /**
   * Whether the step's environment names the cache fake (default true). Off for a job whose
   * ACTIONS_RESULTS_URL and ACTIONS_RUNTIME_TOKEN are another service's (the artifact fake's), or unset.
   */
  cacheEnv?: boolean;
}

export async function startActionWorld(opts: ActionWorldOptions): Promise<ActionWorld> {
  const work = await mkdtemp(path.join(tmpdir(), `skilltrigger-${opts.name}-`));
  const home = path.join(work, 'home');
  const runnerTemp = path.join(work, 'runner-temp');
  await mkdir(home);
  await mkdir(path.join(work, 'tmp'));
  await mkdir(runnerTemp);
  const repo = await GitRepo.create(path.join(work, opts.repoDir ?? 'repo'));
  const model = await startSimulatedModel({ ...opts.model, seed: opts.seed ?? 1, script: opts.script });
  const github = await startGitHubApi({ tokens: opts.tokens });
  const cache = await startCacheService();
  return {
    work,
    home,
    runnerTemp,
    repo,
    model,
    github,
    cache,
    env(extra = {}) {
      const inherited: Record<string, string> = {};
      for (const name of ['PATH', 'LANG']) {
        const value = process.env[name];
        if (value !== undefined) inherited[name] = value;
      }
      return {
        ...inherited,
        HOME: home,
        TMPDIR: path.join(work, 'tmp'),
        ...github.env(),
        ...(opts.cacheEnv === false ? {} : cache.env()),
        GITHUB_SHA: repo.git('rev-parse', 'HEAD'),
        GITHUB_REF: 'refs/heads/main',
        RUNNER_OS: 'Linux',
        RUNNER_ARCH: 'X64',
        RUNNER_TEMP: runnerTemp,
        ANTHROPIC_BASE_URL: model.url,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        SKILLTRIGGER_SIMULATED: '1',
        ...extra,
      };
    },
    async freshJob() {
      await rm(runnerTemp, { recursive: true, force: true });
      await mkdir(runnerTemp, { recursive: true });
      await rm(path.join(repo.dir, '.skilltrigger-cache'), { recursive: true, force: true });
      await rm(path.join(repo.dir, 'skilltrigger-results'), { recursive: true, force: true });
    },
    async close() {
      await model.close();
      await github.close();
      await cache.close();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/** A run's whole log, for an assertion's message. */
export function actionLog(result: ActionResult): string {
  return `exit ${result.code}\n--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}\n--- summary ---\n${result.summary}`;
}

/** The `verdicts` output, parsed (a value of another shape fails the test). */
export function actionVerdicts(result: ActionResult): Record<string, unknown> {
  const parsed: unknown = JSON.parse(result.outputs.verdicts ?? '{}');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`verdicts is not an object: ${result.outputs.verdicts}`);
  }
  return Object.fromEntries(Object.entries(parsed));
}
