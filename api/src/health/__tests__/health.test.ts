import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthSchema } from '@site/contracts/manifest';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { createSiteFixture, type SiteFixture } from '../../test-support/site-fixture';
import { SERVE_BUILDS_IN_PLACE, startTestServer, type TestServer } from '../../test-support/test-server';

describe('GET /api/health', () => {
  let site: SiteFixture;
  let server: TestServer;

  beforeAll(async () => {
    site = await createSiteFixture();
    server = await startTestServer({ siteRoot: site.root, env: { ...SERVE_BUILDS_IN_PLACE, ...ADMIN_ENV, ...SERVE_BUILDS_IN_PLACE } });
  });
  afterAll(async () => {
    await server.close();
    await site.cleanup();
  });

  it('reports the database and the version of each deployed remote', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(healthSchema.parse(await response.json())).toEqual({
      status: 'ok',
      version: expect.any(String),
      db: 'ok',
      // Anyone sees whether the data disk has room; why not (files, free bytes) is the admin's.
      disk: 'ok',
      remotes: { marketing: { version: '1.2.3' }, blog: { version: '0.9.0' }, admin: { version: '3.0.0' } },
    });
  });

  it('tells an admin session whether each remote’s files and server module load', async () => {
    const NO_ERRORS = { pageViews: 0, renderErrors: 0, clientErrors: 0, rate: null, failing: false };
    const response = await fetch(`${server.url}/api/health`, { headers: { cookie: await adminCookie(server) } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = healthSchema.parse(await response.json());
    expect(body).toEqual({
      status: 'ok',
      version: expect.any(String),
      db: 'ok',
      // The fixture has no analysis dist: an absent remote is simply not listed. Only the blog has a server module.
      remotes: {
        // Served from each dist in place (no release pointer yet), since this server started serving it; no page
        // views or errors yet in the window.
        marketing: { version: '1.2.3', remoteEntry: 'ok', serverEntry: 'none', since: expect.any(String), errors: NO_ERRORS },
        blog: { version: '0.9.0', remoteEntry: 'ok', serverEntry: 'ok', since: expect.any(String), errors: NO_ERRORS },
        admin: { version: '3.0.0', remoteEntry: 'ok', serverEntry: 'none', since: expect.any(String), errors: NO_ERRORS },
      },
      // No page was asked for yet: nothing kept, no ratio.
      renderCache: { hits: 0, staleHits: 0, misses: 0, coalesced: 0, entries: 0, bytes: 0, maxBytes: 64 * 1024 * 1024, hitRatio: null },
      disk: 'ok',
      diskDetail: { freeBytes: expect.any(Number) },
    });
  });

  it('answers 405 with Allow for a method it does not support', async () => {
    const response = await fetch(`${server.url}/api/health`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(await response.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  it('answers 503 down, naming the database, when the database is down', async () => {
    await server.instance.database.close();
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(503);
    expect(healthSchema.parse(await response.json())).toMatchObject({ status: 'down', db: 'down', down: ['database'] });
  });
});
