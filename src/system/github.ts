import { setTimeout as sleep } from 'node:timers/promises';
import { getOctokit } from '@actions/github';
import { composeStickyBody, isStale, STAMP_SHA, shaStamp, stickyMarker } from './github-comment.js';
import { classifyFailure, errorMessage, errorStatus, type GitHubFailure } from './github-failure.js';

// The failure type is part of every result this module returns; its callers import it from here.
export type { GitHubFailure } from './github-failure.js';

/**
 * The only module that talks to GitHub (through `@actions/github`'s Octokit).
 *
 * Every call returns a `GitHubResult` instead of throwing; failures are classified so the caller can
 * act on them:
 * - `forbidden` (401/403/404): a fork PR's read-only token ("Resource not accessible by
 *   integration"), a missing permission or a wrong repo. Fall back to the job summary; never fail
 *   the job over a comment.
 * - `too-large` (422 "Body is too long"): should not happen, bodies are capped first.
 * - `unavailable`: 5xx or no answer, after `retries` retries with doubling back-off; or a rate limit.
 * - `rejected`: any other refusal (e.g. another 422).
 *
 * A whole operation is retried, not a single request: after a 502 on "create comment" the comment
 * may exist anyway, and re-reading the comments before writing again keeps it to one comment.
 */

/** `pulls.listFiles` returns at most this many files; a PR with more is cut silently by GitHub. */
export const MAX_PR_FILES = 3000;
/** Comments by this login are preferred when the token cannot say who it is (`GITHUB_TOKEN`). */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

export type GitHubResult<T> = { ok: true; value: T } | { ok: false; error: GitHubFailure };

export interface RetryPolicy {
  /** Retries after the first attempt, for 5xx and network failures (default 3). */
  retries?: number;
  /** The first back-off; it doubles at each retry (default 1000 ms). */
  delayMs?: number;
  /** Each attempt's time limit, all pages included (default 60 s). */
  timeoutMs?: number;
}

export interface GitHubConnection {
  token: string;
  /** The REST API root, e.g. the fake's URL. Default: `GITHUB_API_URL`, else https://api.github.com. */
  baseUrl?: string;
  retry?: RetryPolicy;
}

export interface StickyCommentOptions extends GitHubConnection {
  owner: string;
  repo: string;
  issueNumber: number;
  /** Names this comment among others of the tool (e.g. per shard); becomes `<!-- skilltrigger:<marker> -->`. */
  marker: string;
  /** The Markdown to show. Capped with a visible note when the whole comment would exceed the limit. */
  body: string;
  /** The head commit this report is for; recorded so an older run cannot overwrite a newer one. */
  headSha?: string;
  /**
   * What orders two runs of different heads. Default: when this process started (a run for a newer
   * push starts later). A caller that knows the head commit's date may pass that instead.
   */
  headTime?: Date;
  /** The login that authors the comment, if known; otherwise asked of `GET /user`. */
  login?: string;
  /** Replaces the default truncation note (`{dropped}` becomes the number of characters left out). */
  truncationNote?: string;
}

export interface StickyComment {
  id: number;
  url: string;
  action: 'created' | 'updated' | 'skipped-stale';
}

export interface ChangedFile {
  filename: string;
  status: 'added' | 'modified' | 'removed' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  /** The old path of a renamed (or copied) file. */
  previousFilename?: string;
}

export interface ChangedFilesOptions extends GitHubConnection {
  owner: string;
  repo: string;
  pullNumber: number;
}

type Octokit = ReturnType<typeof getOctokit>;

// ---------------------------------------------------------------------------------------------
// Retries (what a failure means is github-failure.ts)

async function withGitHub<T>(
  conn: GitHubConnection,
  operation: (octokit: Octokit, signal: AbortSignal) => Promise<T>,
): Promise<GitHubResult<T>> {
  const retries = conn.retry?.retries ?? 3;
  const delayMs = conn.retry?.delayMs ?? 1000;
  const timeoutMs = conn.retry?.timeoutMs ?? 60_000;
  // Read at call time: @actions/github reads GITHUB_API_URL once, when it is first imported.
  const baseUrl = conn.baseUrl ?? (process.env.GITHUB_API_URL || undefined);
  let octokit: Octokit;
  try {
    octokit = getOctokit(conn.token, baseUrl === undefined ? {} : { baseUrl });
  } catch (error) {
    return { ok: false, error: { kind: 'forbidden', status: 401, message: errorMessage(error) } };
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await operation(octokit, AbortSignal.timeout(timeoutMs)) };
    } catch (error) {
      const { failure, retryable } = classifyFailure(error, attempt);
      if (!retryable || attempt > retries) return { ok: false, error: failure };
      await sleep(delayMs * 2 ** (attempt - 1));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Operations

/** The token's login, or undefined for an installation token (`GITHUB_TOKEN`), which may not ask. */
async function tokenLogin(octokit: Octokit, signal: AbortSignal): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated({ request: { signal } });
    return data.login;
  } catch (error) {
    if (errorStatus(error) === 403) return undefined;
    throw error;
  }
}

/** What finding ours reads of a comment or an issue. */
interface Authored {
  body?: string | null;
  user: { login: string; type: string } | null;
}

interface ListedComment extends Authored {
  id: number;
  html_url: string;
}

/**
 * Which existing comment (or issue) is ours: it carries the marker and is authored by the token's
 * login. When the login is unknown (an installation token), a Bot's, `github-actions[bot]` first.
 * Never a person's, even if it quotes the marker. The oldest wins, so duplicates converge.
 */
function pickOurs<T extends Authored>(comments: readonly T[], marker: string, login: string | undefined) {
  const marked = comments.filter((c) => c.body?.includes(marker));
  if (login !== undefined) return marked.find((c) => c.user?.login === login);
  const bots = marked.filter((c) => c.user?.type === 'Bot');
  return bots.find((c) => c.user?.login === ACTIONS_BOT_LOGIN) ?? bots[0];
}

function processStart(): Date {
  return new Date(Date.now() - process.uptime() * 1000);
}

/**
 * Create or update the one comment of this tool (and marker) on an issue or PR. All pages of
 * comments are read. See `isStale` for when an existing comment is left alone.
 */
export async function upsertStickyComment(opts: StickyCommentOptions): Promise<GitHubResult<StickyComment>> {
  const marker = stickyMarker(opts.marker);
  const headSha = opts.headSha !== undefined && STAMP_SHA.test(opts.headSha) ? opts.headSha : undefined;
  const headTime = opts.headTime ?? processStart();
  const body = composeStickyBody({
    marker: opts.marker,
    body: opts.body,
    ...(headSha === undefined ? {} : { stamp: shaStamp(headSha, headTime) }),
    ...(opts.truncationNote === undefined ? {} : { truncationNote: opts.truncationNote }),
  });
  const { owner, repo } = opts;

  return withGitHub(opts, async (octokit, signal) => {
    const login = opts.login ?? (await tokenLogin(octokit, signal));
    const comments: ListedComment[] = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: opts.issueNumber,
      per_page: 100,
      request: { signal },
    });
    const ours = pickOurs(comments, marker, login);
    if (ours && isStale(ours.body ?? '', headSha, headTime)) {
      return { id: ours.id, url: ours.html_url, action: 'skipped-stale' as const };
    }
    // Our comment is edited in place; without one, the first is written.
    const comment = { owner, repo, body, request: { signal } };
    const { data } = ours
      ? await octokit.rest.issues.updateComment({ ...comment, comment_id: ours.id })
      : await octokit.rest.issues.createComment({ ...comment, issue_number: opts.issueNumber });
    return { id: data.id, url: data.html_url, action: ours ? ('updated' as const) : ('created' as const) };
  });
}

/** The files a pull request changes (all pages; GitHub stops at 3000, see `MAX_PR_FILES`). */
export async function listChangedFiles(opts: ChangedFilesOptions): Promise<GitHubResult<ChangedFile[]>> {
  return withGitHub(opts, async (octokit, signal) => {
    const files = await octokit.paginate(octokit.rest.pulls.listFiles, {
      owner: opts.owner,
      repo: opts.repo,
      pull_number: opts.pullNumber,
      per_page: 100,
      request: { signal },
    });
    return files.map(
      (f): ChangedFile => ({
        filename: f.filename,
        status: f.status,
        ...(f.previous_filename === undefined ? {} : { previousFilename: f.previous_filename }),
      }),
    );
  });
}

export interface MarkedIssueOptions extends GitHubConnection {
  owner: string;
  repo: string;
  /** Names the issue among the repository's; becomes `<!-- skilltrigger:<marker> -->` in its body. */
  marker: string;
  /** The login that authors the issue, if known; otherwise asked of `GET /user`. */
  login?: string;
  /**
   * `open`: the open issue of this marker gets this title and body, or one is opened with them.
   * `closed`: the open one (if any) gets this body and is closed as completed; none open: nothing.
   */
  want:
    | {
        state: 'open';
        title: string;
        body: string;
        /** Update the open issue, but open none when there is none. */
        onlyIfOpen?: boolean;
      }
    | { state: 'closed'; body: string };
}

export interface MarkedIssue {
  action: 'created' | 'updated' | 'closed' | 'none';
  /** Absent when there was no issue to close. */
  number?: number;
  url?: string;
}

/** GitHub's limit for an issue title, in characters. */
export const MAX_ISSUE_TITLE_CHARS = 256;

/**
 * Keep the one open issue of a marker, as the sticky comment is kept on a PR: found among the open
 * issues (all pages; pull requests, which the same list returns, are left out) by its hidden
 * marker and its author, edited in place, opened when none is, closed on request.
 */
export async function syncMarkedIssue(opts: MarkedIssueOptions): Promise<GitHubResult<MarkedIssue>> {
  const marker = stickyMarker(opts.marker);
  const body = composeStickyBody({ marker: opts.marker, body: opts.want.body });
  const { owner, repo, want } = opts;
  return withGitHub(opts, async (octokit, signal) => {
    const login = opts.login ?? (await tokenLogin(octokit, signal));
    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner,
      repo,
      state: 'open',
      sort: 'created',
      direction: 'asc',
      per_page: 100,
      request: { signal },
    });
    const ours = pickOurs(
      issues.filter((i) => i.pull_request === undefined),
      marker,
      login,
    );
    if (want.state === 'closed') {
      if (!ours) return { action: 'none' as const };
      const { data } = await octokit.rest.issues.update({
        owner,
        repo,
        issue_number: ours.number,
        body,
        state: 'closed',
        state_reason: 'completed',
        request: { signal },
      });
      return { action: 'closed' as const, number: data.number, url: data.html_url };
    }
    if (!ours && want.onlyIfOpen) return { action: 'none' as const };
    const title = [...want.title].slice(0, MAX_ISSUE_TITLE_CHARS).join('');
    const { data } = ours
      ? await octokit.rest.issues.update({
          owner,
          repo,
          issue_number: ours.number,
          title,
          body,
          request: { signal },
        })
      : await octokit.rest.issues.create({ owner, repo, title, body, request: { signal } });
    return {
      action: ours ? ('updated' as const) : ('created' as const),
      number: data.number,
      url: data.html_url,
    };
  });
}
