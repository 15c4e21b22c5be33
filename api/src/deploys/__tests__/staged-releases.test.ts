import { checkStatsNow } from '../../lib/stat-shared';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appReleasesSchema, appStatusSchema, deployLogPageSchema, deployTokenCreatedSchema, releaseChangeSchema } from '@site/contracts/deploys';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { uniqueSchema } from '../../test-support/databases';
import { blogServerModule, createSiteFixture, MANIFESTS, type SiteFixture } from '../../test-support/site-fixture';
import { signDists } from '../../test-support/signed-dists';
import { waitFor } from '../../test-support/site-client';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { packReleaseTarball } from '../../site/releases/release-tarball';
import { newSigningKey, signFiles, trustedKeyEntry } from '../../site/releases/release-signature';

/*
 * Staged releases and preview links (issue 34), over HTTP as a team's CI and a browser use them: a release uploaded
 * staged is served to no one, its preview link shows it to that browser only (page, remotes map, remote files), and
 * promoting it serves it to everyone. On SQLite (SITE_ROOT) and on PostgreSQL's shared store when TEST_DATABASE_URL is set.
 */

const backends = ['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : [])] as const;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const BANNER = 'Previewing <strong>blog 2.0.0</strong>, a staged release';

interface Site {
  server: TestServer;
  site: SiteFixture;
  token: string;
  /** Moves the server's clock (preview links expire). */
  advance(ms: number): void;
}

async function start(backend: 'sqlite' | 'postgres', env: Record<string, string> = {}, prepare?: (site: SiteFixture) => Promise<void>): Promise<Site> {
  const site = await createSiteFixture();
  cleanups.push(() => site.cleanup());
  await prepare?.(site);
  const schema = uniqueSchema();
  let now = Date.now();
  const server = await startTestServer({
    siteRoot: site.root,
    env: { ...ADMIN_ENV, TRUST_PROXY: 'true', ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}), ...env },
    deps: { clock: () => new Date(now), ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}) },
  });
  cleanups.push(async () => {
    await server.close();
  });
  const cookie = await adminCookie(server);
  const created = await fetch(`${server.url}/api/admin/deploy-tokens`, {
    method: 'POST',
    headers: { cookie, origin: server.config.publicOrigin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'blog CI', apps: ['blog'] }),
  });
  return { server, site, token: deployTokenCreatedSchema.parse(await created.json()).token, advance: (ms) => void (now += ms) };
}

/** A blog build with a visible title and a content-hashed chunk only it has. */
function blogBuild(version: string, title: string, key?: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>([
    ['mfe-manifest.json', Buffer.from(JSON.stringify({ ...MANIFESTS.blog, version, pages: [{ path: '/blog', title, description: 'Guides' }] }))],
    ['assets/remoteEntry.js', Buffer.from(`export const title = ${JSON.stringify(title)};`)],
    ['assets/page-Staged22.js', Buffer.from(`export default ${JSON.stringify(title)};`)],
    ['server/routes.js', Buffer.from(blogServerModule())],
  ]);
  if (key) files.set('release-signature.json', signFiles(files, 'blog', version, key));
  return files;
}

async function upload(s: Site, files: Map<string, Buffer>, query = '?stage=1') {
  const res = await fetch(`${s.server.url}/api/releases/blog${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/gzip', authorization: `Bearer ${s.token}` },
    body: await packReleaseTarball(files),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function post(s: Site, route: string, json: unknown) {
  const res = await fetch(`${s.server.url}/api/releases/blog/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } & Record<string, unknown> };
}

/** What one browser gets: the page (title, banner, caching), the remotes map, the remote's entry and its new chunk. */
async function visit(s: Site, cookie?: string) {
  const headers: Record<string, string> = { accept: 'text/html', ...(cookie ? { cookie } : {}) };
  const page = await fetch(`${s.server.url}/blog`, { headers });
  const html = await page.text();
  const map = (await (await fetch(`${s.server.url}/remotes.json`, { headers })).json()) as { blog: { version: string; entry: string } };
  const entry = await fetch(`${s.server.url}${map.blog.entry}`, { headers });
  const chunk = await fetch(`${s.server.url}/mfe/blog/assets/page-Staged22.js`, { headers });
  return {
    title: titleOf(html),
    banner: html.includes(BANNER),
    noindex: html.includes('<meta name="robots" content="noindex" />'),
    inlineEntry: /"blog":\{"entry":"([^"]+)"/.exec(html)?.[1],
    pageCaching: [page.headers.get('cache-control'), page.headers.get('cdn-cache-control'), page.headers.get('x-robots-tag')],
    clearsCookie: /site_preview=;.*expires=Thu, 01 Jan 1970/i.test(page.headers.get('set-cookie') ?? ''),
    version: map.blog.version,
    entry: [entry.status, await entry.text(), entry.headers.get('cache-control')],
    chunk: chunk.status,
  };
}

/** Opens a preview link as a browser does: the answer's cookie, where it sends the browser, and the cookie's attributes. */
async function openLink(s: Site, previewUrl: string, headers: Record<string, string> = {}) {
  const url = new URL(previewUrl);
  const res = await fetch(`${s.server.url}${url.pathname}${url.search}`, { redirect: 'manual', headers: { accept: 'text/html', ...headers } });
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { status: res.status, location: res.headers.get('location'), setCookie, cookie: setCookie.split(';')[0]!, body: await res.text() };
}

describe.each(backends)('staged releases and preview links (%s)', (backend) => {
  it('serves a staged release to no one but the browser with its preview link, which leaves it with one click', async () => {
    const s = await start(backend);
    const served = (await visit(s)).version;
    const staged = await upload(s, blogBuild('2.0.0', 'Blog, staged edition'));
    expect(staged.status).toBe(201);
    const change = releaseChangeSchema.parse(staged.body);
    expect(change).toMatchObject({ app: 'blog', version: '2.0.0', previous: served, staged: true });
    expect(change.checked).toContain('assets/remoteEntry.js');
    expect(change.previewUrl).toMatch(/^https:\/\/example\.test\/blog\?preview=[\w-]+\.[\w-]+$/);

    // Everyone else: the served release, its entry, and not even the staged release's hashed chunk.
    const visitor = await visit(s);
    expect(visitor).toMatchObject({ title: 'The blog', banner: false, noindex: false, version: served, inlineEntry: '/mfe/blog/assets/remoteEntry.js', chunk: 404 });
    expect(visitor.entry[1]).not.toContain('staged edition');
    expect(visitor.pageCaching[0]).toBe('no-cache');
    const stagedEntryAsked = await fetch(`${s.server.url}/mfe/blog/assets/remoteEntry.js?release=2.0.0`);
    expect(await stagedEntryAsked.text()).not.toContain('staged edition');
    const list = appReleasesSchema.parse(await (await fetch(`${s.server.url}/api/releases/blog`, { headers: { authorization: `Bearer ${s.token}` } })).json());
    expect(list.served?.version).toBe(served);
    expect(list.releases.find((r) => r.version === '2.0.0')).toMatchObject({ staged: true, current: false, by: 'blog CI' });

    // The link: a cookie for this browser (HttpOnly, SameSite=Lax, Secure over https, a day long), then the page.
    const link = await openLink(s, change.previewUrl!, { 'x-forwarded-proto': 'https' });
    expect(link.status).toBe(303);
    expect(link.location).toBe('/blog');
    expect(link.cookie).toMatch(/^site_preview=[\w-]+\.[\w-]+$/);
    expect(link.setCookie.split('; ').slice(1).sort()).toEqual([expect.stringMatching(/^expires=/), 'httponly', 'path=/', 'samesite=lax', 'secure']);
    const expires = Date.parse(/expires=([^;]+)/.exec(link.setCookie)![1]!);
    expect(Math.abs(expires - (Date.now() + 24 * 3_600_000))).toBeLessThan(60_000);

    const previewer = await visit(s, link.cookie);
    expect(previewer).toMatchObject({
      title: 'Blog, staged edition',
      banner: true,
      noindex: true,
      version: '2.0.0',
      inlineEntry: '/mfe/blog/assets/remoteEntry.js?release=2.0.0',
      pageCaching: ['private, no-cache', null, 'noindex, nofollow'],
      entry: [200, 'export const title = "Blog, staged edition";', 'private, no-cache'],
      chunk: 200,
      clearsCookie: false,
    });
    // The other remotes stay the served ones.
    const home = await fetch(`${s.server.url}/`, { headers: { accept: 'text/html', cookie: link.cookie } });
    expect(await home.text()).toContain(BANNER);
    // Meanwhile, still no one else.
    expect(await visit(s)).toMatchObject({ title: 'The blog', banner: false, version: served, chunk: 404 });

    // Leaving: the cookie goes and the same page is the served one.
    const leave = await fetch(`${s.server.url}/blog?preview=off`, { redirect: 'manual', headers: { cookie: link.cookie } });
    expect(leave.status).toBe(303);
    expect(leave.headers.get('location')).toBe('/blog');
    expect(leave.headers.get('set-cookie')).toMatch(/^site_preview=; path=\/; expires=Thu, 01 Jan 1970 00:00:00 GMT/);
  });

  it('keeps two staged releases of one manifest version apart: each link previews its own, under its own name', async () => {
    const s = await start(backend);
    const links: Record<string, string> = {};
    for (const [name, title] of [
      ['2.0.0-a', 'Blog, edition A'],
      ['2.0.0-b', 'Blog, edition B'],
    ] as const) {
      // Both builds say 2.0.0 in their manifest; the upload names the release.
      const staged = await upload(s, blogBuild('2.0.0', title), `?stage=1&version=${name}`);
      expect(staged.status, JSON.stringify(staged.body)).toBe(201);
      const change = releaseChangeSchema.parse(staged.body);
      expect(change).toMatchObject({ version: name, staged: true });
      links[name] = (await openLink(s, change.previewUrl!)).cookie;
    }
    for (const [name, title] of [
      ['2.0.0-a', 'Blog, edition A'],
      ['2.0.0-b', 'Blog, edition B'],
    ] as const) {
      const page = await fetch(`${s.server.url}/blog`, { headers: { accept: 'text/html', cookie: links[name]! } });
      expect(await page.text()).toContain(`Previewing <strong>blog ${name}</strong>, a staged release`);
      expect(await visit(s, links[name])).toMatchObject({
        title,
        version: name,
        inlineEntry: `/mfe/blog/assets/remoteEntry.js?release=${name}`,
        entry: [200, `export const title = ${JSON.stringify(title)};`, 'private, no-cache'],
      });
    }
  });

  it('refuses a forged or expired link, ends previews of a promoted release, and promotes a staged release to everyone', async () => {
    const s = await start(backend);
    const served = (await visit(s)).version;
    const change = releaseChangeSchema.parse((await upload(s, blogBuild('2.0.0', 'Blog, staged edition'))).body);
    const link = await openLink(s, change.previewUrl!);

    // Another release named in the link, or another signature: not signed by this site.
    const [payload, signature] = new URL(change.previewUrl!).searchParams.get('preview')!.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), v: '9.9.9' })).toString('base64url');
    for (const token of [`${forged}.${signature}`, `${payload}.${signature!.slice(0, -2)}AA`]) {
      const refused = await openLink(s, `https://example.test/blog?preview=${token}`);
      expect(refused.status).toBe(410);
      expect(refused.body).toContain('not signed by this site');
      expect(refused.setCookie).toBe('');
    }
    // A forged cookie shows the served site and is cleared.
    expect(await visit(s, `site_preview=${forged}.${signature}`)).toMatchObject({ title: 'The blog', banner: false, clearsCookie: true });

    // A day later the link and its cookie grant nothing.
    s.advance(24 * 3_600_000 + 1000);
    expect((await openLink(s, change.previewUrl!)).body).toContain('the preview link expired');
    expect(await visit(s, link.cookie)).toMatchObject({ title: 'The blog', banner: false, version: served, chunk: 404, clearsCookie: true });

    // Promote: what is checked is served to everyone; the link's preview ends.
    const fresh = releaseChangeSchema.parse((await upload(s, blogBuild('3.0.0', 'Blog, third edition'))).body);
    const freshLink = await openLink(s, fresh.previewUrl!);
    // A share outside 1..100 is not one (canaries: canary-releases.test.ts).
    expect(await post(s, 'promote', { version: '3.0.0', percent: 0 })).toMatchObject({ status: 400 });
    const promoted = await post(s, 'promote', { version: '3.0.0' });
    expect(promoted.status).toBe(200);
    expect(releaseChangeSchema.parse(promoted.body)).toMatchObject({ app: 'blog', version: '3.0.0', previous: served });
    await waitFor(async () => (await visit(s)).title === 'Blog, third edition', 5000, 'every visitor to get the promoted release');
    expect(await visit(s)).toMatchObject({ version: '3.0.0', banner: false, chunk: 200, inlineEntry: '/mfe/blog/assets/remoteEntry.js' });
    expect(await visit(s, freshLink.cookie)).toMatchObject({ title: 'Blog, third edition', banner: false, clearsCookie: true });

    expect((await post(s, 'promote', { version: '3.0.0' })).body.error?.code).toBe('already_served');
    expect((await post(s, 'promote', { version: '9.9.9' })).body.error?.code).toBe('release_not_found');
    expect((await post(s, 'promote', { version: served })).body.error?.code).toBe('not_staged');
    // A staged release is never served by a rollback: only by a promotion.
    expect((await post(s, 'rollback', { version: '2.0.0' })).body.error?.code).toBe('not_served_yet');
    expect(releaseChangeSchema.parse((await post(s, 'rollback', {})).body)).toMatchObject({ version: served, previous: '3.0.0' });

    // The deploy log: the staged uploads (the one still staged with a preview link), the promotion.
    const cookie = await adminCookie(s.server);
    const log = deployLogPageSchema.parse(await (await fetch(`${s.server.url}/api/admin/deploys?app=blog`, { headers: { cookie } })).json()).entries;
    const stagedEntry = log.find((e) => e.action === 'stage' && e.version === '2.0.0');
    expect(stagedEntry).toMatchObject({ result: 'ok', by: 'blog CI', previous: served, previewUrl: expect.stringMatching(/^https:\/\/example\.test\/blog\?preview=/) });
    expect(log.find((e) => e.action === 'stage' && e.version === '3.0.0')).not.toHaveProperty('previewUrl');
    expect(log.find((e) => e.action === 'promote' && e.result === 'ok')).toMatchObject({ version: '3.0.0', previous: served, result: 'ok' });
    // The admin's link works like the upload's.
    expect(await visit(s, (await openLink(s, stagedEntry!.previewUrl!)).cookie)).toMatchObject({ title: 'Blog, staged edition', banner: true });
  });

  it('a dry run (issue 52) checks an upload, staged or not, and stores nothing; provenance is kept with the release and shown in the status', async () => {
    const s = await start(backend);
    const served = (await visit(s)).version;
    const status = async () => appStatusSchema.parse(await (await fetch(`${s.server.url}/api/releases/blog/status`, { headers: { authorization: `Bearer ${s.token}` } })).json());
    const before = await status();
    for (const query of ['?dryRun=1&version=2.0.0', '?dryRun=1&stage=1&version=2.0.0&commit=ABCDEF1']) {
      const dry = await upload(s, blogBuild('2.0.0', 'Blog, dry run'), query);
      expect(dry.status).toBe(200);
      expect(releaseChangeSchema.parse(dry.body)).toMatchObject({ app: 'blog', version: '2.0.0', previous: served, dryRun: true });
      expect(dry.body).not.toHaveProperty('previewUrl');
    }
    // What fails a deploy fails its dry run, the same way: here, a name that is taken.
    expect(await upload(s, blogBuild('2.0.0', 'Blog, dry run'), `?dryRun=1&version=${encodeURIComponent(served)}`)).toMatchObject({ status: 409, body: { error: { code: 'release_exists' } } });
    expect(await status()).toEqual(before);
    expect((await visit(s)).version).toBe(served);

    const staged = await upload(s, blogBuild('2.0.0', 'Blog, dry run'), '?stage=1&version=2.0.0&commit=ABCDEF1&notes=Search%20box&ciUrl=https%3A%2F%2Fci.example.com%2Fruns%2F7');
    expect(staged.status).toBe(201);
    const provenance = { commit: 'abcdef1', notes: 'Search box', ciUrl: 'https://ci.example.com/runs/7' };
    expect((await status()).staged).toEqual([{ version: '2.0.0', createdAt: expect.any(String), by: 'blog CI', ...provenance }]);
    expect((await post(s, 'promote', { version: '2.0.0' })).status).toBe(200);
    const after = await status();
    expect(after.served).toMatchObject({ version: '2.0.0', by: 'blog CI', ...provenance });
    expect(after.log.slice(0, 2)).toMatchObject([
      { action: 'promote', version: '2.0.0', result: 'ok', by: 'blog CI', ...provenance },
      { action: 'stage', version: '2.0.0', result: 'ok', by: 'blog CI', ...provenance },
    ]);
    // The admin's log has them too.
    const cookie = await adminCookie(s.server);
    const log = deployLogPageSchema.parse(await (await fetch(`${s.server.url}/api/admin/deploys?app=blog`, { headers: { cookie } })).json()).entries;
    expect(log[0]).toMatchObject({ action: 'promote', ...provenance });
  });

  it('with trusted keys, stages only a signed release and previews only what its signature covers', async () => {
    const key = newSigningKey();
    // The other remotes' builds are signed by the operator's key, trusted for them only: the server starts only when
    // every app it serves is signed by a key trusted for it.
    const operator = newSigningKey();
    const keys = [trustedKeyEntry(['blog', 'shell'], key.publicKey), trustedKeyEntry(['marketing', 'admin'], operator.publicKey)].join(',');
    const s = await start(backend, { RELEASE_TRUSTED_KEYS: keys }, async (site) => {
      await signDists(site.root, ['marketing', 'admin'], operator.privateKeyPem);
      // The blog's build too, by the blog's key: the release served before the first upload.
      await signDists(site.root, ['blog'], key.privateKeyPem);
      // The shell's build, signed where it is served from (the server runs no shell nobody signed).
      const dist = path.join(site.root, 'shell', 'dist');
      const files = new Map<string, Buffer>();
      for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) files.set(path.relative(dist, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'), await readFile(path.join(entry.parentPath, entry.name)));
      }
      await site.writeFile('shell/dist/release-signature.json', signFiles(files, 'shell', 'dist', key.privateKeyPem));
    });
    // A signed release is served first, above the signed build.
    const first = blogBuild('1.0.0', 'The blog');
    first.delete('assets/page-Staged22.js');
    first.set('release-signature.json', signFiles(first, 'blog', '1.0.0', key.privateKeyPem));
    expect((await upload(s, first, '')).status).toBe(201);
    const unsigned = await upload(s, blogBuild('2.0.0', 'Blog, unsigned'));
    expect(unsigned.status).toBe(400);
    expect((unsigned.body.error as { message: string }).message).toContain('not signed by a key trusted for blog');

    const signed = blogBuild('2.1.0', 'Blog, signed', key.privateKeyPem);
    const change = releaseChangeSchema.parse((await upload(s, signed)).body);
    // Changed on this instance's disk after it was checked (on PostgreSQL, a copy placed before the store's is fetched):
    // its signature no longer covers it, so no preview shows it.
    for (const [file, bytes] of signed) {
      await s.site.writeFile(`mfe-blog/staged/2.1.0/${file}`, file === 'assets/remoteEntry.js' ? 'export const title = "tampered";' : bytes);
    }
    const link = await openLink(s, change.previewUrl!);
    expect(await visit(s, link.cookie)).toMatchObject({ title: 'The blog', banner: false, chunk: 404, clearsCookie: true });
    // One left as signed is previewed.
    const intact = releaseChangeSchema.parse((await upload(s, blogBuild('2.0.0', 'Blog, staged edition', key.privateKeyPem))).body);
    expect(await visit(s, (await openLink(s, intact.previewUrl!)).cookie)).toMatchObject({ title: 'Blog, staged edition', banner: true, chunk: 200 });
  });
});

describe('npm run deploy -- blog --stage on the serving machine', () => {
  const SECRET = 'a preview secret of at least thirty-two characters';
  const script = (siteRoot: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = { ...process.env, SITE_ROOT: siteRoot, PUBLIC_ORIGIN: 'https://example.test', PREVIEW_SECRET: SECRET, DATA_DIR: path.join(siteRoot, 'no-data') };
      execFile(process.execPath, [path.resolve(import.meta.dirname, '../../../../scripts/deploy-remote.mjs'), ...args], { env }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    }).then(async (result) => {
      // The server sees another process's deploy at its next once-a-second check: run here at once.
      await checkStatsNow();
      return result;
    });

  it('prints the preview link last, which the server with the same PREVIEW_SECRET honours; npm run promote serves it', async () => {
    const s = await start('sqlite', { PREVIEW_SECRET: SECRET });
    const dist = await mkdtemp(path.join(tmpdir(), 'api-test-staged-dist-'));
    cleanups.push(() => rm(dist, { recursive: true, force: true }));
    for (const [file, bytes] of blogBuild('2.0.0', 'Blog, staged edition')) {
      await mkdir(path.dirname(path.join(dist, file)), { recursive: true });
      await writeFile(path.join(dist, file), bytes);
    }
    const staged = await script(s.site.root, 'deploy', 'blog', '--from', dist, '--stage');
    expect(staged.stderr).toBe('');
    expect(staged.code).toBe(0);
    const lines = staged.stdout.trim().split('\n');
    expect(lines.at(-2)).toContain('blog 2.0.0 is stored staged: served to no one');
    expect(lines.at(-1)).toMatch(/^https:\/\/example\.test\/blog\?preview=[\w-]+\.[\w-]+$/);
    expect(await visit(s)).toMatchObject({ title: 'The blog', banner: false });
    expect(await visit(s, (await openLink(s, lines.at(-1)!)).cookie)).toMatchObject({ title: 'Blog, staged edition', banner: true });

    const promoted = await script(s.site.root, 'promote', 'blog', '--version', '2.0.0');
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain('blog 2.0.0 is live');
    expect(await visit(s)).toMatchObject({ title: 'Blog, staged edition', banner: false });
  });
});
