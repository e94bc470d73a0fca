import type { IncomingMessage, Server } from 'node:http';

/**
 * What every loopback fake server under __tests__/fakes shares (the artifact service, the cache
 * service, the GitHub API): listening on an ephemeral 127.0.0.1 port, closing without waiting for
 * keep-alive connections, and reading a request's whole body.
 */

/** A fake server once it listens. */
export interface Listening {
  port: number;
  /** Drops every open connection (a client's keep-alive would hold `close` open), then closes. */
  close(): Promise<void>;
}

/** Starts `server` on an ephemeral loopback port; `name` says which fake failed to get one. */
export async function listenLoopback(server: Server, name: string): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error(`${name}: no TCP address`);
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A request's whole body. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}
