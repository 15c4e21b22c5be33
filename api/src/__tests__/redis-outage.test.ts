import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/test-server';

/*
 * Issue 50: Redis (the shared rate-limit counters) killed under the running app, on a redis-server of this test's own.
 * No crash, requests still answered (limits counted per instance meanwhile), and the client is back by itself.
 */

const installed = spawnSync('redis-server', ['--version']).status === 0;
const skip = !installed && process.env.CI !== 'true';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve(child);
    });
  });
}

const CONTACT = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'We miss calls at lunch time. Can an assistant answer them?' };

describe.skipIf(skip)('Redis goes away under the running app (private redis-server)', () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let server: TestServer;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    server = await startTestServer({ env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_MULTIPLIER: '100' } });
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    redis?.kill('SIGKILL');
  });

  const send = () => fetch(`${server.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CONTACT) });

  it('keeps serving (rate limits per instance meanwhile), and reconnects by itself when Redis is back', async () => {
    expect((await send()).status).toBe(200);

    redis!.kill('SIGKILL');
    await new Promise((resolve) => redis!.once('exit', resolve));
    // The client's 'error' and 'close' events arrive now: an unhandled one would end this process.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let i = 0; i < 3; i++) expect((await send()).status).toBe(200);
    expect((await fetch(`${server.url}/api/posts`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(200);

    // Back on the same port: the app's client connects again by itself (it shows in the server's client list).
    redis = await startRedis(port);
    const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
    await probe.connect();
    try {
      const started = Date.now();
      let clients = 0;
      while (Date.now() - started < 8000) {
        clients = String(await probe.client('LIST')).trim().split('\n').length;
        if (clients >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(clients).toBeGreaterThanOrEqual(2);
    } finally {
      probe.disconnect();
    }
    expect((await send()).status).toBe(200);
  }, 20_000);
});
