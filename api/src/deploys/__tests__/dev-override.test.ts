import { copyFile, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { deployTokenCreatedSchema, devOverrideCreatedSchema, DEV_OVERRIDE_MESSAGES } from '@site/contracts/deploys';
import { createDevOverrideTokens } from '../../site/releases/dev-override-tokens';
import { newSigningKey, trustedKeyEntry } from '../../site/releases/release-signature';
import { signDists } from '../../test-support/signed-dists';
import { ADMIN_ENV, adminCookie, TEST_ADMIN_PASSWORD } from '../../test-support/admin-session';
import { describeNeedingBuild, missingFiles, REPO_ROOT } from '../../test-support/built-site';
import { createSiteFixture, MANIFESTS, renderingBlogEntry } from '../../test-support/site-fixture';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * Local development against the live site (issue 52, item 7), over HTTP as a developer and two browsers use it: the
 * blog's token asks for an override link naming a remote entry on the developer's computer; opening it shows a page that
 * says what it would do, and only its Turn on button (a POST from the site's own page) sets the cookie. That browser
 * gets that entry in its remotes map, its origin in its pages' CSP, the blog rendered in the browser (not on the
 * server) and a banner on every page, privately and outside the render cache; another browser gets the site as it is;
 * the cookie ends with its time (the app's clock); a plain http URL of another host, another app's token and no token
 * are refused. The admin never runs an override: not on its pages, not with a live admin session, and logging in ends
 * it; and a site that takes only signed releases accepts only an entry on the developer's own computer.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ENTRY = 'http://127.0.0.1:5174/mfe/blog/assets/remoteEntry.js';
const ORIGIN = 'http://127.0.0.1:5174';
const BANNER = 'Development override: <strong>blog</strong> from <strong>http://127.0.0.1:5174</strong>';
const mapOf = (html: string) => {
  const json = /<script type="application\/json" id="remotes-manifest">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return json ? (JSON.parse(json) as Record<string, { entry: string; version: string }>) : {};
};
const directive = (csp: string | null, name: string) => (csp ?? '').split('; ').find((d) => d.startsWith(`${name} `)) ?? '';

interface Site {
  server: TestServer;
  /** The admin's session cookie (`admin_session=…`), logged in as the admin panel does. */
  admin: string;
  blogToken: string;
  marketingToken: string;
  adminToken: string;
  advance(ms: number): void;
}

/** The site's origin (PUBLIC_ORIGIN of test servers): what the confirmation page's own form sends. */
const SITE_ORIGIN = 'https://example.test';
const FROM_SITE = { origin: SITE_ORIGIN, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' };
/** The words of a page, tags taken out. */
const textOf = (html: string) => html.replace(/<[^<>]*>/g, '').replace(/\s+/g, ' ');

/** Opens the link as a browser: the confirmation page (nothing set), then its Turn on button; returns the cookie. */
async function turnOn(s: Site, url: string, headers: Record<string, string> = {}): Promise<{ confirm: Response; page: string; turnedOn: Response; cookie: string }> {
  const link = new URL(url);
  const confirm = await fetch(`${s.server.url}${link.pathname}${link.search}`, { redirect: 'manual', headers: { accept: 'text/html', ...headers } });
  const page = await confirm.text();
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
  if (!action) throw new Error(`no Turn on form: ${confirm.status} ${page}`);
  const turnedOn = await fetch(`${s.server.url}${action}`, { method: 'POST', redirect: 'manual', headers: { ...FROM_SITE, ...headers } });
  return { confirm, page, turnedOn, cookie: (turnedOn.headers.get('set-cookie') ?? '').split(';')[0]! };
}

/** `signed`: the site takes only signed releases (RELEASE_TRUSTED_KEYS), its apps signed by the operator's key. */
async function start(env: Record<string, string> = {}, { signed = false } = {}): Promise<Site> {
  const site = await createSiteFixture();
  cleanups.push(() => site.cleanup());
  // The built shell's server entry and a blog that renders on the server, so "not rendered on the server" shows.
  await mkdir(path.join(site.root, 'shell/dist/server'), { recursive: true });
  await copyFile(path.join(REPO_ROOT, 'shell/dist/server/entry.js'), path.join(site.root, 'shell/dist/server/entry.js'));
  await symlink(path.join(REPO_ROOT, 'shell/node_modules'), path.join(site.root, 'node_modules'), 'dir');
  await site.writeFile('mfe-blog/dist/server/entry.js', renderingBlogEntry('Served blog'));
  await site.writeManifest('blog', { ...MANIFESTS.blog, server: { entry: 'server/entry.js' } });
  if (signed) {
    const operator = newSigningKey();
    await signDists(site.root, ['shell', 'marketing', 'blog', 'admin'], operator.privateKeyPem);
    env = { RELEASE_TRUSTED_KEYS: trustedKeyEntry(['*'], operator.publicKey), ...env };
  }
  let now = Date.parse('2026-06-01T10:00:00.000Z');
  const server = await startTestServer({
    siteRoot: site.root,
    env: { ...ADMIN_ENV, SSR_TIMEOUT_MS: '2000', RENDER_CACHE_MB: '8', ...env },
    deps: { clock: () => new Date(now) },
  });
  cleanups.push(() => server.close());
  const admin = await adminCookie(server);
  const token = async (name: string, apps: string[]) => {
    const created = await fetch(`${server.url}/api/admin/deploy-tokens`, {
      method: 'POST',
      headers: { cookie: admin, origin: server.config.publicOrigin, 'content-type': 'application/json' },
      body: JSON.stringify({ name, apps }),
    });
    return deployTokenCreatedSchema.parse(await created.json()).token;
  };
  return {
    server,
    admin,
    blogToken: await token('blog dev', ['blog', 'shell']),
    marketingToken: await token('marketing CI', ['marketing']),
    adminToken: await token('admin dev', ['admin']),
    advance: (ms) => void (now += ms),
  };
}

async function ask(s: Site, body: unknown, token: string | null, app = 'blog') {
  const res = await fetch(`${s.server.url}/api/releases/${app}/dev-override`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } & Record<string, unknown> };
}

/** What one browser gets of a page and of /remotes.json. */
async function visit(s: Site, pagePath: string, cookie?: string) {
  const headers: Record<string, string> = { accept: 'text/html', ...(cookie ? { cookie } : {}) };
  const page = await fetch(`${s.server.url}${pagePath}`, { headers });
  const html = await page.text();
  const remotes = await fetch(`${s.server.url}/remotes.json`, { headers });
  const csp = page.headers.get('content-security-policy');
  return {
    status: page.status,
    banner: html.includes(BANNER),
    renderedOnServer: html.includes('<div id="root" data-ssr="">'),
    servedBlogMarkup: html.includes('Served blog'),
    inlineEntry: mapOf(html).blog?.entry,
    preload: html.includes(`<link rel="modulepreload" href="${ENTRY}" crossorigin />`),
    scriptSrc: directive(csp, 'script-src').includes(ORIGIN),
    connectSrc: directive(csp, 'connect-src').includes(ORIGIN),
    styleSrc: directive(csp, 'style-src').includes(ORIGIN),
    cacheControl: page.headers.get('cache-control'),
    renderCache: page.headers.get('x-render-cache'),
    clearsCookie: /site_dev_override=;.*expires=Thu, 01 Jan 1970/i.test(page.headers.get('set-cookie') ?? ''),
    remotesJson: { entry: ((await remotes.json()) as { blog: { entry: string } }).blog.entry, cacheControl: remotes.headers.get('cache-control') },
  };
}

describeNeedingBuild('development overrides', { missing: missingFiles(['shell/dist/server/entry.js']) }, () => {
  it("gives the browser that opens the link the developer's blog, rendered in it, with a banner; no one else", async () => {
    const s = await start();
    const before = await visit(s, '/blog');
    expect(before).toMatchObject({ status: 200, banner: false, renderedOnServer: true, servedBlogMarkup: true, inlineEntry: '/mfe/blog/assets/remoteEntry.js', scriptSrc: false });

    const created = await ask(s, { entryUrl: ENTRY }, s.blogToken);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const override = devOverrideCreatedSchema.parse(created.body);
    expect(override).toMatchObject({ app: 'blog', entryUrl: ENTRY, expiresAt: '2026-06-01T18:00:00.000Z' });
    expect(override.url).toMatch(/^https:\/\/example\.test\/blog\?dev-override=[\w-]+\.[\w-]+$/);

    // The link asks first; Turn on: a cookie for this browser until the override's end, then the page without the token.
    const { confirm, page, turnedOn, cookie } = await turnOn(s, override.url);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('set-cookie')).toBeNull();
    expect(textOf(page)).toContain(
      "Development override for blog: this browser will run blog's code from http://127.0.0.1:5174 instead of the site's release, until 2026-06-01 18:00 UTC. Only continue if you started this yourself.",
    );
    expect(turnedOn.status).toBe(303);
    expect(turnedOn.headers.get('location')).toBe('/blog');
    expect(turnedOn.headers.get('set-cookie')).toMatch(/^site_dev_override=[\w-]+\.[\w-]+; path=\/; expires=Mon, 01 Jun 2026 18:00:00 GMT; samesite=lax; httponly$/);

    // That browser: the local entry in the page and in /remotes.json, its origin in the CSP, the blog left to the
    // browser (no server markup, the entry preloaded), the banner; private and never from the render cache.
    const developer = await visit(s, '/blog', cookie);
    expect(developer).toMatchObject({
      status: 200,
      banner: true,
      renderedOnServer: false,
      servedBlogMarkup: false,
      inlineEntry: ENTRY,
      preload: true,
      scriptSrc: true,
      connectSrc: true,
      styleSrc: true,
      cacheControl: 'private, no-cache',
      renderCache: 'bypass',
      remotesJson: { entry: ENTRY, cacheControl: 'private, no-cache' },
    });
    // Every page says so (the home page is another remote's, rendered on the server as usual), none kept for others.
    const home = await visit(s, '/', cookie);
    expect(home).toMatchObject({ status: 200, banner: true, inlineEntry: ENTRY, scriptSrc: true, cacheControl: 'private, no-cache', renderCache: 'bypass' });

    // Another browser, before and after: the site as it is, and the render cache holds no page of the override.
    const other = await visit(s, '/blog');
    expect(other).toMatchObject({ banner: false, renderedOnServer: true, servedBlogMarkup: true, inlineEntry: '/mfe/blog/assets/remoteEntry.js', scriptSrc: false, connectSrc: false });
    expect(other.remotesJson).toEqual({ entry: '/mfe/blog/assets/remoteEntry.js', cacheControl: 'no-cache' });
    expect(other.renderCache).toBe('hit');
    const otherHome = await visit(s, '/');
    expect(otherHome).toMatchObject({ banner: false, inlineEntry: '/mfe/blog/assets/remoteEntry.js', scriptSrc: false });

    // The banner's link leaves it.
    const leave = await fetch(`${s.server.url}/blog?dev-override=off`, { redirect: 'manual', headers: { cookie } });
    expect(leave.status).toBe(303);
    expect(leave.headers.get('location')).toBe('/blog');
    expect(leave.headers.get('set-cookie')).toMatch(/^site_dev_override=; path=\/; expires=Thu, 01 Jan 1970 00:00:00 GMT/);
  });

  it('ends with its time: the cookie then grants nothing and is cleared', async () => {
    const s = await start({ DEV_OVERRIDE_HOURS: '2' });
    const override = devOverrideCreatedSchema.parse((await ask(s, { entryUrl: ENTRY }, s.blogToken)).body);
    expect(override.expiresAt).toBe('2026-06-01T12:00:00.000Z');
    const link = new URL(override.url);
    const { cookie } = await turnOn(s, override.url);
    s.advance(2 * 3_600_000 - 1000);
    expect(await visit(s, '/blog', cookie)).toMatchObject({ banner: true, inlineEntry: ENTRY });
    s.advance(1000);
    // The browser would have dropped it; one that sends it anyway gets the site as it is, and the cookie goes.
    expect(await visit(s, '/blog', cookie)).toMatchObject({ banner: false, renderedOnServer: true, inlineEntry: '/mfe/blog/assets/remoteEntry.js', scriptSrc: false, clearsCookie: true });
    // The link itself has expired too; a link not signed by the site never worked.
    const late = await fetch(`${s.server.url}${link.pathname}${link.search}`, { redirect: 'manual' });
    expect(late.status).toBe(410);
    expect(await late.text()).toContain('the development override expired at 2026-06-01T12:00:00.000Z');
    const forged = await fetch(`${s.server.url}/blog?dev-override=${link.searchParams.get('dev-override')!.replace(/\.[\w-]+$/, '.AAAA')}`, { redirect: 'manual' });
    expect(forged.status).toBe(410);
    expect(forged.headers.get('set-cookie')).toBeNull();
  });

  it('refuses plain http from another host, a non-URL, the shell, another app\'s token and no token', async () => {
    const s = await start();
    for (const entryUrl of ['http://192.168.1.20:5174/mfe/blog/assets/remoteEntry.js', 'http://dev.example.com/remoteEntry.js', 'not a url', 'javascript:alert(1)', 'https://user:pw@cdn.example.com/remoteEntry.js']) {
      const refused = await ask(s, { entryUrl }, s.blogToken);
      expect(refused.status, entryUrl).toBe(400);
      expect(refused.body.error?.code, entryUrl).toBe('validation_failed');
    }
    expect((await ask(s, { entryUrl: 'http://192.168.1.20:5174/x.js' }, s.blogToken)).body.error?.message).toBe(
      'entryUrl: entryUrl must be https, or http on this computer (localhost, 127.0.0.1 or [::1]): a page of the site never loads code over plain http from another host.',
    );
    // https anywhere, and each loopback spelling over http, are accepted.
    for (const entryUrl of ['https://blog-dev.example.com/mfe/blog/assets/remoteEntry.js', 'http://localhost:5174/mfe/blog/assets/remoteEntry.js', 'http://[::1]:5174/mfe/blog/assets/remoteEntry.js']) {
      expect((await ask(s, { entryUrl }, s.blogToken)).status, entryUrl).toBe(201);
    }
    expect((await ask(s, {}, s.blogToken)).status).toBe(400);
    const shell = await ask(s, { entryUrl: 'http://localhost:5173/assets/index.js' }, s.blogToken, 'shell');
    expect([shell.status, shell.body.error?.code]).toEqual([400, 'dev_override_refused']);
    const adminApp = await ask(s, { entryUrl: 'http://localhost:5177/mfe/admin/assets/remoteEntry.js' }, s.adminToken, 'admin');
    expect([adminApp.status, adminApp.body.error?.code, adminApp.body.error?.message]).toEqual([400, 'dev_override_refused', DEV_OVERRIDE_MESSAGES.admin]);
    expect((await ask(s, { entryUrl: ENTRY }, s.marketingToken)).status).toBe(403);
    expect((await ask(s, { entryUrl: ENTRY }, s.marketingToken)).body.error?.code).toBe('token_not_for_app');
    const anonymous = await ask(s, { entryUrl: ENTRY }, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error?.code).toBe('deploy_token_missing');
  });
  it('asks before it turns on: opening the link sets nothing, a POST from another origin is refused, Cancel sets nothing', async () => {
    const s = await start();
    const override = devOverrideCreatedSchema.parse((await ask(s, { entryUrl: ENTRY }, s.blogToken)).body);
    const link = new URL(override.url);
    const token = link.searchParams.get('dev-override')!;
    // With another parameter of the page's own: kept by Cancel and by the page Turn on leads to.
    const address = `${s.server.url}/blog?utm_source=chat&dev-override=${token}`;

    const confirm = await fetch(address, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('set-cookie')).toBeNull();
    expect(confirm.headers.get('cache-control')).toBe('no-store');
    expect(confirm.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(confirm.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // No script at all: the page's own policy allows none.
    expect(confirm.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(confirm.headers.get('content-security-policy')).not.toContain('script-src');
    const page = await confirm.text();
    expect(page).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page).toContain(`<form method="post" action="/blog?utm_source=chat&amp;dev-override=${token}"`);
    expect(page).toMatch(/<button type="submit"[^>]*>Turn on<\/button>/);
    expect(page).toContain('<a class="button secondary" href="/blog?utm_source=chat">Cancel</a>');
    expect(page).not.toContain('<script');

    // Cancel: the page as every visitor gets it, and no cookie.
    const cancelled = await fetch(`${s.server.url}/blog?utm_source=chat`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.headers.get('set-cookie')).toBeNull();
    expect(await cancelled.text()).not.toContain(BANNER);

    // A page elsewhere posting the link (a form that submits itself), or a client naming no origin: refused, nothing set.
    for (const headers of [
      { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://attacker.example' },
      { origin: SITE_ORIGIN, 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-origin' },
      {},
    ] as Array<Record<string, string>>) {
      const posted = await fetch(address, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
      expect(posted.status, JSON.stringify(headers)).toBe(403);
      expect(posted.headers.get('set-cookie'), JSON.stringify(headers)).toBeNull();
      expect(await posted.text()).toContain('This request did not come from this site');
    }

    // The site's own form: the cookie, then the page without the token.
    const turnedOn = await fetch(address, { method: 'POST', redirect: 'manual', headers: FROM_SITE });
    expect(turnedOn.status).toBe(303);
    expect(turnedOn.headers.get('location')).toBe('/blog?utm_source=chat');
    expect(turnedOn.headers.get('set-cookie')).toMatch(/^site_dev_override=[\w-]+\.[\w-]+;/);
    // A POST of a token the site did not sign sets nothing either.
    const forged = await fetch(`${s.server.url}/blog?dev-override=${token.replace(/\.[\w-]+$/, '.AAAA')}`, { method: 'POST', redirect: 'manual', headers: FROM_SITE });
    expect([forged.status, forged.headers.get('set-cookie')]).toEqual([410, null]);
  });

  it('never runs in a browser with an admin session, nor on the admin pages; the page says to log out first', async () => {
    const s = await start();
    const override = devOverrideCreatedSchema.parse((await ask(s, { entryUrl: ENTRY }, s.blogToken)).body);
    const { cookie } = await turnOn(s, override.url);
    expect(await visit(s, '/blog', cookie)).toMatchObject({ banner: true, inlineEntry: ENTRY, scriptSrc: true });

    // Logged into the admin as well: every page is the site as it is (no entry, no origin in the CSP, no banner), and
    // the override cookie is left alone for after the logout.
    const both = `${cookie}; ${s.admin}`;
    for (const pagePath of ['/blog', '/']) {
      expect(await visit(s, pagePath, both), pagePath).toMatchObject({
        status: 200,
        banner: false,
        inlineEntry: '/mfe/blog/assets/remoteEntry.js',
        scriptSrc: false,
        connectSrc: false,
        clearsCookie: false,
        remotesJson: { entry: '/mfe/blog/assets/remoteEntry.js', cacheControl: 'no-cache' },
      });
    }
    // The admin's pages, even logged out: no override.
    expect(await visit(s, '/admin', cookie)).toMatchObject({ banner: false, inlineEntry: '/mfe/blog/assets/remoteEntry.js', scriptSrc: false });
    // A session cookie that is no session (logged out, expired, made up) withholds nothing.
    expect(await visit(s, '/blog', `${cookie}; admin_session=not-a-session`)).toMatchObject({ banner: true, inlineEntry: ENTRY });

    // The confirmation page, with an admin session cookie: no button, "Log out of the admin first"; a POST is refused.
    const link = new URL(override.url);
    const asAdmin = await fetch(`${s.server.url}${link.pathname}${link.search}`, { redirect: 'manual', headers: { accept: 'text/html', cookie: s.admin } });
    expect(asAdmin.status).toBe(200);
    const page = await asAdmin.text();
    expect(textOf(page)).toContain('Log out of the admin first');
    expect(page).not.toContain('<form');
    expect(page).toContain('>Cancel</a>');
    const posted = await fetch(`${s.server.url}${link.pathname}${link.search}`, { method: 'POST', redirect: 'manual', headers: { ...FROM_SITE, cookie: s.admin } });
    expect([posted.status, posted.headers.get('set-cookie')]).toEqual([403, null]);
    expect(textOf(await posted.text())).toContain('Log out of the admin first');
  });

  it('ends when the browser logs into the admin: the login clears its cookie', async () => {
    const s = await start();
    const override = devOverrideCreatedSchema.parse((await ask(s, { entryUrl: ENTRY }, s.blogToken)).body);
    const { cookie, turnedOn } = await turnOn(s, override.url);
    const login = (password: string) =>
      fetch(`${s.server.url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: s.server.config.publicOrigin, cookie },
        body: JSON.stringify({ password }),
      });
    const overrideCookies = (res: Response) => res.headers.getSetCookie().filter((c) => c.startsWith('site_dev_override='));
    // A wrong password changes nothing.
    const wrong = await login('not the password');
    expect([wrong.status, overrideCookies(wrong)]).toEqual([401, []]);
    // Logged in: the cookie as it was set (path, SameSite, HttpOnly), empty and expired.
    const ok = await login(TEST_ADMIN_PASSWORD);
    expect(ok.status).toBe(200);
    const attributes = (c: string) => c.split('; ').slice(1).filter((a) => !a.startsWith('expires='));
    const [cleared] = overrideCookies(ok);
    expect(cleared).toMatch(/^site_dev_override=; .*expires=Thu, 01 Jan 1970 00:00:00 GMT/);
    expect(attributes(cleared!).sort()).toEqual(attributes(overrideCookies(turnedOn)[0]!).sort());
  });

  it('on a site that takes only signed releases, accepts only an entry on the developer\'s own computer', async () => {
    const s = await start({}, { signed: true });
    const refused = await ask(s, { entryUrl: 'https://blog-dev.example.com/mfe/blog/assets/remoteEntry.js' }, s.blogToken);
    expect([refused.status, refused.body.error?.code, refused.body.error?.message]).toEqual([400, 'dev_override_refused', DEV_OVERRIDE_MESSAGES.signed]);
    for (const entryUrl of [ENTRY, 'http://localhost:5174/mfe/blog/assets/remoteEntry.js', 'https://localhost:5174/mfe/blog/assets/remoteEntry.js']) {
      expect((await ask(s, { entryUrl }, s.blogToken)).status, entryUrl).toBe(201);
    }
    const override = devOverrideCreatedSchema.parse((await ask(s, { entryUrl: ENTRY }, s.blogToken)).body);
    const { confirm, turnedOn, cookie } = await turnOn(s, override.url);
    expect([confirm.status, turnedOn.status]).toEqual([200, 303]);
    expect(await visit(s, '/blog', cookie)).toMatchObject({ banner: true, inlineEntry: ENTRY, scriptSrc: true });
  });
});

it('with signing on, a token naming an entry off the developer\'s computer grants nothing, even one made before', () => {
  const clock = () => new Date('2026-06-01T10:00:00.000Z');
  const before = createDevOverrideTokens({ secret: 'a shared secret', clock });
  const signed = createDevOverrideTokens({ secret: 'a shared secret', clock, loopbackOnly: true });
  const remote = before.issue('blog', 'https://blog-dev.example.com/mfe/blog/assets/remoteEntry.js').token;
  expect(before.read(remote).ok).toBe(true);
  expect(signed.read(remote)).toEqual({ ok: false, reason: "this site takes only signed releases: a development override may load code only from the developer's own computer (localhost)" });
  expect(signed.read(before.issue('blog', ENTRY).token).ok).toBe(true);
});
