import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../lib/logger';
import { errors } from '../errors';
import { waitFor } from '../../test-support/site-client';
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

  it('counts an IPv6 client per /64 by default, and IPv4 per address', async () => {
    const app = new Koa({ proxy: true });
    app.use(errors({ logger: createLogger({ level: 'silent' }) }));
    app.use(rateLimit({ windowMs: 60_000, max: 1, keyPrefix: 'per-client' }));
    app.use((ctx) => {
      ctx.body = 'ok';
    });
    const url = await serve(app);
    const from = async (ip: string) => (await fetch(url, { headers: { 'x-forwarded-for': ip } })).status;
    expect(await from('2001:db8:1:2::1')).toBe(200);
    expect(await from('2001:db8:1:2:aaaa::7')).toBe(429);
    expect(await from('2001:db8:1:3::1')).toBe(200);
    expect(await from('192.0.2.1')).toBe(200);
    expect(await from('::ffff:192.0.2.1')).toBe(429);
    expect(await from('::ffff:192.0.2.2')).toBe(200);
  });

  it("counts a concurrent burst of failing requests against the 'failed' budget before they run", async () => {
    const app = new Koa();
    app.use(errors({ logger: createLogger({ level: 'silent' }) }));
    app.use(rateLimit({ windowMs: 60_000, max: 3, keyPrefix: 'invalid', count: 'failed' }));
    let ran = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    app.use(async (ctx) => {
      ran++;
      await released;
      ctx.status = 400;
      ctx.body = { error: { code: 'validation_failed', message: 'bad' } };
    });
    const url = await serve(app);

    let answered = 0;
    const burst = Array.from({ length: 12 }, () =>
      fetch(url).then((res) => {
        answered++;
        return res.status;
      }),
    );
    // Every request has either reached the handler or been refused; only then do the running ones fail.
    await waitFor(() => ran + answered === 12, 5000, 'the burst to be let in or refused');
    release();
    const statuses = await Promise.all(burst);
    expect(ran).toBe(3);
    expect(statuses.filter((s) => s === 400)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(9);
  });
});
