import { afterEach, describe, expect, test } from 'vitest';
import {
  type GitHubResult,
  listChangedFiles,
  type MarkedIssueOptions,
  type StickyComment,
  syncMarkedIssue,
  upsertStickyComment,
} from '../../src/system/github.js';
import {
  composeStickyBody,
  isStale,
  MAX_COMMENT_CHARS,
  parseShaStamp,
  shaStamp,
  stickyMarker,
} from '../../src/system/github-comment.js';
import {
  type FakePullFile,
  type GitHubApiFake,
  type GitHubApiOptions,
  startGitHubApi,
} from '../fakes/github-api.js';

// The real @actions/github (Octokit) against the loopback fake of the REST API.

const BOT = 'github-actions[bot]';
const TOKENS: GitHubApiOptions['tokens'] = {
  'actions-token': { login: BOT, type: 'Bot', installation: true },
  'fork-token': { login: BOT, type: 'Bot', installation: true, readOnly: true },
  'pat-token': { login: 'release-robot', type: 'User' },
};
const SHA_OLD = '1'.repeat(40);
const SHA_NEW = '2'.repeat(40);
const FAST = { retries: 3, delayMs: 1 };

let fake: GitHubApiFake | undefined;

async function start(opts: Partial<GitHubApiOptions> = {}): Promise<GitHubApiFake> {
  fake = await startGitHubApi({ tokens: TOKENS, ...opts });
  return fake;
}

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function upsert(
  api: GitHubApiFake,
  extra: { body: string; token?: string; headSha?: string; headTime?: Date },
) {
  return upsertStickyComment({
    token: 'actions-token',
    baseUrl: api.url,
    owner: api.owner,
    repo: api.repo,
    issueNumber: 7,
    marker: 'report',
    retry: FAST,
    ...extra,
  });
}

function value<T>(result: GitHubResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${JSON.stringify(result.error)}`);
  return result.value;
}

describe('upsertStickyComment', () => {
  test('creates the comment once, then updates the same one in place', async () => {
    const api = await start();
    const first = value(await upsert(api, { body: 'run 1' }));
    expect(first.action).toBe('created');

    const second = value(await upsert(api, { body: 'run 2' }));
    expect(second).toEqual<StickyComment>({ id: first.id, url: first.url, action: 'updated' });
    const comments = api.comments(7);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toBe(`${stickyMarker('report')}\nrun 2`);
    expect(comments[0]?.user.login).toBe(BOT);
    // GITHUB_TOKEN may not ask GET /user: the fake says 403, as GitHub does.
    expect(api.requests.filter((r) => r.route === 'get-user').map((r) => r.status)).toEqual([403, 403]);
    expect(api.requests.every((r) => r.token === 'actions-token')).toBe(true);
  });

  test('finds its marker on page 3 of 3', async () => {
    const api = await start();
    for (let i = 0; i < 240; i++)
      api.addComment({ issueNumber: 7, login: `user${i % 5}`, body: `comment ${i}` });
    const ours = api.addComment({
      issueNumber: 7,
      login: BOT,
      type: 'Bot',
      body: `${stickyMarker('report')}\nold`,
    });
    for (let i = 0; i < 9; i++) api.addComment({ issueNumber: 7, login: 'late', body: `late ${i}` });

    const result = value(await upsert(api, { body: 'new' }));
    expect(result).toMatchObject({ id: ours.id, action: 'updated' });
    const pages = api.requests.filter((r) => r.route === 'list-comments').map((r) => r.query.page ?? '1');
    expect(pages).toEqual(['1', '2', '3']);
    expect(api.comments(7)).toHaveLength(250);
  });

  test("never edits other users' comments, even ones quoting the marker", async () => {
    const api = await start();
    const quoted = `> ${stickyMarker('report')}\n> quoted by a person`;
    const person = api.addComment({ issueNumber: 7, login: 'alice', body: quoted });
    const otherMarker = api.addComment({
      issueNumber: 7,
      login: BOT,
      type: 'Bot',
      body: stickyMarker('shard-2'),
    });

    const result = value(await upsert(api, { body: 'ours' }));
    expect(result.action).toBe('created');
    expect(result.id).not.toBe(person.id);
    expect(result.id).not.toBe(otherMarker.id);
    expect(api.comments(7).find((c) => c.id === person.id)?.body).toBe(quoted);
    expect(api.requests.some((r) => r.route === 'update-comment')).toBe(false);
  });

  test('with a token that knows its login, only that login counts', async () => {
    const api = await start();
    const botComment = api.addComment({
      issueNumber: 7,
      login: BOT,
      type: 'Bot',
      body: stickyMarker('report'),
    });
    const created = value(await upsert(api, { body: 'from a PAT', token: 'pat-token' }));
    expect(created.action).toBe('created');
    expect(created.id).not.toBe(botComment.id);
    const updated = value(await upsert(api, { body: 'again', token: 'pat-token' }));
    expect(updated).toMatchObject({ id: created.id, action: 'updated' });
  });

  test('caps the body below 65536 characters with a visible note, keeping the marker', async () => {
    const api = await start();
    const huge = `| query | rate |\n|---|---|\n${'| some query text here | 10/10 |\n'.repeat(3000)}`;
    expect(huge.length).toBeGreaterThan(MAX_COMMENT_CHARS);

    const result = value(await upsert(api, { body: huge, headSha: SHA_NEW, headTime: new Date() }));
    expect(result.action).toBe('created');
    const body = api.comments(7)[0]?.body ?? '';
    expect(body.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(body.startsWith(stickyMarker('report'))).toBe(true);
    expect(parseShaStamp(body)?.sha).toBe(SHA_NEW);
    expect(body).toMatch(/characters left out\)\. The full results are in the job summary\.$/);
    // Cut at a line end: the last table row is whole.
    expect(body).toContain('| some query text here | 10/10 |\n\n> [!NOTE]');

    // And the fake enforces GitHub's limit for anyone who does not cap.
    const response = await fetch(`${api.url}/repos/${api.owner}/${api.repo}/issues/7/comments`, {
      method: 'POST',
      headers: { Authorization: 'Bearer actions-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({ body: 'x'.repeat(MAX_COMMENT_CHARS + 1) }),
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain('Body is too long (maximum is 65536 characters)');
  });

  test('an older run does not overwrite the comment of a newer head', async () => {
    const api = await start();
    const t0 = new Date('2026-03-01T10:00:00Z');
    const t1 = new Date('2026-03-01T10:05:00Z');
    const newer = value(await upsert(api, { body: 'newer head', headSha: SHA_NEW, headTime: t1 }));

    const stale = value(await upsert(api, { body: 'older head', headSha: SHA_OLD, headTime: t0 }));
    expect(stale).toEqual({ id: newer.id, url: newer.url, action: 'skipped-stale' });
    expect(api.comments(7)[0]?.body).toContain('newer head');

    // A re-run of the same head always refreshes, whatever its time.
    expect(value(await upsert(api, { body: 'rerun', headSha: SHA_NEW, headTime: t0 })).action).toBe(
      'updated',
    );
    // A later run of another head takes over.
    const later = new Date('2026-03-01T11:00:00Z');
    expect(value(await upsert(api, { body: 'later', headSha: SHA_OLD, headTime: later })).action).toBe(
      'updated',
    );
    expect(api.comments(7)[0]?.body).toContain(shaStamp(SHA_OLD, later));
  });

  test('a read-only (fork) token is "forbidden", and nothing is written', async () => {
    const api = await start();
    const result = await upsert(api, { body: 'x', token: 'fork-token' });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'forbidden',
        status: 403,
        message: expect.stringContaining('Resource not accessible by integration'),
      },
    });
    expect(api.comments(7)).toHaveLength(0);
  });

  test('a bad token is "forbidden"', async () => {
    const api = await start();
    const result = await upsert(api, { body: 'x', token: 'nope' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'forbidden', status: 401 } });
  });

  test('422 "Body is too long" is "too-large"; another 422 is "rejected"', async () => {
    const api = await start();
    api.failNext('create-comment', {
      status: 422,
      message: 'Body is too long (maximum is 65536 characters)',
    });
    expect(await upsert(api, { body: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'too-large', status: 422 },
    });
    api.failNext('create-comment', { status: 422, message: 'Validation Failed' });
    expect(await upsert(api, { body: 'x' })).toMatchObject({
      ok: false,
      error: { kind: 'rejected', status: 422 },
    });
  });

  test('500 twice, then success: retried', async () => {
    const api = await start();
    api.failNext('list-comments', { status: 500, times: 2 });
    const result = value(await upsert(api, { body: 'after retries' }));
    expect(result.action).toBe('created');
    expect(api.requests.filter((r) => r.route === 'list-comments').map((r) => r.status)).toEqual([
      500, 500, 200,
    ]);
  });

  test('a 502 after the comment was created does not make a second comment', async () => {
    const api = await start();
    api.failNext('create-comment', { status: 502, afterEffect: true });
    const result = value(await upsert(api, { body: 'once' }));
    expect(result.action).toBe('updated');
    expect(api.comments(7)).toHaveLength(1);
  });

  test('5xx that persists is "unavailable" after 3 retries', async () => {
    const api = await start();
    api.failNext('list-comments', { status: 503, times: 10 });
    const result = await upsert(api, { body: 'x' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'unavailable', status: 503, attempts: 4 } });
    expect(api.requests.filter((r) => r.route === 'list-comments')).toHaveLength(4);
  });

  test('without a baseUrl it goes to GITHUB_API_URL, as in a real run', async () => {
    const api = await start();
    const saved = { ...process.env };
    Object.assign(process.env, api.env());
    try {
      const result = await upsertStickyComment({
        token: 'actions-token',
        owner: api.owner,
        repo: api.repo,
        issueNumber: 3,
        marker: 'report',
        body: 'via env',
        retry: FAST,
      });
      expect(value(result).action).toBe('created');
      expect(api.comments(3)).toHaveLength(1);
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });

  test('no server at all is "unavailable"', async () => {
    const api = await start();
    const url = api.url;
    await api.close();
    fake = undefined;
    const result = await upsertStickyComment({
      token: 'actions-token',
      baseUrl: url,
      owner: 'o',
      repo: 'r',
      issueNumber: 1,
      marker: 'report',
      body: 'x',
      retry: { retries: 1, delayMs: 1 },
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'unavailable', attempts: 2 } });
  });
});

function sync(api: GitHubApiFake, want: MarkedIssueOptions['want'], token = 'actions-token') {
  return syncMarkedIssue({
    token,
    baseUrl: api.url,
    owner: api.owner,
    repo: api.repo,
    marker: 'drift',
    retry: FAST,
    want,
  });
}

describe('syncMarkedIssue', () => {
  const open = (n: number) => ({ state: 'open' as const, title: `drift ${n}`, body: `body ${n}` });

  test('opens the issue once, updates it in place, then closes it', async () => {
    const api = await start();
    const created = value(await sync(api, open(1)));
    expect(created.action).toBe('created');
    const updated = value(await sync(api, open(2)));
    expect(updated).toMatchObject({ action: 'updated', number: created.number });
    expect(api.issues()).toHaveLength(1);
    expect(api.issues()[0]).toMatchObject({ title: 'drift 2', state: 'open', user: { login: BOT } });
    expect(api.issues()[0]?.body).toBe(`${stickyMarker('drift')}\nbody 2`);

    const closed = value(await sync(api, { state: 'closed', body: 'over' }));
    expect(closed).toMatchObject({ action: 'closed', number: created.number });
    expect(api.issues()[0]).toMatchObject({ state: 'closed', stateReason: 'completed' });
    // Closed, it is no longer ours to update: the next drift opens a new one.
    expect(value(await sync(api, { state: 'closed', body: 'again' })).action).toBe('none');
    expect(value(await sync(api, open(3))).action).toBe('created');
    expect(api.issues().map((i) => i.state)).toEqual(['closed', 'open']);
  });

  test('skips pull requests and a person’s issue that quotes the marker, across pages', async () => {
    const pullFiles = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [i + 1, []]));
    const api = await start({
      pullFiles,
      issues: [{ title: 'I quote it', body: `see ${stickyMarker('drift')}`, login: 'mallory' }],
    });
    const created = value(await sync(api, open(1)));
    expect(created.action).toBe('created');
    expect(value(await sync(api, open(2)))).toMatchObject({ action: 'updated', number: created.number });
    expect(api.issues().find((i) => i.user.login === 'mallory')?.body).toBe(`see ${stickyMarker('drift')}`);
    const lists = api.requests.filter((r) => r.route === 'list-issues');
    expect(lists.some((r) => r.query.page === '2')).toBe(true);
  });

  test('onlyIfOpen updates an open issue and opens none', async () => {
    const api = await start();
    expect(value(await sync(api, { ...open(1), onlyIfOpen: true })).action).toBe('none');
    expect(api.issues()).toEqual([]);
    value(await sync(api, open(2)));
    expect(value(await sync(api, { ...open(3), onlyIfOpen: true })).action).toBe('updated');
  });

  test('issues turned off (410) is "rejected"; a read-only token is "forbidden"', async () => {
    const off = await start({ issuesDisabled: true });
    expect(await sync(off, open(1))).toMatchObject({ ok: false, error: { kind: 'rejected', status: 410 } });
    await off.close();
    const api = await start();
    expect(await sync(api, open(1), 'fork-token')).toMatchObject({
      ok: false,
      error: { kind: 'forbidden', status: 403 },
    });
    expect(api.issues()).toEqual([]);
  });

  test('a 502 after the issue was created does not open a second one', async () => {
    const api = await start();
    api.failNext('create-issue', { status: 502, afterEffect: true });
    expect(value(await sync(api, open(1))).action).toBe('updated');
    expect(api.issues()).toHaveLength(1);
  });
});

describe('listChangedFiles', () => {
  test('reads every page, with statuses and the old name of a rename', async () => {
    const files: FakePullFile[] = Array.from({ length: 230 }, (_, i) => ({
      filename: `src/file-${i}.ts`,
      status: 'modified',
    }));
    files.push(
      { filename: 'skills/new/SKILL.md', status: 'added' },
      { filename: 'skills/gone/SKILL.md', status: 'removed' },
      {
        filename: 'skills/renamed/SKILL.md',
        status: 'renamed',
        previousFilename: 'skills/old-name/SKILL.md',
      },
    );
    const api = await start({ pullFiles: { 12: files } });
    const result = value(
      await listChangedFiles({
        token: 'fork-token', // reading works with a read-only token
        baseUrl: api.url,
        owner: api.owner,
        repo: api.repo,
        pullNumber: 12,
        retry: FAST,
      }),
    );
    expect(result).toHaveLength(233);
    expect(result.at(-1)).toEqual({
      filename: 'skills/renamed/SKILL.md',
      status: 'renamed',
      previousFilename: 'skills/old-name/SKILL.md',
    });
    expect(result.find((f) => f.filename === 'skills/new/SKILL.md')).toEqual({
      filename: 'skills/new/SKILL.md',
      status: 'added',
    });
    expect(api.requests.filter((r) => r.route === 'list-files').map((r) => r.query.page ?? '1')).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  test('a missing pull request or repo is "forbidden" (404)', async () => {
    const api = await start();
    const result = await listChangedFiles({
      token: 'actions-token',
      baseUrl: api.url,
      owner: 'someone',
      repo: 'else',
      pullNumber: 1,
      retry: FAST,
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'forbidden', status: 404 } });
  });
});

describe('comment body (pure)', () => {
  test.each(['', 'x'])(
    'fits under the limit without splitting a surrogate pair, closing an open fence (%#)',
    (pad) => {
      // Both parities, so the cut lands once between and once inside a pair.
      const body = `\`\`\`\n${pad}${'😀'.repeat(40_000)}`;
      const capped = composeStickyBody({ marker: 'm', body });
      expect(capped.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
      expect(capped.length).toBeGreaterThan(MAX_COMMENT_CHARS - 10);
      expect(capped).not.toMatch(/\p{Cs}/u); // no lone surrogate
      expect(capped).toContain('😀\n```\n\n> [!NOTE]');
    },
  );

  test('a body that fits is kept whole', () => {
    expect(composeStickyBody({ marker: 'm', body: 'hi', stamp: shaStamp('abc', new Date(0)) })).toBe(
      `<!-- skilltrigger:m -->\n<!-- skilltrigger-sha:abc 1970-01-01T00:00:00.000Z -->\nhi`,
    );
  });

  test('a marker cannot close the HTML comment early', () => {
    expect(stickyMarker('a--> <b>')).toBe('<!-- skilltrigger:a-b- -->');
  });

  test('the stale rule', () => {
    const stamped = shaStamp(SHA_NEW, new Date('2026-01-02T00:00:00Z'));
    expect(isStale(stamped, SHA_OLD, new Date('2026-01-01T00:00:00Z'))).toBe(true);
    expect(isStale(stamped, SHA_OLD, new Date('2026-01-03T00:00:00Z'))).toBe(false);
    expect(isStale(stamped, SHA_NEW, new Date('2026-01-01T00:00:00Z'))).toBe(false);
    expect(isStale(stamped, undefined, new Date(0))).toBe(false);
    expect(isStale('no stamp', SHA_OLD, new Date(0))).toBe(false);
  });
});
