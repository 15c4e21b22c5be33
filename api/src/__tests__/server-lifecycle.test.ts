import { afterEach, describe, expect, it } from 'vitest';
import type { RouteModule } from '../routes/route-module';
import { rawRequest, startTestServer, type TestServer } from '../test-support/test-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const slowRoute: RouteModule = (router) => {
  router.get('/api/test/slow', async (ctx) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    ctx.body = { done: true };
  });
};

describe('graceful shutdown', () => {
  it('finishes the request in flight, refuses new connections, then closes the database', async () => {
    server = await startTestServer({ deps: { routes: [slowRoute] } });
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
