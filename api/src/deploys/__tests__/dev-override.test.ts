import { copyFile, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { deployTokenCreatedSchema, devOverrideCreatedSchema } from '@site/contracts/deploys';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { describeNeedingBuild, missingFiles, REPO_ROOT } from '../../test-support/built-site';
import { createSiteFixture, MANIFESTS, renderingBlogEntry } from '../../test-support/site-fixture';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * Local development against the live site (issue 52, item 7), over HTTP as a developer and two browsers use it: the
 * blog's token asks for an override link naming a remote entry on the developer's computer; the browser that opens it
 * gets that entry in its remotes map, its origin in its pages' CSP, the blog rendered in the browser (not on the
 * server) and a banner on every page, privately and outside the render cache; another browser gets the site as it is;
 * the cookie ends with its time (the app's clock); a plain http URL of another host, another app's token and no token
 * are refused.
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
  blogToken: string;
  marketingToken: string;
  advance(ms: number): void;
}

async function start(env: Record<string, string> = {}): Promise<Site> {
  const site = await createSiteFixture();
  cleanups.push(() => site.cleanup());
  // The built shell's server entry and a blog that renders on the server, so "not rendered on the server" shows.
  await mkdir(path.join(site.root, 'shell/dist/server'), { recursive: true });
  await copyFile(path.join(REPO_ROOT, 'shell/dist/server/entry.js'), path.join(site.root, 'shell/dist/server/entry.js'));
  await symlink(path.join(REPO_ROOT, 'shell/node_modules'), path.join(site.root, 'node_modules'), 'dir');
  await site.writeFile('mfe-blog/dist/server/entry.js', renderingBlogEntry('Served blog'));
  await site.writeManifest('blog', { ...MANIFESTS.blog, server: { entry: 'server/entry.js' } });
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
  return { server, blogToken: await token('blog dev', ['blog', 'shell']), marketingToken: await token('marketing CI', ['marketing']), advance: (ms) => void (now += ms) };
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

    // The link: a cookie for this browser until the override's end, then the page without the token.
    const link = new URL(override.url);
    const opened = await fetch(`${s.server.url}${link.pathname}${link.search}`, { redirect: 'manual', headers: { accept: 'text/html', 'x-forwarded-proto': 'https' } });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/blog');
    const setCookie = opened.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^site_dev_override=[\w-]+\.[\w-]+; path=\/; expires=Mon, 01 Jun 2026 18:00:00 GMT; samesite=lax; httponly$/);
    const cookie = setCookie.split(';')[0]!;

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
    const opened = await fetch(`${s.server.url}${link.pathname}${link.search}`, { redirect: 'manual' });
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0]!;
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
    expect((await ask(s, { entryUrl: ENTRY }, s.marketingToken)).status).toBe(403);
    expect((await ask(s, { entryUrl: ENTRY }, s.marketingToken)).body.error?.code).toBe('token_not_for_app');
    const anonymous = await ask(s, { entryUrl: ENTRY }, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error?.code).toBe('deploy_token_missing');
  });
});
