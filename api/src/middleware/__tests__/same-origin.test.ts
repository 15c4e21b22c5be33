import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { allowedOrigins } from '../same-origin';

/*
 * The CSRF check of state-changing admin requests (issue 19): only PUBLIC_ORIGIN counts, never whatever Host the
 * request names. Requests go to the real server on 127.0.0.1 with the Host and Origin a browser would send.
 */

const PASSWORD = 'same origin test password';

/** One request to `server` on 127.0.0.1 whatever `host` says (a name pointed at our address, or a dev proxy). */
function login(server: TestServer, headers: { host: string; origin?: string; referer?: string }): Promise<number> {
  const body = JSON.stringify({ password: PASSWORD });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.running.port,
        path: '/api/admin/login',
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A port that was free a moment ago: PUBLIC_ORIGIN must name the port before the server starts, as with `npm start`. */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('same-origin check with the default loopback PUBLIC_ORIGIN (npm start: http://localhost:PORT)', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    server = await startTestServer({
      env: { PORT: String(port), PUBLIC_ORIGIN: `http://localhost:${port}`, ADMIN_PASSWORD: PASSWORD, RATE_LIMIT_MULTIPLIER: '1000' },
    });
  });
  afterAll(() => server.close());

  it.each([
    ['localhost', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '[::1]'],
  ])('accepts the site opened at http://%s:PORT', async (host) => {
    expect(await login(server, { host: `${host}:${port}`, origin: `http://${host}:${port}` })).toBe(200);
  });

  it('accepts a loopback page through the dev proxies (vite on :5173-5177 forwards its own Host)', async () => {
    expect(await login(server, { host: 'localhost:5177', origin: 'http://localhost:5177' })).toBe(200);
    expect(await login(server, { host: 'localhost:5177', referer: 'http://localhost:5177/admin' })).toBe(200);
  });

  it('refuses an Origin that only matches the Host it sent (a name pointed at this machine)', async () => {
    expect(await login(server, { host: 'evil.com', origin: 'http://evil.com' })).toBe(403);
    expect(await login(server, { host: `evil.com:${port}`, origin: `http://evil.com:${port}` })).toBe(403);
    expect(await login(server, { host: '192.168.1.20:3000', origin: 'http://192.168.1.20:3000' })).toBe(403);
  });

  it('refuses another loopback page (another local app) posting to the site', async () => {
    expect(await login(server, { host: `localhost:${port}`, origin: 'http://localhost:8080' })).toBe(403);
    expect(await login(server, { host: `localhost:${port}`, origin: `https://localhost:${port}` })).toBe(403);
  });
});

describe('same-origin check with a public PUBLIC_ORIGIN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_ORIGIN: 'https://www.example.test', ADMIN_PASSWORD: PASSWORD, RATE_LIMIT_MULTIPLIER: '1000' } });
  });
  afterAll(() => server.close());

  it('accepts only PUBLIC_ORIGIN, whatever Host the request names', async () => {
    expect(await login(server, { host: 'www.example.test', origin: 'https://www.example.test' })).toBe(200);
    expect(await login(server, { host: 'evil.com', origin: 'http://evil.com' })).toBe(403);
    expect(await login(server, { host: 'evil.com', referer: 'http://evil.com/page' })).toBe(403);
    // A loopback Host is no exception for a public site: only a developer's loopback site has dev proxies.
    const own = new URL(server.url).host;
    expect(await login(server, { host: own, origin: `http://${own}` })).toBe(403);
    expect(await login(server, { host: 'www.example.test', origin: 'http://www.example.test' })).toBe(403);
  });
});

describe('allowedOrigins', () => {
  it('is PUBLIC_ORIGIN alone, plus the loopback aliases of a loopback one', () => {
    expect([...allowedOrigins('https://www.example.test/')]).toEqual(['https://www.example.test']);
    expect([...allowedOrigins('http://localhost:3000')].sort()).toEqual(['http://127.0.0.1:3000', 'http://[::1]:3000', 'http://localhost:3000']);
    expect([...allowedOrigins('http://127.0.0.1')].sort()).toEqual(['http://127.0.0.1', 'http://[::1]', 'http://localhost']);
  });
});
