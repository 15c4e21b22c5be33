import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rawRequest, startTestServer, type TestRoutes, type TestServer } from '../test-support/test-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const slowRoute: TestRoutes = (router) => {
  router.get('/api/test/slow', async (ctx) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    ctx.body = { done: true };
  });
};

describe('graceful shutdown', () => {
  it('finishes the request in flight, refuses new connections, then closes the database', async () => {
    server = await startTestServer({ routes: [slowRoute] });
    const { url, running, instance } = server;

    const inFlight = fetch(`${url}/api/test/slow`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const closed = running.close();

    await expect(rawRequest(url, '/api/health')).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });

    await closed;
    expect(await instance.database.ping()).toBe(false);
  });

  it('closes idle keep-alive connections instead of waiting for them', async () => {
    server = await startTestServer();
    const response = await fetch(`${server.url}/api/health`);
    await response.arrayBuffer();
    const started = Date.now();
    await server.running.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('clients answered 408 that never read the answer and never close', () => {
  // The 408 goes out within HEADERS_TIMEOUT plus one check interval (125 ms here).
  const HEADERS_TIMEOUT_MS = 500;
  const env = { HEADERS_TIMEOUT: `${HEADERS_TIMEOUT_MS}ms`, REQUEST_TIMEOUT: '1s' };

  const connections = () =>
    new Promise<number>((resolve, reject) => server!.running.server.getConnections((err, n) => (err ? reject(err) : resolve(n))));

  /** Polls until the server holds `expected` connections or `ms` have passed; returns the last count. */
  async function connectionsAfter(ms: number, expected = 0): Promise<number> {
    const deadline = Date.now() + ms;
    let held = await connections();
    while (held !== expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      held = await connections();
    }
    return held;
  }

  /**
   * A client that starts a header block and never finishes it, never reads (no 'data' listener) and never closes;
   * `keepWriting` drips a header line every 100 ms for as long as its socket takes them.
   */
  async function stalledClient(keepWriting: boolean): Promise<{ socket: Socket; closed: Promise<string> }> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(Number(new URL(server!.url).port), '127.0.0.1', () => resolve(s));
      s.once('error', reject);
    });
    let failure = 'closed';
    socket.on('error', (err: NodeJS.ErrnoException) => (failure = err.code ?? err.message));
    const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(failure)));
    socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n');
    if (keepWriting) {
      const drip = setInterval(() => !socket.destroyed && socket.writable && socket.write('X-Slow: 1\r\n'), 100);
      void closed.then(() => clearInterval(drip));
    }
    return { socket, closed };
  }

  it('lets go of the connection of one that keeps writing, shortly after the 408', async () => {
    server = await startTestServer({ env });
    const client = await stalledClient(true);
    try {
      // A half-close alone would let the client hold the connection as long as it liked.
      expect(await connectionsAfter(HEADERS_TIMEOUT_MS + 2000)).toBe(0);
      // The client notices: its next write fails and its socket closes.
      expect(['EPIPE', 'ECONNRESET', 'closed']).toContain(await client.closed);
    } finally {
      client.socket.destroy();
    }
  });

  it('lets go of 50 at once, writers and silent ones alike', async () => {
    server = await startTestServer({ env });
    const clients = await Promise.all(Array.from({ length: 50 }, (_, i) => stalledClient(i % 2 === 0)));
    try {
      expect(await connectionsAfter(1000, 50)).toBe(50);
      expect(await connectionsAfter(HEADERS_TIMEOUT_MS + 2000)).toBe(0);
      const writers = clients.filter((_, i) => i % 2 === 0);
      for (const failure of await Promise.all(writers.map((c) => c.closed))) expect(['EPIPE', 'ECONNRESET', 'closed']).toContain(failure);
    } finally {
      for (const c of clients) c.socket.destroy();
    }
  });
});
