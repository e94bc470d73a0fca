import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLoopback, readBody } from './loopback.js';

/**
 * A loopback fake of the slice of the GitHub REST API the Action uses: issue comments (list with
 * real pagination, create, update), issues (list, create, update: the drift issue), pull-request
 * files (paginated) and `GET /user`.
 *
 * Behaviour copied from the real REST API:
 * - `Authorization: token <t>` or `Bearer <t>`; an unknown token is 401 "Bad credentials".
 * - An installation token (the Actions `GITHUB_TOKEN`) gets 403 "Resource not accessible by
 *   integration" on `GET /user`; a read-only one (a fork PR's token) gets the same on every write.
 * - Pagination: `per_page` (default 30, max 100) and `page`, with a `Link` header carrying
 *   `rel="next"`, `"last"`, `"first"`, `"prev"` as absolute URLs; the files list stops at 3000.
 * - A comment body over 65536 characters is 422 "Validation Failed" with the error message
 *   "Body is too long (maximum is 65536 characters)".
 * - Errors are JSON `{message, documentation_url, status}`.
 * - Issues: the list (`state` open by default, `sort`/`direction` created desc by default,
 *   `creator`) holds the pull requests too, each with a `pull_request` field, as GitHub's does; a
 *   pull request and an issue share one number sequence. An issue without `title` is 422; a body
 *   over 65536 characters is 422 "Body is too long"; with issues turned off every issues call is
 *   410 "Issues are disabled for this repo".
 */

export type GitHubRoute =
  | 'get-user'
  | 'list-comments'
  | 'create-comment'
  | 'update-comment'
  | 'list-files'
  | 'list-issues'
  | 'create-issue'
  | 'update-issue';

export interface FakeUser {
  login: string;
  id: number;
  type: 'User' | 'Bot';
}

export interface FakeTokenOptions {
  login: string;
  /** Default `User`; the Actions token is `github-actions[bot]`, a `Bot`. */
  type?: 'User' | 'Bot';
  /** A GitHub App installation token (like `GITHUB_TOKEN`): `GET /user` is 403. */
  installation?: boolean;
  /** Writes are 403 "Resource not accessible by integration" (a fork PR's token). */
  readOnly?: boolean;
}

export interface SeedComment {
  issueNumber: number;
  login: string;
  type?: 'User' | 'Bot';
  body: string;
}

export interface FakeComment {
  id: number;
  issueNumber: number;
  user: FakeUser;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  stateReason: 'completed' | 'not_planned' | 'reopened' | null;
  user: FakeUser;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export interface SeedIssue {
  title: string;
  body: string;
  login: string;
  type?: 'User' | 'Bot';
  state?: 'open' | 'closed';
}

export interface FakePullFile {
  filename: string;
  status: 'added' | 'modified' | 'removed' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  previousFilename?: string;
}

export interface GitHubApiOptions {
  owner?: string;
  repo?: string;
  /** Token → identity. */
  tokens: Record<string, FakeTokenOptions>;
  comments?: SeedComment[];
  /** Pull request number → its changed files, in order. Each is an open pull request in the issues list. */
  pullFiles?: Record<number, FakePullFile[]>;
  issues?: SeedIssue[];
  /** The repository has issues turned off: every issues call is 410. */
  issuesDisabled?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  route: GitHubRoute | 'unknown';
  /** The token the request carried, if any. */
  token?: string;
  /** Parsed JSON body, if any. */
  body?: unknown;
  status: number;
}

export interface GitHubFault {
  /** How many of the next requests to the route fail (default 1). */
  times?: number;
  status: number;
  message?: string;
  /** Do the work first, then answer with the fault (a write that succeeded behind a 502). */
  afterEffect?: boolean;
}

export interface GitHubApiFake {
  /** `http://127.0.0.1:<port>` (no trailing slash, like `GITHUB_API_URL`). */
  readonly url: string;
  readonly owner: string;
  readonly repo: string;
  readonly requests: readonly RecordedRequest[];
  /** `GITHUB_API_URL` and `GITHUB_REPOSITORY`. (Do not point `GITHUB_SERVER_URL` at loopback: it makes @actions/cache use v1.) */
  env(): Record<string, string>;
  /** The comments of an issue (or all), oldest first. */
  comments(issueNumber?: number): FakeComment[];
  addComment(seed: SeedComment): FakeComment;
  /** The repository's issues (not its pull requests), by number. */
  issues(): FakeIssue[];
  addIssue(seed: SeedIssue): FakeIssue;
  /** Fail the next `times` requests to `route` with `status`. */
  failNext(route: GitHubRoute, fault: GitHubFault): void;
  /** Forget recorded requests. */
  clearRequests(): void;
  close(): Promise<void>;
}

const MAX_BODY = 65_536;
const MAX_FILES = 3000;
const DOCS = 'https://docs.github.com/rest';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveInt(value: string | null, fallback: number): number {
  if (value === null) return fallback;
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export async function startGitHubApi(opts: GitHubApiOptions): Promise<GitHubApiFake> {
  const owner = opts.owner ?? 'octo-org';
  const repo = opts.repo ?? 'skills';
  const requests: RecordedRequest[] = [];
  const comments: FakeComment[] = [];
  const faults = new Map<GitHubRoute, { remaining: number; fault: GitHubFault }[]>();
  const users = new Map<string, FakeUser>();
  let nextCommentId = 1_000_001;
  const issues: FakeIssue[] = [];
  const pullNumbers = Object.keys(opts.pullFiles ?? {}).map(Number);
  let clock = Date.parse('2026-01-01T00:00:00Z');
  let baseUrl = '';

  const userFor = (login: string, type: 'User' | 'Bot' = 'User'): FakeUser => {
    const known = users.get(login);
    if (known) return known;
    const user: FakeUser = { login, id: 100 + users.size, type };
    users.set(login, user);
    return user;
  };
  const tick = (): string => {
    clock += 1000;
    return new Date(clock).toISOString();
  };

  const addComment = (seed: SeedComment): FakeComment => {
    const at = tick();
    const comment: FakeComment = {
      id: nextCommentId++,
      issueNumber: seed.issueNumber,
      user: userFor(seed.login, seed.type),
      body: seed.body,
      createdAt: at,
      updatedAt: at,
    };
    comments.push(comment);
    return comment;
  };
  for (const [, token] of Object.entries(opts.tokens)) userFor(token.login, token.type);
  for (const seed of opts.comments ?? []) addComment(seed);

  // One number sequence for pull requests and issues, after every number a test has used.
  const nextIssueNumber = (): number =>
    1 + Math.max(0, ...pullNumbers, ...issues.map((i) => i.number), ...comments.map((c) => c.issueNumber));
  const addIssue = (seed: SeedIssue): FakeIssue => {
    const at = tick();
    const closed = seed.state === 'closed';
    const issue: FakeIssue = {
      number: nextIssueNumber(),
      title: seed.title,
      body: seed.body,
      state: closed ? 'closed' : 'open',
      stateReason: closed ? 'completed' : null,
      user: userFor(seed.login, seed.type),
      createdAt: at,
      updatedAt: at,
      closedAt: closed ? at : null,
    };
    issues.push(issue);
    return issue;
  };
  for (const seed of opts.issues ?? []) addIssue(seed);

  const repoPath = `/repos/${owner}/${repo}`;
  const commentJson = (c: FakeComment): Record<string, unknown> => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${baseUrl}${repoPath}/issues/comments/${c.id}`,
    html_url: `https://github.com/${owner}/${repo}/pull/${c.issueNumber}#issuecomment-${c.id}`,
    issue_url: `${baseUrl}${repoPath}/issues/${c.issueNumber}`,
    body: c.body,
    user: { login: c.user.login, id: c.user.id, type: c.user.type, site_admin: false },
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    author_association: c.user.type === 'Bot' ? 'NONE' : 'MEMBER',
  });

  const issueJson = (i: FakeIssue): Record<string, unknown> => ({
    id: 5_000_000 + i.number,
    node_id: `I_${i.number}`,
    number: i.number,
    url: `${baseUrl}${repoPath}/issues/${i.number}`,
    html_url: `https://github.com/${owner}/${repo}/issues/${i.number}`,
    title: i.title,
    body: i.body,
    state: i.state,
    state_reason: i.stateReason,
    user: { login: i.user.login, id: i.user.id, type: i.user.type, site_admin: false },
    labels: [],
    comments: comments.filter((c) => c.issueNumber === i.number).length,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_at: i.closedAt,
    author_association: i.user.type === 'Bot' ? 'NONE' : 'MEMBER',
  });
  const pullAsIssueJson = (n: number): Record<string, unknown> => ({
    id: 6_000_000 + n,
    number: n,
    html_url: `https://github.com/${owner}/${repo}/pull/${n}`,
    title: `Pull request ${n}`,
    body: null,
    state: 'open',
    state_reason: null,
    user: { login: 'octocat', id: 1, type: 'User', site_admin: false },
    created_at: '2025-12-31T00:00:00Z',
    updated_at: '2025-12-31T00:00:00Z',
    closed_at: null,
    pull_request: { url: `${baseUrl}${repoPath}/pulls/${n}` },
  });

  const takeFault = (route: GitHubRoute): GitHubFault | undefined => {
    const queue = faults.get(route);
    const head = queue?.[0];
    if (!queue || !head) return undefined;
    head.remaining -= 1;
    if (head.remaining <= 0) queue.shift();
    return head.fault;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: `fake GitHub API crashed: ${String(error)}` }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const raw = (await readBody(req)).toString('utf8');
    const auth = req.headers.authorization ?? '';
    const token = /^(?:token|bearer)\s+(\S+)$/i.exec(auth)?.[1];
    const record: RecordedRequest = {
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      route: 'unknown',
      status: 0,
      ...(token === undefined ? {} : { token }),
    };
    requests.push(record);

    let pending: GitHubFault | undefined;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      if (pending && status < 400) {
        const fault = pending;
        pending = undefined;
        fail(fault.status, fault.message ?? `injected fault (${fault.status})`);
        return;
      }
      record.status = status;
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const fail = (status: number, message: string, extra: Record<string, unknown> = {}): void =>
      send(status, { message, documentation_url: DOCS, status: String(status), ...extra });

    if (raw.length > 0) {
      try {
        record.body = JSON.parse(raw);
      } catch {
        fail(400, 'Problems parsing JSON');
        return;
      }
    }

    const listComments = new RegExp(`^${repoPath}/issues/(\\d+)/comments$`).exec(path);
    const oneComment = new RegExp(`^${repoPath}/issues/comments/(\\d+)$`).exec(path);
    const listFiles = new RegExp(`^${repoPath}/pulls/(\\d+)/files$`).exec(path);
    const issuesPath = path === `${repoPath}/issues`;
    const oneIssue = new RegExp(`^${repoPath}/issues/(\\d+)$`).exec(path);
    let route: GitHubRoute | 'unknown' = 'unknown';
    if (method === 'GET' && path === '/user') route = 'get-user';
    else if (listComments && method === 'GET') route = 'list-comments';
    else if (listComments && method === 'POST') route = 'create-comment';
    else if (oneComment && method === 'PATCH') route = 'update-comment';
    else if (listFiles && method === 'GET') route = 'list-files';
    else if (issuesPath && method === 'GET') route = 'list-issues';
    else if (issuesPath && method === 'POST') route = 'create-issue';
    else if (oneIssue && method === 'PATCH') route = 'update-issue';
    record.route = route;

    if (route === 'unknown') {
      fail(404, 'Not Found');
      return;
    }
    const fault = takeFault(route);
    if (fault && !fault.afterEffect) {
      fail(fault.status, fault.message ?? `injected fault (${fault.status})`);
      return;
    }
    pending = fault;
    const identity = token === undefined ? undefined : opts.tokens[token];
    if (!identity) {
      fail(401, 'Bad credentials');
      return;
    }
    const issueRoute = route === 'list-issues' || route === 'create-issue' || route === 'update-issue';
    if (issueRoute && opts.issuesDisabled) {
      fail(410, 'Issues are disabled for this repo');
      return;
    }
    const write =
      route === 'create-comment' ||
      route === 'update-comment' ||
      route === 'create-issue' ||
      route === 'update-issue';
    if (write && identity.readOnly) {
      fail(403, 'Resource not accessible by integration');
      return;
    }

    const page = positiveInt(url.searchParams.get('page'), 1);
    const perPage = Math.min(positiveInt(url.searchParams.get('per_page'), 30), 100);
    const paginate = <T>(all: readonly T[]): { items: T[]; headers: Record<string, string> } => {
      const last = Math.max(1, Math.ceil(all.length / perPage));
      const link = (p: number): string => {
        const next = new URL(`${baseUrl}${path}`);
        for (const [k, v] of url.searchParams) next.searchParams.set(k, v);
        next.searchParams.set('per_page', String(perPage));
        next.searchParams.set('page', String(p));
        return next.href;
      };
      const rels: string[] = [];
      if (page > 1) rels.push(`<${link(page - 1)}>; rel="prev"`);
      if (page < last) rels.push(`<${link(page + 1)}>; rel="next"`, `<${link(last)}>; rel="last"`);
      if (page > 1) rels.push(`<${link(1)}>; rel="first"`);
      return {
        items: all.slice((page - 1) * perPage, page * perPage),
        headers: rels.length > 0 ? { Link: rels.join(', ') } : {},
      };
    };

    const commentBody = (resource = 'IssueComment'): string | undefined => {
      const body = isRecord(record.body) ? record.body.body : undefined;
      if (typeof body !== 'string') {
        fail(422, 'Invalid request.\n\n"body" wasn\'t supplied.');
        return undefined;
      }
      // GitHub counts characters (code points), not UTF-16 units.
      if ([...body].length > MAX_BODY) {
        fail(422, 'Validation Failed', {
          errors: [
            {
              resource,
              code: 'custom',
              field: 'body',
              message: `Body is too long (maximum is ${MAX_BODY} characters)`,
            },
          ],
        });
        return undefined;
      }
      return body;
    };

    switch (route) {
      case 'get-user': {
        if (identity.installation) {
          fail(403, 'Resource not accessible by integration');
          return;
        }
        const user = userFor(identity.login, identity.type);
        send(200, { login: user.login, id: user.id, type: user.type });
        return;
      }
      case 'list-comments': {
        const issue = Number(listComments?.[1]);
        const { items, headers } = paginate(comments.filter((c) => c.issueNumber === issue));
        send(200, items.map(commentJson), headers);
        return;
      }
      case 'create-comment': {
        const body = commentBody();
        if (body === undefined) return;
        const comment = addComment({
          issueNumber: Number(listComments?.[1]),
          login: identity.login,
          ...(identity.type ? { type: identity.type } : {}),
          body,
        });
        send(201, commentJson(comment), { Location: `${baseUrl}${repoPath}/issues/comments/${comment.id}` });
        return;
      }
      case 'update-comment': {
        const comment = comments.find((c) => c.id === Number(oneComment?.[1]));
        if (!comment) {
          fail(404, 'Not Found');
          return;
        }
        const body = commentBody();
        if (body === undefined) return;
        comment.body = body;
        comment.updatedAt = tick();
        send(200, commentJson(comment));
        return;
      }
      case 'list-issues': {
        const state = url.searchParams.get('state') ?? 'open';
        const creator = url.searchParams.get('creator');
        const by = url.searchParams.get('sort') === 'updated' ? 'updatedAt' : 'createdAt';
        const asc = url.searchParams.get('direction') === 'asc';
        const listed = [
          ...issues
            .filter((i) => state === 'all' || i.state === state)
            .filter((i) => creator === null || i.user.login === creator)
            .map((i) => ({ at: i[by], number: i.number, json: issueJson(i) })),
          ...(state === 'closed' || creator !== null
            ? []
            : pullNumbers.map((n) => ({ at: '2025-12-31T00:00:00Z', number: n, json: pullAsIssueJson(n) }))),
        ].sort((a, b) => (a.at === b.at ? a.number - b.number : a.at < b.at ? -1 : 1) * (asc ? 1 : -1));
        const { items, headers } = paginate(listed.map((x) => x.json));
        send(200, items, headers);
        return;
      }
      case 'create-issue': {
        const title = isRecord(record.body) ? record.body.title : undefined;
        if (typeof title !== 'string' || title === '') {
          fail(422, 'Validation Failed', {
            errors: [{ resource: 'Issue', code: 'missing_field', field: 'title' }],
          });
          return;
        }
        const body = commentBody('Issue');
        if (body === undefined) return;
        const issue = addIssue({
          title,
          body,
          login: identity.login,
          ...(identity.type ? { type: identity.type } : {}),
        });
        send(201, issueJson(issue), { Location: `${baseUrl}${repoPath}/issues/${issue.number}` });
        return;
      }
      case 'update-issue': {
        const issue = issues.find((i) => i.number === Number(oneIssue?.[1]));
        if (!issue) {
          fail(404, 'Not Found');
          return;
        }
        const patch = isRecord(record.body) ? record.body : {};
        if (patch.body !== undefined) {
          const body = commentBody('Issue');
          if (body === undefined) return;
          issue.body = body;
        }
        if (typeof patch.title === 'string') issue.title = patch.title;
        issue.updatedAt = tick();
        if (patch.state === 'closed' && issue.state === 'open') {
          issue.state = 'closed';
          issue.closedAt = issue.updatedAt;
          issue.stateReason = patch.state_reason === 'not_planned' ? 'not_planned' : 'completed';
        } else if (patch.state === 'open' && issue.state === 'closed') {
          issue.state = 'open';
          issue.closedAt = null;
          issue.stateReason = 'reopened';
        }
        send(200, issueJson(issue));
        return;
      }
      case 'list-files': {
        const files = (opts.pullFiles?.[Number(listFiles?.[1])] ?? []).slice(0, MAX_FILES);
        const { items, headers } = paginate(files);
        send(
          200,
          items.map((f, i) => ({
            sha: (i + 1).toString(16).padStart(40, '0'),
            filename: f.filename,
            status: f.status,
            additions: 1,
            deletions: f.status === 'added' ? 0 : 1,
            changes: f.status === 'added' ? 1 : 2,
            blob_url: `https://github.com/${owner}/${repo}/blob/head/${f.filename}`,
            raw_url: `https://github.com/${owner}/${repo}/raw/head/${f.filename}`,
            contents_url: `${baseUrl}${repoPath}/contents/${f.filename}`,
            ...(f.previousFilename === undefined ? {} : { previous_filename: f.previousFilename }),
          })),
          headers,
        );
        return;
      }
    }
  }

  const listening = await listenLoopback(server, 'fake GitHub API');
  baseUrl = `http://127.0.0.1:${listening.port}`;

  return {
    url: baseUrl,
    owner,
    repo,
    requests,
    env: () => ({ GITHUB_API_URL: baseUrl, GITHUB_REPOSITORY: `${owner}/${repo}` }),
    comments: (issueNumber) =>
      comments
        .filter((c) => issueNumber === undefined || c.issueNumber === issueNumber)
        .map((c) => ({ ...c })),
    addComment,
    issues: () => issues.map((i) => ({ ...i, user: { ...i.user } })),
    addIssue,
    failNext(route, fault) {
      const queue = faults.get(route) ?? [];
      queue.push({ remaining: fault.times ?? 1, fault });
      faults.set(route, queue);
    },
    clearRequests() {
      requests.length = 0;
    },
    close: listening.close,
  };
}
