import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../lib/logger';
import { errors } from '../errors';
import { rateLimit } from '../rate-limit';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function serve(app: Koa): Promise<string> {
  server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/x`;
}

describe('rateLimit', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('allows max requests per window, then 429 with Retry-After until the window ends', async () => {
    // rate-limiter-flexible reads the time with Date.now(): move the system clock.
    let now = Date.parse('2026-01-01T00:00:00Z');
    vi.useFakeTimers({ toFake: ['Date'], now });
    const app = new Koa();
    app.use(errors({ logger: createLogger({ level: 'silent' }) }));
    app.use(rateLimit({ windowMs: 10 * 60_000, max: 5, keyPrefix: 'contact' }));
    app.use((ctx) => {
      ctx.body = { ok: true };
    });
    const url = await serve(app);

    for (let i = 0; i < 5; i++) expect((await fetch(url)).status).toBe(200);
    const limited = await fetch(url);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('600');
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limited' } });

    now += 9 * 60_000;
    vi.setSystemTime(now);
    const stillLimited = await fetch(url);
    expect(stillLimited.status).toBe(429);
    expect(stillLimited.headers.get('retry-after')).toBe('60');

    now += 60_000;
    vi.setSystemTime(now);
    expect((await fetch(url)).status).toBe(200);
  });

  it('keeps separate budgets per key prefix and per client', async () => {
    const app = new Koa();
    app.use(errors({ logger: createLogger({ level: 'silent' }) }));
    const byHeader = (ctx: Koa.Context) => ctx.get('x-client');
    app.use(rateLimit({ windowMs: 60_000, max: 1, keyPrefix: 'a', key: byHeader }));
    app.use(rateLimit({ windowMs: 60_000, max: 1, keyPrefix: 'b', key: byHeader }));
    app.use((ctx) => {
      ctx.body = 'ok';
    });
    const url = await serve(app);
    expect((await fetch(url, { headers: { 'x-client': 'one' } })).status).toBe(200);
    expect((await fetch(url, { headers: { 'x-client': 'two' } })).status).toBe(200);
    expect((await fetch(url, { headers: { 'x-client': 'one' } })).status).toBe(429);
  });
});
