import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEPLOY_MESSAGES,
  DEPLOY_TOKEN_LIMITS,
  deployLogPageSchema,
  deployTokenCreatedSchema,
  deployTokenListSchema,
  type DeployLogEntry,
} from '@site/contracts/deploys';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { createLogger } from '../../lib/logger';
import { ForbiddenError, UnauthorizedError } from '../../lib/domain-errors';
import { INVALID_DEPLOY_CURSOR } from '../deploy-log';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function server(deps: NonNullable<Parameters<typeof startTestServer>[0]>['deps'] = {}) {
  const s = await startTestServer({ deps, env: ADMIN_ENV });
  cleanups.push(() => s.close());
  return s;
}

async function admin(s: TestServer, cookie: string, path: string, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(`${s.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { cookie, origin: s.config.publicOrigin, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined, text };
}

const errorOf = (body: Record<string, unknown> | undefined) => body?.error as { code: string; message: string; details?: Array<{ path: string; message: string }> };

describe('deploy tokens', () => {
  it('shows a new token once: the list never has it and the database keeps only its SHA-256', async () => {
    const s = await server();
    const cookie = await adminCookie(s);
    const created = await admin(s, cookie, '/api/admin/deploy-tokens', { method: 'POST', json: { name: '  blog CI ', apps: ['blog', 'blog'] } });
    expect(created.status).toBe(201);
    const token = deployTokenCreatedSchema.parse(created.body);
    expect(token.token).toMatch(/^dpl_[\w-]{43}$/);
    expect(token.id).toMatch(/^dtk_[0-9a-f]{16}$/);
    expect(token).toMatchObject({ name: 'blog CI', apps: ['blog'], lastUsedAt: null, lastUsedFrom: null });

    const list = await admin(s, cookie, '/api/admin/deploy-tokens');
    expect(list.status).toBe(200);
    expect(deployTokenListSchema.parse(list.body).tokens).toEqual([{ id: token.id, name: 'blog CI', apps: ['blog'], createdAt: token.createdAt, lastUsedAt: null, lastUsedFrom: null }]);
    expect(list.text).not.toContain(token.token);
    expect(list.text).not.toContain('token_hash');

    const rows = await s.instance.db.selectFrom('deploy_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token.token);
    expect(JSON.stringify(rows)).not.toContain(token.token.slice(4));
    expect(rows[0]!.token_hash).toBe(createHash('sha256').update(token.token).digest('hex'));

    // A second token: newest first.
    const second = deployTokenCreatedSchema.parse((await admin(s, cookie, '/api/admin/deploy-tokens', { method: 'POST', json: { name: 'shell CI', apps: ['shell', 'admin'] } })).body);
    expect(second.token).not.toBe(token.token);
    const ids = deployTokenListSchema.parse((await admin(s, cookie, '/api/admin/deploy-tokens')).body).tokens.map((t) => t.id);
    expect(ids).toEqual([second.id, token.id]);
  });

  it("answers a bad body 400 with the contract's messages", async () => {
    const s = await server();
    const cookie = await adminCookie(s);
    const cases: Array<[unknown, string, string]> = [
      [{ name: '', apps: ['blog'] }, 'name', DEPLOY_MESSAGES.name],
      [{ name: '   ', apps: ['blog'] }, 'name', DEPLOY_MESSAGES.name],
      [{ name: 'x'.repeat(DEPLOY_TOKEN_LIMITS.nameMax + 1), apps: ['blog'] }, 'name', DEPLOY_MESSAGES.name],
      [{ apps: ['blog'] }, 'name', DEPLOY_MESSAGES.name],
      [{ name: 'blog CI', apps: [] }, 'apps', DEPLOY_MESSAGES.apps],
      [{ name: 'blog CI' }, 'apps', DEPLOY_MESSAGES.apps],
      [{ name: 'blog CI', apps: 'blog' }, 'apps', DEPLOY_MESSAGES.apps],
    ];
    for (const [json, path, message] of cases) {
      const res = await admin(s, cookie, '/api/admin/deploy-tokens', { method: 'POST', json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      const err = errorOf(res.body);
      expect(err.code).toBe('validation_failed');
      expect(err.details).toContainEqual({ path, message });
    }
    // An app that is not one of the five.
    const unknownApp = await admin(s, cookie, '/api/admin/deploy-tokens', { method: 'POST', json: { name: 'x', apps: ['wordpress'] } });
    expect(unknownApp.status).toBe(400);
    expect(errorOf(unknownApp.body).details![0]!.path).toBe('apps.0');
    expect((await s.instance.db.selectFrom('deploy_tokens').selectAll().execute()).length).toBe(0);
  });

  it('needs the admin session and a same-site origin', async () => {
    const s = await server();
    expect((await fetch(`${s.url}/api/admin/deploy-tokens`)).status).toBe(401);
    expect((await fetch(`${s.url}/api/admin/deploys`)).status).toBe(401);
    const cookie = await adminCookie(s);
    const crossSite = await fetch(`${s.url}/api/admin/deploy-tokens`, {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', apps: ['blog'] }),
    });
    expect(crossSite.status).toBe(403);
  });

  it('authenticates a live token for its apps only, notes its last use, and refuses it once revoked, logging each refusal without the token', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
    const s = await server({ logger });
    const cookie = await adminCookie(s);
    const tokens = s.instance.services.deployTokens;
    const blog = deployTokenCreatedSchema.parse((await admin(s, cookie, '/api/admin/deploy-tokens', { method: 'POST', json: { name: 'blog CI', apps: ['blog'] } })).body);

    await expect(tokens.authenticate({ authorization: `Bearer ${blog.token}`, app: 'blog', from: '203.0.113.7' })).resolves.toEqual({ id: blog.id, name: 'blog CI', apps: ['blog'] });
    const [listed] = deployTokenListSchema.parse((await admin(s, cookie, '/api/admin/deploy-tokens')).body).tokens;
    expect(listed!.lastUsedFrom).toBe('203.0.113.7');
    expect(listed!.lastUsedAt).not.toBeNull();

    // A blog token may not deploy the shell.
    const wrongApp = await tokens.authenticate({ authorization: `Bearer ${blog.token}`, app: 'shell', from: '203.0.113.8' }).catch((e: unknown) => e);
    expect(wrongApp).toBeInstanceOf(ForbiddenError);
    expect(wrongApp).toMatchObject({ message: DEPLOY_MESSAGES.wrongApp('shell'), code: 'token_not_for_app' });

    // No token, a malformed header, a token never issued.
    for (const authorization of [undefined, '', blog.token, `Basic ${blog.token}`, 'Bearer ']) {
      const missing = await tokens.authenticate({ authorization, app: 'blog', from: '203.0.113.9' }).catch((e: unknown) => e);
      expect(missing, String(authorization)).toBeInstanceOf(UnauthorizedError);
      expect(missing).toMatchObject({ message: DEPLOY_MESSAGES.missingToken });
    }
    for (const authorization of [`Bearer ${blog.token}x`, 'Bearer dpl_nope', `Bearer ${blog.token.slice(4)}`]) {
      const bad = await tokens.authenticate({ authorization, app: 'blog', from: '203.0.113.9' }).catch((e: unknown) => e);
      expect(bad).toBeInstanceOf(UnauthorizedError);
      expect(bad).toMatchObject({ message: DEPLOY_MESSAGES.badToken });
    }

    // Revoked: it authenticates no more, and is gone from the list; revoking again is a 404.
    expect((await admin(s, cookie, `/api/admin/deploy-tokens/${blog.id}`, { method: 'DELETE' })).status).toBe(204);
    const revoked = await tokens.authenticate({ authorization: `Bearer ${blog.token}`, app: 'blog', from: '198.51.100.1' }).catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(UnauthorizedError);
    expect(revoked).toMatchObject({ message: DEPLOY_MESSAGES.badToken });
    expect(deployTokenListSchema.parse((await admin(s, cookie, '/api/admin/deploy-tokens')).body).tokens).toEqual([]);
    const again = await admin(s, cookie, `/api/admin/deploy-tokens/${blog.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(errorOf(again.body)).toMatchObject({ code: 'deploy_token_not_found', message: DEPLOY_MESSAGES.notFound });
    expect((await admin(s, cookie, '/api/admin/deploy-tokens/dtk_0000000000000000', { method: 'DELETE' })).status).toBe(404);

    // Every refusal is a warning with the address (and the token id when it is one we issued), never the token.
    const warnings = lines.filter((l) => l.msg === 'deploy token refused');
    expect(warnings).toHaveLength(1 + 5 + 3 + 1);
    expect(warnings.every((l) => l.level === 40)).toBe(true);
    expect(warnings[0]!.deploy).toEqual({ from: '203.0.113.8', app: 'shell', tokenId: blog.id, reason: 'wrong_app' });
    expect(warnings.at(-1)!.deploy).toEqual({ from: '198.51.100.1', app: 'blog', tokenId: blog.id, reason: 'revoked' });
    expect(JSON.stringify(lines)).not.toContain(blog.token.slice(4));
  });

  it(`keeps at most ${DEPLOY_TOKEN_LIMITS.tokensMax} live tokens, a burst of creates included`, async () => {
    const s = await server();
    const cookie = await adminCookie(s);
    const create = (name: string) => admin(s, cookie, '/api/admin/deploy-tokens', { method: 'POST', json: { name, apps: ['marketing'] } });
    for (let i = 0; i < DEPLOY_TOKEN_LIMITS.tokensMax - 3; i++) expect((await create(`team ${i}`)).status).toBe(201);
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => create(`burst ${i}`)));
    for (const res of burst) {
      expect([201, 409]).toContain(res.status);
      if (res.status === 409) expect(errorOf(res.body)).toMatchObject({ code: 'deploy_token_limit', message: DEPLOY_MESSAGES.tooMany });
    }
    const live = () => admin(s, cookie, '/api/admin/deploy-tokens').then((r) => deployTokenListSchema.parse(r.body).tokens);
    expect((await live()).length).toBeLessThanOrEqual(DEPLOY_TOKEN_LIMITS.tokensMax);
    while ((await live()).length < DEPLOY_TOKEN_LIMITS.tokensMax) expect((await create('filler')).status).toBe(201);
    const over = await create('one too many');
    expect(over.status).toBe(409);
    expect(errorOf(over.body).message).toBe(DEPLOY_MESSAGES.tooMany);
    // A revoked token frees its place.
    const [newest] = await live();
    expect((await admin(s, cookie, `/api/admin/deploy-tokens/${newest!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await create('after a revoke')).status).toBe(201);
    expect((await live()).length).toBe(DEPLOY_TOKEN_LIMITS.tokensMax);
  });
});

describe('deploy log in the admin', () => {
  it('pages the log newest first by cursor, filters by app, and refuses a bad cursor', async () => {
    const s = await server();
    const cookie = await adminCookie(s);
    const log = s.instance.services.deployLog;
    const empty = await admin(s, cookie, '/api/admin/deploys');
    expect(empty.status).toBe(200);
    expect(deployLogPageSchema.parse(empty.body)).toMatchObject({ entries: [], nextCursor: null, canaries: [] });

    const base = Date.parse('2026-11-27T08:00:00.000Z');
    const seeded: DeployLogEntry[] = [];
    for (let i = 0; i < 7; i++) {
      seeded.push(
        await log.record({
          at: new Date(base + i * 60_000).toISOString(),
          app: i % 2 === 0 ? 'blog' : 'shell',
          action: i === 5 ? 'rollback' : 'deploy',
          version: `v${i}`,
          previous: i === 0 ? null : `v${i - 1}`,
          result: i === 3 ? 'refused' : 'ok',
          by: i === 3 ? 'shell CI' : 'blog CI',
          from: '203.0.113.7',
          message: i === 3 ? 'This deploy token may not deploy shell.' : null,
        }),
      );
    }
    // Two entries at the same millisecond: both come, once each (the id breaks the tie).
    seeded.push(await log.record({ at: seeded[6]!.at, app: 'blog', action: 'deploy', version: 'v7', previous: 'v6', result: 'failed', by: 'npm run deploy', from: null, message: 'disk full' }));

    const seen: DeployLogEntry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await admin(s, cookie, `/api/admin/deploys?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      const page = deployLogPageSchema.parse(res.body);
      seen.push(...page.entries);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((e) => e.id).sort()).toEqual(seeded.map((e) => e.id).sort());
    expect(new Set(seen.map((e) => e.id)).size).toBe(seeded.length);
    const ats = seen.map((e) => e.at);
    expect(ats).toEqual([...ats].sort().reverse());
    expect(seen.find((e) => e.version === 'v3')).toMatchObject({ result: 'refused', message: 'This deploy token may not deploy shell.', from: '203.0.113.7' });

    const blogOnly = deployLogPageSchema.parse((await admin(s, cookie, '/api/admin/deploys?app=blog&limit=100')).body);
    const versions = blogOnly.entries.map((e) => e.version);
    // v6 and v7 share their millisecond: their order is their ids'.
    expect(versions.slice(0, 2).sort()).toEqual(['v6', 'v7']);
    expect(versions.slice(2)).toEqual(['v4', 'v2', 'v0']);
    expect(blogOnly.entries.every((e) => e.app === 'blog')).toBe(true);
    expect(blogOnly.nextCursor).toBeNull();
    // An empty filter field counts as none (the screen's "All apps").
    expect(deployLogPageSchema.parse((await admin(s, cookie, '/api/admin/deploys?app=&limit=100')).body).entries).toHaveLength(8);

    const badCursor = await admin(s, cookie, '/api/admin/deploys?cursor=not-a-cursor');
    expect(badCursor.status).toBe(400);
    expect(errorOf(badCursor.body)).toMatchObject({ code: 'invalid_cursor', message: INVALID_DEPLOY_CURSOR });
    expect((await admin(s, cookie, '/api/admin/deploys?app=wordpress')).status).toBe(400);
    expect((await admin(s, cookie, '/api/admin/deploys?limit=101')).status).toBe(400);
  });
});
