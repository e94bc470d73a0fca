import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { UsageError } from '../errors.js';

/**
 * What the runner tells the step: the event (from the payload file at GITHUB_EVENT_PATH, parsed
 * from `unknown`) and the runner's variables. The only module that reads the `GITHUB_*`/`RUNNER_*`
 * environment.
 */

/** The event, reduced to what decides which skills are measured and where the result goes. */
export type ActionEvent =
  | {
      kind: 'pull_request';
      /** `pull_request` or `pull_request_target`. */
      name: string;
      number: number;
      baseSha: string;
      headSha: string;
      baseRef: string;
      /**
       * The head branch lives in another repository. On `pull_request` such a run gets no secrets
       * and a read-only token (GitHub withholds them from forks), so nothing is posted to the PR.
       */
      fromFork: boolean;
    }
  | {
      kind: 'push';
      ref: string;
      /** The commit before the push; absent for a new branch (all zeros) or when not given. */
      before?: string;
      after: string;
      onDefaultBranch: boolean;
      defaultBranch?: string;
    }
  | {
      /** `workflow_dispatch`, `schedule`, …: treated as a push of the checked-out commit with every skill. */
      kind: 'other';
      name: string;
      onDefaultBranch: boolean;
      defaultBranch?: string;
    };

export interface RunnerContext {
  event: ActionEvent;
  /** `owner/repo`. */
  owner: string;
  repo: string;
  /** GITHUB_SHA: the commit the workflow runs on (a PR's merge commit). */
  sha?: string;
  ref?: string;
  /** The checked-out repository. */
  workspace: string;
  /** `Linux`, `macOS`, `Windows` (a cache key part). */
  runnerOs: string;
  arch: string;
  /** Scratch space emptied after the job (RUNNER_TEMP), else the OS temp dir. */
  runnerTemp?: string;
  /** SKILLTRIGGER_SIMULATED=1: runs are answered by the simulated model (tests, demos); reports say so. */
  simulated: boolean;
  /** GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT (digits only): name a drift run's baseline refresh. */
  runId?: string;
  runAttempt?: string;
}

const ZERO_SHA = /^0+$/;
const sha = z.string().regex(/^[0-9a-fA-F]{7,64}$/);

const repository = z.object({
  full_name: z.string().optional(),
  default_branch: z.string().optional(),
  fork: z.boolean().optional(),
});

const pullRequestPayload = z.object({
  pull_request: z.object({
    number: z.number().int().positive(),
    base: z.object({ sha, ref: z.string(), repo: repository.nullable().optional() }),
    head: z.object({ sha, ref: z.string().optional(), repo: repository.nullable().optional() }),
  }),
  repository: repository.optional(),
});

const pushPayload = z.object({
  ref: z.string(),
  before: z.string().optional(),
  after: sha,
  repository: repository.optional(),
});

const otherPayload = z.object({ repository: repository.optional() }).loose();

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/** Turns an event name and its payload (as parsed JSON) into an ActionEvent; a payload of the wrong shape is a UsageError. */
export function parseEvent(name: string, payload: unknown, ref: string | undefined): ActionEvent {
  if (name === 'pull_request' || name === 'pull_request_target') {
    const parsed = pullRequestPayload.safeParse(payload);
    if (!parsed.success) {
      throw new UsageError(
        `the ${name} event payload is not shaped like a pull request event (${describeIssues(parsed.error)})`,
      );
    }
    const pr = parsed.data.pull_request;
    const baseRepo = pr.base.repo?.full_name ?? parsed.data.repository?.full_name;
    const headRepo = pr.head.repo?.full_name;
    // A deleted fork has `head.repo: null`: it came from elsewhere all the same.
    const fromFork =
      pr.head.repo === null ||
      pr.head.repo?.fork === true ||
      (headRepo !== undefined && baseRepo !== undefined && headRepo !== baseRepo);
    return {
      kind: 'pull_request',
      name,
      number: pr.number,
      baseSha: pr.base.sha,
      headSha: pr.head.sha,
      baseRef: pr.base.ref,
      fromFork,
    };
  }
  if (name === 'push') {
    const parsed = pushPayload.safeParse(payload);
    if (!parsed.success) {
      throw new UsageError(
        `the push event payload is not shaped like a push event (${describeIssues(parsed.error)})`,
      );
    }
    const { ref: pushed, before, after, repository: repo } = parsed.data;
    const defaultBranch = repo?.default_branch;
    const beforeSha = before !== undefined && sha.safeParse(before).success && !ZERO_SHA.test(before);
    return {
      kind: 'push',
      ref: pushed,
      ...(beforeSha && before !== undefined ? { before } : {}),
      after,
      onDefaultBranch: defaultBranch !== undefined && pushed === `refs/heads/${defaultBranch}`,
      ...(defaultBranch === undefined ? {} : { defaultBranch }),
    };
  }
  const parsed = otherPayload.safeParse(payload);
  const defaultBranch = parsed.success ? parsed.data.repository?.default_branch : undefined;
  return {
    kind: 'other',
    name,
    onDefaultBranch: defaultBranch !== undefined && ref === `refs/heads/${defaultBranch}`,
    ...(defaultBranch === undefined ? {} : { defaultBranch }),
  };
}

/** Reads the runner's variables and the event payload. */
export async function readRunnerContext(env: NodeJS.ProcessEnv = process.env): Promise<RunnerContext> {
  const eventName = env.GITHUB_EVENT_NAME;
  if (!eventName) {
    throw new UsageError(
      'GITHUB_EVENT_NAME is not set: skilltrigger runs as a step of a GitHub Actions workflow (use the CLI elsewhere)',
    );
  }
  const [owner, repo, ...rest] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (!owner || !repo || rest.length > 0) {
    throw new UsageError(
      `GITHUB_REPOSITORY must be owner/repo, got ${JSON.stringify(env.GITHUB_REPOSITORY)}`,
    );
  }
  let payload: unknown = {};
  const eventPath = env.GITHUB_EVENT_PATH;
  if (eventPath) {
    let text: string;
    try {
      text = await readFile(eventPath, 'utf8');
    } catch (error) {
      throw new UsageError(
        `cannot read the event payload at GITHUB_EVENT_PATH ${eventPath}: ${String(error)}`,
      );
    }
    try {
      payload = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`the event payload at ${eventPath} is not JSON: ${String(error)}`);
    }
  }
  const ref = env.GITHUB_REF || undefined;
  return {
    event: parseEvent(eventName, payload, ref),
    owner,
    repo,
    ...(env.GITHUB_SHA ? { sha: env.GITHUB_SHA } : {}),
    ...(ref === undefined ? {} : { ref }),
    workspace: env.GITHUB_WORKSPACE || process.cwd(),
    runnerOs: env.RUNNER_OS || process.platform,
    arch: process.arch,
    ...(env.RUNNER_TEMP ? { runnerTemp: env.RUNNER_TEMP } : {}),
    simulated: env.SKILLTRIGGER_SIMULATED === '1',
    ...(/^\d+$/.test(env.GITHUB_RUN_ID ?? '') ? { runId: env.GITHUB_RUN_ID } : {}),
    ...(/^\d+$/.test(env.GITHUB_RUN_ATTEMPT ?? '') ? { runAttempt: env.GITHUB_RUN_ATTEMPT } : {}),
  };
}
