import { copyFile, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { healthSchema } from '@site/contracts/manifest';
import { alertHistorySchema } from '@site/contracts/admin';
import { releaseErrorsSchema } from '@site/contracts/release-errors';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { describeNeedingBuild, REPO_ROOT, serverEntriesMissing } from '../../test-support/built-site';
import { createSiteFixture, MANIFESTS, renderingBlogEntry, type SiteFixture } from '../../test-support/site-fixture';
import { SERVE_BUILDS_IN_PLACE, startTestServer, type TestServer } from '../../test-support/test-server';
import { fetchFrom } from '../../test-support/from-address';

/*
 * Errors per release (issue 34) through the real server: the built shell's server entry around a blog server module
 * that renders, then a release of it that throws on render, on a fixture site root and a clock the test moves.
 */

/** What a person's browser sends (Chrome 131 on Windows). */
const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CRAWLER_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const MIN_VIEWS = 10;

describeNeedingBuild('errors per release: a release whose server render throws (built shell server entry)', { missing: serverEntriesMissing() }, () => {
  let site: SiteFixture;
  let server: TestServer;
  let cookie: string;
  let now = Date.parse('2026-06-01T10:00:00.000Z');
  let release = 0;

  const deployBlog = async (version: string, throws: boolean) => {
    const entry = renderingBlogEntry('Fixture blog');
    await site.writeFile('mfe-blog/dist/server/entry.js', throws ? entry.replace('return {', "throw new Error('boom in render');\n  return {") : entry);
    await site.writeManifest('blog', { ...MANIFESTS.blog, version, server: { entry: 'server/entry.js' } });
    // The registry reads a dist's new manifest, then the server module it names: settled before the first visit.
    for (let i = 0; i < 2; i++) await fetch(`${server.url}/remotes.json`);
  };
  const visit = (ua = BROWSER_UA) => fetch(`${server.url}/blog`, { headers: { accept: 'text/html', 'user-agent': ua } }).then(async (r) => ({ status: r.status, html: await r.text() }));
  const health = async (withAdmin = false) => {
    const response = await fetch(`${server.url}/api/health`, withAdmin ? { headers: { cookie } } : {});
    return { status: response.status, body: healthSchema.parse(await response.json()) };
  };
  const table = async () => releaseErrorsSchema.parse(await (await fetch(`${server.url}/api/admin/release-errors`, { headers: { cookie } })).json());
  const rowOf = async (version: string) => (await table()).releases.find((r) => r.app === 'blog' && r.release === version);
  const alerts = async () => alertHistorySchema.parse(await (await fetch(`${server.url}/api/admin/alerts?limit=50`, { headers: { cookie } })).json()).alerts;

  beforeAll(async () => {
    site = await createSiteFixture();
    await mkdir(path.join(site.root, 'shell/dist/server'), { recursive: true });
    await copyFile(path.join(REPO_ROOT, 'shell/dist/server/entry.js'), path.join(site.root, 'shell/dist/server/entry.js'));
    await symlink(path.join(REPO_ROOT, 'shell/node_modules'), path.join(site.root, 'node_modules'), 'dir');
    await site.writeFile('mfe-blog/dist/server/entry.js', renderingBlogEntry('Fixture blog'));
    await site.writeManifest('blog', { ...MANIFESTS.blog, version: '2.0.0', server: { entry: 'server/entry.js' } });
    server = await startTestServer({
      siteRoot: site.root,
      env: { ...SERVE_BUILDS_IN_PLACE, ...ADMIN_ENV, SSR_TIMEOUT_MS: '2000', RELEASE_ERROR_MIN_PAGE_VIEWS: String(MIN_VIEWS), RELEASE_ERROR_RATE_PERCENT: '2' },
      deps: { clock: () => new Date(now) },
    });
    cookie = await adminCookie(server);
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });
  beforeEach(() => {
    // Each test starts past the window of the one before.
    now += 60 * 60_000;
  });

  it('counts every visitor’s page against the served release, a kept page too, and no crawler’s', async () => {
    const version = `2.1.${++release}`;
    await deployBlog(version, false);
    for (let i = 0; i < 4; i++) expect((await visit()).status).toBe(200);
    await visit(CRAWLER_UA);
    await fetch(`${server.url}/blog`, { method: 'HEAD', headers: { accept: 'text/html', 'user-agent': BROWSER_UA } });
    const row = await rowOf(version);
    expect(row).toMatchObject({ served: true, window: { pageViews: 4, renderErrors: 0, clientErrors: 0, rate: 0 }, failing: false });
    expect((await health()).body.status).toBe('ok');
  });

  it('a release that throws on render: counted, /api/health degraded, an alert raised, then cleared when it stops failing', async () => {
    const bad = `2.2.${++release}-throws`;
    await deployBlog(bad, true);
    for (let i = 0; i < MIN_VIEWS; i++) {
      const page = await visit();
      // The visitor still gets the page (rendered in the browser), as before: now it is counted.
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('<h1>Fixture blog</h1>');
    }
    expect(await rowOf(bad)).toMatchObject({ served: true, window: { pageViews: MIN_VIEWS, renderErrors: MIN_VIEWS, clientErrors: 0, rate: 1 }, failing: true });

    // Anyone: degraded, still 200 (the instance is fine). An admin: which release and its figures.
    const publicHealth = await health();
    expect(publicHealth).toMatchObject({ status: 200, body: { status: 'degraded', db: 'ok' } });
    expect(publicHealth.body.remotes.blog).toEqual({ version: bad });
    expect((await health(true)).body.remotes.blog?.errors).toEqual({ pageViews: MIN_VIEWS, renderErrors: MIN_VIEWS, clientErrors: 0, rate: 1, failing: true });

    // The dashboard's Health checks: the blog's check is a warning saying so.
    const checks = await (await fetch(`${server.url}/api/admin/health/refresh`, { method: 'POST', headers: { cookie, origin: server.config.publicOrigin } })).json();
    const blogCheck = (checks as { checks: Array<{ id: string; status: string; message: string }> }).checks.find((c) => c.id === 'remote:blog');
    expect(blogCheck).toMatchObject({ status: 'warning', message: expect.stringContaining(`Release ${bad} is failing: ${MIN_VIEWS} server render errors`) });

    // The alert: raised once, however often the check runs.
    expect(await server.instance.services.releaseErrors.check()).toEqual({ started: [`blog@${bad}`], stopped: [] });
    expect(await server.instance.services.releaseErrors.check()).toEqual({ started: [], stopped: [] });
    const raised = (await alerts()).filter((a) => a.title === `Release ${bad} of blog is failing`);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ type: 'errors', severity: 'high', acknowledged: false });
    expect(raised[0]!.message).toContain(`${MIN_VIEWS} server render errors and 0 browser errors from 0 visitors in ${MIN_VIEWS} page views (100%)`);

    // Fixed by the next release, and 16 minutes later the failing one's window is empty: cleared.
    const fixed = `2.3.${++release}`;
    await deployBlog(fixed, false);
    for (let i = 0; i < MIN_VIEWS; i++) await visit();
    expect((await health()).body.status).toBe('ok');
    now += 16 * 60_000;
    expect(await server.instance.services.releaseErrors.check()).toEqual({ started: [], stopped: [`blog@${bad}`] });
    const after = await alerts();
    expect(after.find((a) => a.id === raised[0]!.id)).toMatchObject({ acknowledged: true });
    expect(after.find((a) => a.title === `Release ${bad} of blog is no longer failing`)).toMatchObject({ type: 'errors', severity: 'low' });
  });

  it('fewer page views than the minimum say nothing yet: not failing, health ok', async () => {
    const bad = `2.4.${++release}-throws`;
    await deployBlog(bad, true);
    for (let i = 0; i < MIN_VIEWS - 1; i++) await visit();
    expect(await rowOf(bad)).toMatchObject({ window: { pageViews: MIN_VIEWS - 1, renderErrors: MIN_VIEWS - 1 }, failing: false });
    expect((await health()).body.status).toBe('ok');
    await visit();
    expect((await health()).body.status).toBe('degraded');
    // Out of the window (15 minutes): no longer degraded.
    now += 16 * 60_000;
    expect((await health()).body.status).toBe('ok');
  });
});

describe('errors per release: the browser’s reports (POST /api/events)', () => {
  let site: SiteFixture;
  let server: TestServer;
  let cookie: string;
  const ORIGIN = 'https://example.test';
  const SERVED = MANIFESTS.blog.version;
  const send = (body: unknown, ua = BROWSER_UA, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/api/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, 'user-agent': ua, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const failure = (props: Record<string, unknown>) => ({ name: 'remote_error', path: '/blog', props: { app: 'blog', release: SERVED, kind: 'render', ...props } });
  const view = (release = SERVED) => ({ name: 'remote_view', path: '/blog/a-post', props: { app: 'blog', release } });
  /** What the shell asks for once per page load: the page-view token its release reports carry (issue 51). */
  const pageToken = async () => {
    const response = await fetch(`${server.url}/page-token.json`, { headers: { 'user-agent': BROWSER_UA } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    return ((await response.json()) as { token: string }).token;
  };
  const windowOf = async () => (await blogRow())?.window ?? { pageViews: 0, clientErrors: 0 };
  const blogRow = async (version = SERVED) =>
    releaseErrorsSchema.parse(await (await fetch(`${server.url}/api/admin/release-errors`, { headers: { cookie } })).json()).releases.find((r) => r.app === 'blog' && r.release === version);

  beforeAll(async () => {
    site = await createSiteFixture();
    // A clock that stands still: the per-address cap counts per minute, and no test here may straddle two.
    const now = Date.now();
    server = await startTestServer({ siteRoot: site.root, env: { ...SERVE_BUILDS_IN_PLACE, ...ADMIN_ENV, METRICS_TOKEN: 'metrics-token-of-the-test' }, deps: { clock: () => new Date(now) } });
    cookie = await adminCookie(server);
  });
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  it('counts a client error and a move inside the site against the app and release; keeps the message as text', async () => {
    const message = '<img src=x onerror=alert(1)> TypeError: post.title is undefined';
    const response = await send({ events: [failure({ message }), view()], token: await pageToken() });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: true, recorded: 2 });
    const row = await blogRow();
    expect(row).toMatchObject({ served: true, window: { pageViews: 1, clientErrors: 1, renderErrors: 0 }, lastError: message });
    // Nothing of it is stored as a tracking event (one row per event): only the release's counters.
    expect(await server.instance.db.selectFrom('events').select('name').where('name', 'in', ['remote_error', 'remote_view']).execute()).toEqual([]);
  });

  it('does not count crawlers, prefetches, or a release the server never served', async () => {
    const before = (await blogRow())!.window.clientErrors;
    expect(await (await send(failure({}), CRAWLER_UA)).json()).toEqual({ accepted: true, recorded: 0 });
    expect(await (await send(failure({}), 'curl/8.5.0')).json()).toEqual({ accepted: true, recorded: 0 });
    expect(await (await send(failure({}), BROWSER_UA, { 'sec-purpose': 'prefetch' })).json()).toEqual({ accepted: true, recorded: 0 });
    expect(await (await send(failure({ release: '9.9.9-made-up' }))).json()).toEqual({ accepted: true, recorded: 0 });
    expect((await blogRow())!.window.clientErrors).toBe(before);
    expect(await blogRow('9.9.9-made-up')).toBeUndefined();
  });

  it('forged reports move no count: no token, a made-up or altered token, a token of another release, a replayed token past its cap', async () => {
    const before = await windowOf();
    const token = await pageToken();
    const [payload, mac] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { r: Record<string, string> };
    expect(claims.r.blog).toBe(SERVED);
    const altered = `${Buffer.from(JSON.stringify({ ...claims, r: { ...claims.r, blog: '9.9.9' } })).toString('base64url')}.${mac}`;
    // What the script sent: an Origin header and a browser's User-Agent, and nothing the server issued.
    for (let i = 0; i < 16; i++) expect(await (await send({ events: [failure({}), view()] })).json()).toEqual({ accepted: true, recorded: 0 });
    for (const forged of ['not-a-token', `${payload}.${'A'.repeat(43)}`, altered]) expect(await (await send({ events: [failure({}), view()], token: forged })).json()).toEqual({ accepted: true, recorded: 0 });
    // A valid token counts only against the release it names, and only so often: one error, five moves inside the site.
    expect(await (await send({ events: [failure({ release: '9.9.9' }), view('9.9.9')], token })).json()).toEqual({ accepted: true, recorded: 0 });
    expect(await (await send({ events: [failure({}), failure({ message: 'another' }), view(), view(), view()], token })).json()).toEqual({ accepted: true, recorded: 4 });
    for (let i = 0; i < 5; i++) await send({ events: [failure({}), view()], token });
    expect(await (await send({ events: [failure({}), view()], token })).json()).toEqual({ accepted: true, recorded: 0 });
    expect(await windowOf()).toMatchObject({ pageViews: before.pageViews + 5, clientErrors: before.clientErrors + 1 });
  });

  it('caps what one address counts in a minute, however many tokens it holds', async () => {
    const before = await windowOf();
    let counted = 0;
    for (let i = 0; i < 30; i++) counted += ((await (await send({ events: [failure({})], token: await pageToken() })).json()) as { recorded: number }).recorded;
    // 20 a minute from one address (the tests above used some of this minute's).
    expect(counted).toBeLessThanOrEqual(20);
    expect(counted).toBeGreaterThan(0);
    expect((await windowOf()).clientErrors - before.clientErrors).toBe(counted);
  });

  it('refuses malformed and oversized reports with 4xx, naming the field', async () => {
    const refused = async (body: unknown, status = 400) => {
      const response = await send(body);
      expect(response.status, JSON.stringify(body).slice(0, 200)).toBe(status);
      return ((await response.json()) as { error: { details?: Array<{ path: string }> } }).error;
    };
    expect((await refused(failure({ app: 'shop' }))).details?.[0]?.path).toBe('props.app');
    expect((await refused(failure({ release: 'not a version; drop table' }))).details?.[0]?.path).toBe('props.release');
    expect((await refused(failure({ kind: 'boom' }))).details?.[0]?.path).toBe('props.kind');
    expect((await refused(failure({ message: 'x'.repeat(201) }))).details?.[0]?.path).toBe('props.message');
    // A stack trace is not part of the report.
    expect(await refused(failure({ stack: 'at render (entry.js:1:1)' }))).toBeTruthy();
    expect(await refused({ name: 'remote_error', path: '/blog' })).toBeTruthy();
    expect(await refused({ name: 'remote_view', path: '/blog', props: { app: 'blog', release: SERVED, referrer: 'direct' } })).toBeTruthy();
    // Bigger than BODY_LIMIT: refused before it is read.
    await refused(JSON.stringify(failure({ message: 'x'.repeat(200_000) })), 413);
  });

  it('puts the counts on /metrics, labelled only by releases it keeps a name for', async () => {
    const service = server.instance.services.releaseErrors;
    // A deploy after deploy: this process names the served one and the last few, never more.
    for (let i = 1; i <= 6; i++) service.pageView('blog', `3.0.${i}`);
    for (let i = 0; i < 20; i++) await send({ events: [failure({ release: `7.0.${i}` })], token: await pageToken() });
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-of-the-test' } })).text();
    const releasesLabelled = new Set([...text.matchAll(/^site_release_page_views_total\{app="blog",release="([^"]+)"\}/gm)].map((m) => m[1]));
    expect(releasesLabelled.size).toBeLessThanOrEqual(3);
    expect(releasesLabelled).toContain('3.0.6');
    expect(text).not.toContain('release="7.0.');
    expect(text).toMatch(/^site_release_client_errors_total\{app="blog",release="[^"]+"\} \d+$/m);
    expect(text).toMatch(new RegExp(`^site_release_error_rate\\{app="blog",release="${SERVED.replaceAll('.', '\\.')}"\\} [\\d.]+$`, 'm'));
    expect(text).toMatch(new RegExp(`^site_release_failing\\{app="blog",release="${SERVED.replaceAll('.', '\\.')}"\\} 0$`, 'm'));
    // The visitor's message is never a metric.
    expect(text).not.toContain('onerror');
  });

  /** A visitor at its own loopback address: its page load's token, then one error report with it. Answers how many counted. */
  const reportFrom = async (address: string) => {
    const token = await fetchFrom(address, `${server.url}/page-token.json`, { headers: { 'user-agent': BROWSER_UA } });
    expect(token.status).toBe(200);
    const sent = await fetchFrom(address, `${server.url}/api/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, 'user-agent': BROWSER_UA },
      body: JSON.stringify({ events: [failure({ message: 'TypeError: from a visitor' })], token: (JSON.parse(token.text) as { token: string }).token }),
    });
    return (JSON.parse(sent.text) as { recorded: number }).recorded;
  };
  const publicStatus = async () => healthSchema.parse(await (await fetch(`${server.url}/api/health`)).json()).status;

  // Runs last here: it leaves the served release failing, and this describe's clock stands still.
  it('browser errors from fewer than 5 distinct visitors never make health degraded nor the release failing; from 5 they do', async () => {
    // Plenty of page views (the server's own count of its pages), so that only the reporters stand in the way.
    for (let i = 0; i < 100; i++) server.instance.services.releaseErrors.pageView('blog', SERVED);
    const start = (await blogRow())!.window;
    expect(start.clientReporters).toBeLessThan(5);
    // One address sends as much as it can: its 20 reports of the minute, each with a page load's token.
    let counted = 0;
    for (let i = 0; i < 25; i++) counted += await reportFrom('127.0.0.2');
    expect(counted).toBe(20);
    // More distinct visitors, each one report, up to one short of 5.
    const others = ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'].slice(0, Math.max(0, 4 - (start.clientReporters ?? 0) - 1));
    for (const address of others) expect(await reportFrom(address)).toBe(1);
    const few = (await blogRow())!;
    expect(few.window).toMatchObject({ clientReporters: 4, clientErrors: start.clientErrors + 20 + others.length, renderErrors: 0, rate: 0 });
    expect(few.failing).toBe(false);
    expect(await publicStatus()).toBe('ok');
    expect(await server.instance.services.releaseErrors.check()).toEqual({ started: [], stopped: [] });

    // The fifth distinct visitor: now the browser errors count.
    expect(await reportFrom('127.0.0.7')).toBe(1);
    const enough = (await blogRow())!;
    expect(enough.window.clientReporters).toBe(5);
    expect(enough.window.rate).toBeCloseTo(enough.window.clientErrors / enough.window.pageViews);
    expect(enough.failing).toBe(true);
    expect(await publicStatus()).toBe('degraded');
    expect(await server.instance.services.releaseErrors.check()).toEqual({ started: [`blog@${SERVED}`], stopped: [] });
    const alerts = alertHistorySchema.parse(await (await fetch(`${server.url}/api/admin/alerts?limit=20`, { headers: { cookie } })).json()).alerts;
    expect(alerts.find((a) => a.title === `Release ${SERVED} of blog is failing`)?.message).toContain(`${enough.window.clientErrors} browser errors from 5 visitors in ${enough.window.pageViews} page views`);
  });
});

describe('GET /page-token.json: a rate limit per address', () => {
  let site: SiteFixture;
  let server: TestServer;
  beforeAll(async () => {
    site = await createSiteFixture();
    server = await startTestServer({ siteRoot: site.root, env: { ...SERVE_BUILDS_IN_PLACE } });
  });
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  it('answers 120 a minute from one address, then 429 with Retry-After; another address is not held back', async () => {
    const ask = (address: string) => fetchFrom(address, `${server.url}/page-token.json`, { headers: { 'user-agent': BROWSER_UA } });
    for (let i = 0; i < 120; i++) expect((await ask('127.0.0.20')).status).toBe(200);
    const refused = await ask('127.0.0.20');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(refused.text)).toMatchObject({ error: { code: 'rate_limited' } });
    expect((await ask('127.0.0.21')).status).toBe(200);
  });
});
