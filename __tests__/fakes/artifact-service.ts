import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { inflateRawSync } from 'node:zlib';
import { listenLoopback, readBody } from './loopback.js';

/**
 * A loopback fake of the GitHub Actions artifact service (v4, the results service) as
 * `@actions/artifact@6` speaks it: twirp over JSON for `CreateArtifact` and `FinalizeArtifact`,
 * plus the blob store behind the signed upload URL, which the Azure SDK fills block by block.
 *
 * Protocol edges this fake reproduces on purpose (read from the client's source in node_modules):
 * - The runtime token is a JWT whose `scp` claim holds `Actions.Results:<run id>:<job id>`; the
 *   client takes both backend ids from it and sends them in every call, which must match.
 * - Twirp: `POST /twirp/github.actions.results.api.v1.ArtifactService/<Method>`, snake_case JSON,
 *   `Authorization: Bearer <token>`. int64 `size` comes as a JSON string; `mime_type` and `hash`
 *   (StringValue) as plain strings. Errors are twirp JSON (`{"code","msg"}`): 500/502/503/504/429
 *   are retried 5× from 3 s, anything else fails at once. A name already used in the run is 409.
 * - The signed URL is path-style `/devstoreaccount1/<container>/<blob>` (the form the Azure SDK
 *   takes for a loopback host). `uploadStream` stages blocks (`?comp=block&blockid=…`) and commits
 *   them (`?comp=blocklist`, an XML list of `<Latest>` ids); each answers 201.
 * - `FinalizeArtifact` carries the uploaded size and `sha256:<hex>` of the zip: checked here.
 */

export type ArtifactRoute = 'CreateArtifact' | 'FinalizeArtifact' | 'block' | 'blocklist';

const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService/';
const ACCOUNT = 'devstoreaccount1';
const CONTAINER = 'actions-results';

export interface ArtifactInfo {
  id: number;
  name: string;
  /** The zip the client uploaded. */
  data: Buffer;
}

export interface ArtifactFault {
  times?: number;
  status: number;
  msg?: string;
}

export interface ArtifactServiceFake {
  readonly url: string;
  /** Finalized artifacts, in upload order. */
  readonly artifacts: readonly ArtifactInfo[];
  /** Every request, by route and status. */
  readonly requests: readonly { route: ArtifactRoute | 'unknown'; status: number }[];
  /** ACTIONS_RUNTIME_TOKEN (a JWT with the results scope) and ACTIONS_RESULTS_URL. */
  env(): Record<string, string>;
  failNext(route: ArtifactRoute, fault: ArtifactFault): void;
  close(): Promise<void>;
}

interface Stored {
  id: number;
  name: string;
  signature: string;
  blocks: Map<string, Buffer>;
  data?: Buffer;
  finalized: boolean;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function twirpCode(status: number): string {
  return (
    {
      400: 'invalid_argument',
      401: 'unauthenticated',
      403: 'permission_denied',
      404: 'not_found',
      409: 'already_exists',
    }[status] ?? 'internal'
  );
}

export async function startArtifactService(): Promise<ArtifactServiceFake> {
  const runId = 'ce7f54c7-61c7-4aae-887f-30da475f5f1a';
  const jobId = 'ca395085-040a-526b-2ce8-bdc85f692774';
  const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ scp: `Actions.GenericRead:0 Actions.Results:${runId}:${jobId}` })}.${randomBytes(8).toString('base64url')}`;
  const stored: Stored[] = [];
  const requests: { route: ArtifactRoute | 'unknown'; status: number }[] = [];
  const faults = new Map<ArtifactRoute, { remaining: number; fault: ArtifactFault }[]>();
  let nextId = 1;
  let baseUrl = '';

  const takeFault = (route: ArtifactRoute): ArtifactFault | undefined => {
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
      res.end(JSON.stringify({ code: 'internal', msg: `fake artifact service crashed: ${String(error)}` }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    const blobPrefix = `/${ACCOUNT}/${CONTAINER}/`;
    const comp = url.searchParams.get('comp');
    const route: ArtifactRoute | 'unknown' =
      method === 'POST' && url.pathname === `${TWIRP_PREFIX}CreateArtifact`
        ? 'CreateArtifact'
        : method === 'POST' && url.pathname === `${TWIRP_PREFIX}FinalizeArtifact`
          ? 'FinalizeArtifact'
          : method === 'PUT' && url.pathname.startsWith(blobPrefix) && comp === 'block'
            ? 'block'
            : method === 'PUT' && url.pathname.startsWith(blobPrefix) && comp === 'blocklist'
              ? 'blocklist'
              : 'unknown';
    const record = { route, status: 0 };
    requests.push(record);
    const twirpError = (status: number, msg: string) => {
      record.status = status;
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ code: twirpCode(status), msg }));
    };
    const blobError = (status: number, code: string) => {
      record.status = status;
      res.writeHead(status, { 'Content-Type': 'application/xml', 'x-ms-error-code': code });
      res.end(
        `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
      );
    };
    const json = (body: Record<string, unknown>) => {
      record.status = 200;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (route === 'unknown') {
      twirpError(404, `no route for ${method} ${url.pathname}`);
      return;
    }
    const fault = takeFault(route);
    if (fault) {
      if (route === 'block' || route === 'blocklist') blobError(fault.status, 'InjectedFault');
      else twirpError(fault.status, fault.msg ?? `injected fault (${fault.status})`);
      return;
    }

    if (route === 'block' || route === 'blocklist') {
      const id = Number(url.pathname.slice(blobPrefix.length));
      const entry = stored.find((e) => e.id === id);
      if (!entry || url.searchParams.get('sig') !== entry.signature) {
        blobError(entry ? 403 : 404, entry ? 'AuthenticationFailed' : 'BlobNotFound');
        return;
      }
      if (entry.finalized) {
        blobError(409, 'BlobImmutable');
        return;
      }
      if (route === 'block') {
        const blockId = url.searchParams.get('blockid');
        if (!blockId) {
          blobError(400, 'InvalidQueryParameterValue');
          return;
        }
        entry.blocks.set(blockId, raw);
      } else {
        const ids = [...raw.toString('utf8').matchAll(/<Latest>([^<]+)<\/Latest>/g)].map((m) => m[1] ?? '');
        const parts = ids.map((blockId) => entry.blocks.get(blockId));
        if (ids.length === 0 || parts.some((p) => p === undefined)) {
          blobError(400, 'InvalidBlockList');
          return;
        }
        entry.data = Buffer.concat(parts as Buffer[]);
      }
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

    if (req.headers.authorization !== `Bearer ${token}`) {
      twirpError(401, 'invalid or missing runtime token');
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      twirpError(400, 'request body is not JSON');
      return;
    }
    if (body.workflow_run_backend_id !== runId || body.workflow_job_run_backend_id !== jobId) {
      twirpError(400, 'the backend ids do not match the token');
      return;
    }
    const name = typeof body.name === 'string' ? body.name : '';
    if (route === 'CreateArtifact') {
      if (name === '' || body.version !== 7) {
        twirpError(400, 'name and version 7 are required');
        return;
      }
      if (stored.some((e) => e.name === name)) {
        twirpError(409, 'an artifact with this name already exists on the workflow run');
        return;
      }
      const entry: Stored = {
        id: nextId++,
        name,
        signature: randomBytes(12).toString('hex'),
        blocks: new Map(),
        finalized: false,
      };
      stored.push(entry);
      json({
        ok: true,
        signed_upload_url: `${baseUrl}${ACCOUNT}/${CONTAINER}/${entry.id}?sv=2024-11-04&sr=b&sp=rw&sig=${entry.signature}`,
      });
      return;
    }
    const entry = stored.find((e) => e.name === name && !e.finalized);
    if (!entry?.data) {
      twirpError(404, 'no uploaded artifact of this name to finalize');
      return;
    }
    const hash = `sha256:${createHash('sha256').update(entry.data).digest('hex')}`;
    if (String(body.size) !== String(entry.data.length) || body.hash !== hash) {
      json({ ok: false, artifact_id: '0' });
      return;
    }
    entry.finalized = true;
    json({ ok: true, artifact_id: String(entry.id) });
  }

  const listening = await listenLoopback(server, 'fake artifact service');
  baseUrl = `http://127.0.0.1:${listening.port}/`;

  return {
    url: baseUrl,
    get artifacts() {
      return stored.flatMap((e) => (e.finalized && e.data ? [{ id: e.id, name: e.name, data: e.data }] : []));
    },
    requests,
    env: () => ({ ACTIONS_RUNTIME_TOKEN: token, ACTIONS_RESULTS_URL: baseUrl }),
    failNext(route, fault) {
      const queue = faults.get(route) ?? [];
      queue.push({ remaining: fault.times ?? 1, fault });
      faults.set(route, queue);
    },
    close: listening.close,
  };
}

/** The files of a zip (as archiver writes it), by name: read from its central directory. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('broken central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + compressed);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
