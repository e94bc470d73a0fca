import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLoopback, readBody } from './loopback.js';

/**
 * A loopback fake of the GitHub Actions cache service v2 as `@actions/cache@6` speaks it
 * (as the package's own client sends it): twirp over JSON for the three RPCs, plus the blob store
 * behind the signed URLs.
 *
 * Protocol edges this fake reproduces on purpose:
 * - Twirp: `POST /twirp/github.actions.results.api.v1.CacheService/<Method>`, snake_case JSON,
 *   `Authorization: Bearer <ACTIONS_RUNTIME_TOKEN>`. The client omits default values (`restore_keys`
 *   when empty, `ok: false`), and sends `size_bytes` (int64) as a JSON string.
 * - Errors are twirp JSON (`{"code","msg"}`): a non-JSON error body makes the client retry 5 times
 *   with a 3 s base delay, so every error this fake sends is JSON unless a fault asks for a raw body.
 * - The signed upload URL is path-style `/devstoreaccount1/<container>/<blob>`: the Azure SDK the
 *   client forces for v2 only accepts that form for a loopback host. The PUT must answer 201.
 * - Downloads from any host that is not `*.blob.core.windows.net` are one plain `GET`.
 * - A duplicate key+version is HTTP 409 `already_exists` (the real service's answer), which the
 *   client does not retry; a read-only token is 200 `ok:false` "cache write denied: …".
 *
 * Client retry costs to keep tests fast: twirp 500/502/503/504 (and unparseable bodies) are retried
 * 5× starting at 3 s; blob GET is retried only on 502/503/504 (5 s); blob PUT 500/503 is retried by
 * the Azure SDK (4 s base). Any other status fails at once.
 */

export type CacheRoute =
  | 'CreateCacheEntry'
  | 'FinalizeCacheEntryUpload'
  | 'GetCacheEntryDownloadURL'
  | 'upload'
  | 'download';

const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.CacheService/';
const ACCOUNT = 'devstoreaccount1';
const CONTAINER = 'actions-cache';

/** A finalized cache entry, as a test sees it. */
export interface CacheEntryInfo {
  id: number;
  key: string;
  version: string;
  /** Bytes of the uploaded archive. */
  size: number;
  createdAt: Date;
}

/** One request the fake received. `body` is the parsed JSON for twirp calls, the byte count for blobs. */
export interface CacheRequestRecord {
  method: string;
  route: CacheRoute | 'unknown';
  path: string;
  status: number;
  body?: unknown;
}

export interface CacheServiceOptions {
  /** The runtime token the twirp calls must carry (default: a random one, given by `env()`). */
  token?: string;
  /** Start in read-only mode: `CreateCacheEntry` answers `ok:false` "cache write denied: …". */
  readOnly?: boolean;
  /** Deny reads: `GetCacheEntryDownloadURL` answers 403 "cache read denied: …". */
  readDenied?: boolean;
}

export interface CacheFault {
  /** How many of the next requests to the route fail (default 1). */
  times?: number;
  status: number;
  /** A raw response body instead of twirp JSON (a non-JSON body makes the client retry). */
  rawBody?: string;
}

export interface CacheServiceFake {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** Finalized entries, oldest first. */
  readonly entries: readonly CacheEntryInfo[];
  readonly requests: readonly CacheRequestRecord[];
  /**
   * The variables `@actions/cache` needs to pick v2 and reach this fake. Also leave
   * `GITHUB_SERVER_URL` unset or non-loopback (a loopback one looks like GHES and forces v1), and
   * set `RUNNER_TEMP` (the client's archive scratch directory).
   */
  env(): Record<string, string>;
  /** Fail the next `times` requests to `route` with `status`. */
  failNext(route: CacheRoute, fault: CacheFault): void;
  setReadOnly(readOnly: boolean): void;
  setReadDenied(denied: boolean): void;
  /** Reserve a key+version as another job would, without finalizing it (its save is "in progress"). */
  reserve(key: string, version: string): void;
  /** The archive bytes of a finalized entry. */
  archive(key: string): Buffer | undefined;
  close(): Promise<void>;
}

interface StoredEntry {
  id: number;
  key: string;
  version: string;
  signature: string;
  createdAt: Date;
  data?: Buffer;
  finalized: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

function stringArrayField(body: Record<string, unknown>, name: string): string[] | undefined {
  const value = body[name];
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const strings = value.filter((v): v is string => typeof v === 'string');
  return strings.length === value.length ? strings : undefined;
}

function routeOf(method: string, pathname: string): CacheRoute | 'unknown' {
  if (method === 'POST' && pathname.startsWith(TWIRP_PREFIX)) {
    const rpc = pathname.slice(TWIRP_PREFIX.length);
    if (
      rpc === 'CreateCacheEntry' ||
      rpc === 'FinalizeCacheEntryUpload' ||
      rpc === 'GetCacheEntryDownloadURL'
    ) {
      return rpc;
    }
    return 'unknown';
  }
  if (pathname.startsWith(`/${ACCOUNT}/${CONTAINER}/`)) {
    if (method === 'PUT') return 'upload';
    if (method === 'GET') return 'download';
  }
  return 'unknown';
}

/** Twirp's HTTP status for each error code it uses here. */
function twirpCode(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_argument';
    case 401:
      return 'unauthenticated';
    case 403:
      return 'permission_denied';
    case 404:
      return 'not_found';
    case 409:
      return 'already_exists';
    case 429:
      return 'resource_exhausted';
    case 501:
      return 'unimplemented';
    case 503:
      return 'unavailable';
    default:
      return 'internal';
  }
}

export async function startCacheService(opts: CacheServiceOptions = {}): Promise<CacheServiceFake> {
  const token = opts.token ?? `fake-runtime-${randomBytes(8).toString('hex')}`;
  let readOnly = opts.readOnly ?? false;
  let readDenied = opts.readDenied ?? false;
  const stored: StoredEntry[] = [];
  const requests: CacheRequestRecord[] = [];
  const faults = new Map<CacheRoute, { remaining: number; fault: CacheFault }[]>();
  let nextId = 1;
  let lastCreated = 0;
  let baseUrl = '';

  // Strictly increasing creation times, so "newest first" is well defined even within one millisecond.
  const now = (): Date => {
    lastCreated = Math.max(Date.now(), lastCreated + 1);
    return new Date(lastCreated);
  };

  const takeFault = (route: CacheRoute): CacheFault | undefined => {
    const queue = faults.get(route);
    const head = queue?.[0];
    if (!queue || !head) return undefined;
    head.remaining -= 1;
    if (head.remaining <= 0) queue.shift();
    return head.fault;
  };

  const blobUrl = (entry: StoredEntry): string =>
    `${baseUrl}${ACCOUNT}/${CONTAINER}/${entry.id}?sv=2024-11-04&sr=b&sp=rw&sig=${entry.signature}`;

  const find = (key: string, version: string): StoredEntry | undefined =>
    stored.find((e) => e.key === key && e.version === version);

  /** Lookup as the real service documents it: exact key, then each restore key exact then prefix, newest first. */
  const lookup = (key: string, restoreKeys: readonly string[], version: string): StoredEntry | undefined => {
    const candidates = stored
      .filter((e) => e.finalized && e.version === version)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
    const exact = candidates.find((e) => e.key === key);
    if (exact) return exact;
    for (const restoreKey of restoreKeys) {
      const hit =
        candidates.find((e) => e.key === restoreKey) ?? candidates.find((e) => e.key.startsWith(restoreKey));
      if (hit) return hit;
    }
    return undefined;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json' });
      }
      res.end(JSON.stringify({ code: 'internal', msg: `fake cache service crashed: ${String(error)}` }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = routeOf(method, url.pathname);
    const raw = await readBody(req);
    const record: CacheRequestRecord = { method, route, path: url.pathname, status: 0 };
    requests.push(record);

    const twirpError = (status: number, msg: string): void => {
      record.status = status;
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ code: twirpCode(status), msg }));
    };
    const json = (body: Record<string, unknown>): void => {
      record.status = 200;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const blobError = (status: number, code: string): void => {
      record.status = status;
      res.writeHead(status, { 'Content-Type': 'application/xml', 'x-ms-error-code': code });
      res.end(
        `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
      );
    };

    if (route === 'unknown') {
      twirpError(404, `no route for ${method} ${url.pathname}`);
      return;
    }

    const fault = takeFault(route);
    if (fault) {
      if (fault.rawBody !== undefined) {
        record.status = fault.status;
        res.writeHead(fault.status, { 'Content-Type': 'text/plain' });
        res.end(fault.rawBody);
      } else if (route === 'upload' || route === 'download') {
        blobError(fault.status, 'InjectedFault');
      } else {
        twirpError(fault.status, `injected fault (${fault.status})`);
      }
      return;
    }

    if (route === 'upload' || route === 'download') {
      const id = Number(url.pathname.slice(`/${ACCOUNT}/${CONTAINER}/`.length));
      const entry = stored.find((e) => e.id === id);
      if (!entry || url.searchParams.get('sig') !== entry.signature) {
        blobError(entry ? 403 : 404, entry ? 'AuthenticationFailed' : 'BlobNotFound');
        return;
      }
      if (route === 'upload') {
        record.body = raw.length;
        if (url.searchParams.has('comp')) {
          // Staged blocks are only used above 128 MiB (maxSingleShotSize); no baseline gets near that.
          blobError(501, 'BlockUploadNotSupportedByFake');
          return;
        }
        if (req.headers['x-ms-blob-type'] !== 'BlockBlob') {
          blobError(400, 'MissingRequiredHeader');
          return;
        }
        if (entry.finalized) {
          blobError(409, 'BlobImmutable');
          return;
        }
        entry.data = raw;
        record.status = 201;
        res.writeHead(201, {
          ETag: `"0x${entry.id.toString(16).padStart(8, '0')}"`,
          'Last-Modified': new Date().toUTCString(),
          'x-ms-request-server-encrypted': 'true',
          'x-ms-version': '2024-11-04',
          'Content-Length': '0',
        });
        res.end();
        return;
      }
      if (!entry.finalized || !entry.data) {
        blobError(404, 'BlobNotFound');
        return;
      }
      record.status = 200;
      res.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(entry.data.length),
      });
      res.end(entry.data);
      return;
    }

    // Twirp.
    if (req.headers.authorization !== `Bearer ${token}`) {
      twirpError(401, 'invalid or missing runtime token');
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      twirpError(400, 'request body is not JSON');
      return;
    }
    record.body = parsed;
    if (!isRecord(parsed)) {
      twirpError(400, 'request body is not a JSON object');
      return;
    }
    const key = stringField(parsed, 'key');
    const version = stringField(parsed, 'version');
    if (!key || !version) {
      twirpError(400, 'key and version are required');
      return;
    }

    switch (route) {
      case 'CreateCacheEntry': {
        if (readOnly) {
          json({
            ok: false,
            signed_upload_url: '',
            message: 'cache write denied: token has no writable scopes',
          });
          return;
        }
        if (find(key, version)) {
          twirpError(409, 'cache entry with the same key, version, and scope already exists');
          return;
        }
        const entry: StoredEntry = {
          id: nextId++,
          key,
          version,
          signature: randomBytes(12).toString('hex'),
          createdAt: now(),
          finalized: false,
        };
        stored.push(entry);
        json({ ok: true, signed_upload_url: blobUrl(entry) });
        return;
      }
      case 'FinalizeCacheEntryUpload': {
        const entry = find(key, version);
        if (!entry || entry.finalized) {
          twirpError(404, 'no reserved cache entry for this key and version');
          return;
        }
        const size = stringField(parsed, 'size_bytes') ?? parsed.size_bytes;
        if (!entry.data) {
          json({ ok: false, entry_id: '0', message: 'no archive was uploaded for this entry' });
          return;
        }
        if (String(size) !== String(entry.data.length)) {
          json({
            ok: false,
            entry_id: '0',
            message: `size mismatch: declared ${String(size)} bytes, uploaded ${entry.data.length}`,
          });
          return;
        }
        entry.finalized = true;
        json({ ok: true, entry_id: String(entry.id) });
        return;
      }
      case 'GetCacheEntryDownloadURL': {
        if (readDenied) {
          twirpError(403, 'cache read denied: token has no readable scopes');
          return;
        }
        const restoreKeys = stringArrayField(parsed, 'restore_keys');
        if (!restoreKeys) {
          twirpError(400, 'restore_keys must be an array of strings');
          return;
        }
        const hit = lookup(key, restoreKeys, version);
        if (!hit) {
          json({ ok: false, signed_download_url: '', matched_key: '' });
          return;
        }
        json({ ok: true, signed_download_url: blobUrl(hit), matched_key: hit.key });
        return;
      }
    }
  }

  const listening = await listenLoopback(server, 'fake cache service');
  const port = listening.port;
  baseUrl = `http://127.0.0.1:${port}/`;

  return {
    url: baseUrl,
    get entries(): readonly CacheEntryInfo[] {
      return stored
        .filter((e) => e.finalized)
        .map((e) => ({
          id: e.id,
          key: e.key,
          version: e.version,
          size: e.data?.length ?? 0,
          createdAt: e.createdAt,
        }));
    },
    requests,
    env: () => ({
      ACTIONS_CACHE_SERVICE_V2: 'True',
      ACTIONS_RESULTS_URL: baseUrl,
      ACTIONS_RUNTIME_TOKEN: token,
    }),
    failNext(route, fault) {
      const queue = faults.get(route) ?? [];
      queue.push({ remaining: fault.times ?? 1, fault });
      faults.set(route, queue);
    },
    setReadOnly(value) {
      readOnly = value;
    },
    setReadDenied(value) {
      readDenied = value;
    },
    reserve(key, version) {
      stored.push({
        id: nextId++,
        key,
        version,
        signature: randomBytes(12).toString('hex'),
        createdAt: now(),
        finalized: false,
      });
    },
    archive(key) {
      return stored.find((e) => e.finalized && e.key === key)?.data;
    },
    close: listening.close,
  };
}
