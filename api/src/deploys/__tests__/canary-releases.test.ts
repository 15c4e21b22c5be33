import { execFile } from 'node:child_process';
import { copyFile, mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alertHistorySchema } from '@site/contracts/admin';
import { deployLogPageSchema, deployTokenCreatedSchema, releaseChangeSchema, type DeployLogPage } from '@site/contracts/deploys';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { describeNeedingBuild, REPO_ROOT, serverEntriesMissing } from '../../test-support/built-site';
import { uniqueSchema } from '../../test-support/databases';
import { blogServerModule, createSiteFixture, MANIFESTS, renderingBlogEntry, type SiteFixture } from '../../test-support/site-fixture';
import { waitFor } from '../../test-support/site-client';
import { fetchFrom } from '../../test-support/from-address';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { packReleaseTarball } from '../../site/releases/release-tarball';

/*
 * Canaries (issue 34), over HTTP as a team's CI and visitors' browsers use them: a staged blog release promoted with a
 * share is served to about that share of fresh visitors, each of whom keeps it on every page (a cookie), while the
 * others keep the served release; pages are private while it runs; views are counted against the release served. A
 * canary whose pages fail for everyone is rolled back by itself (the canary check, driven here with the app's clock),
 * saying why in the deploy log and an alert; one failing as rarely as the served release is not. On SQLite (one
 * instance) and on PostgreSQL when TEST_DATABASE_URL is set, where two instances split the same visitor alike.
 */

const backends = ['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : [])] as const;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** What a person's browser sends (Chrome 131 on Windows): its pages are counted. */
const BROWSER_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
/** The remotes map inlined in a page: which release of each remote the browser is told to load. */
const mapOf = (html: string) => {
  const json = /<script type="application\/json" id="remotes-manifest">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return json ? (JSON.parse(json) as Record<string, { entry: string; version: string }>) : {};
};

interface Site {
  server: TestServer;
  site: SiteFixture;
  token: string;
  admin: string;
  /** The app's clock: moved by hand (the error window, promoteAfter). */
  now(): number;
  advance(ms: number): void;
}

async function start(backend: 'sqlite' | 'postgres', options: { env?: Record<string, string>; rendering?: boolean; pgSchema?: string } = {}): Promise<Site> {
  const site = await createSiteFixture();
  cleanups.push(() => site.cleanup());
  if (options.rendering) {
    // The built shell's server entry and a blog that renders on the server: a release whose render throws is then a
    // page every visitor gets with the blog's area handed to the browser, counted as a render error.
    await mkdir(path.join(site.root, 'shell/dist/server'), { recursive: true });
    await copyFile(path.join(REPO_ROOT, 'shell/dist/server/entry.js'), path.join(site.root, 'shell/dist/server/entry.js'));
    await symlink(path.join(REPO_ROOT, 'shell/node_modules'), path.join(site.root, 'node_modules'), 'dir');
    await site.writeFile('mfe-blog/dist/server/entry.js', renderingBlogEntry('Fixture blog'));
    await site.writeManifest('blog', { ...MANIFESTS.blog, server: { entry: 'server/entry.js' } });
  }
  let now = Date.parse('2026-06-01T10:00:00.000Z');
  const schema = options.pgSchema ?? uniqueSchema();
  const server = await startTestServer({
    siteRoot: site.root,
    env: { ...ADMIN_ENV, SSR_TIMEOUT_MS: '2000', ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}), ...options.env },
    deps: { clock: () => new Date(now), ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}) },
  });
  cleanups.push(() => server.close());
  const admin = await adminCookie(server);
  const created = await fetch(`${server.url}/api/admin/deploy-tokens`, {
    method: 'POST',
    headers: { cookie: admin, origin: server.config.publicOrigin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'blog CI', apps: ['blog', 'shell'] }),
  });
  return { server, site, admin, token: deployTokenCreatedSchema.parse(await created.json()).token, now: () => now, advance: (ms) => void (now += ms) };
}

const BREAKING = 'Breaking news for dentists';
/**
 * A blog build with its own page title and a content-hashed chunk only it has; `throws`: its server render throws once
 * the blog lists a post titled BREAKING (published after the deploy, so its smoke render, which renders the data of
 * the time, passes it: what a canary is for).
 */
function blogBuild(version: string, title: string, server?: { throws: boolean }): Map<string, Buffer> {
  const entry = renderingBlogEntry(title);
  const throwing = entry.replace('return {', `if (titles.includes(${JSON.stringify(BREAKING)})) throw new Error('boom in the canary render');\n  return {`);
  return new Map<string, Buffer>([
    ['mfe-manifest.json', Buffer.from(JSON.stringify({ ...MANIFESTS.blog, version, pages: [{ path: '/blog', title, description: 'Guides' }], ...(server ? { server: { entry: 'server/entry.js' } } : {}) }))],
    ['assets/remoteEntry.js', Buffer.from(`export const title = ${JSON.stringify(title)};`)],
    ['assets/page-Canary22.js', Buffer.from(`export default ${JSON.stringify(title)};`)],
    ['server/routes.js', Buffer.from(blogServerModule())],
    ...(server ? [['server/entry.js', Buffer.from(server.throws ? throwing : entry)] as [string, Buffer]] : []),
  ]);
}

async function stage(s: Site, files: Map<string, Buffer>, version: string) {
  const res = await fetch(`${s.server.url}/api/releases/blog?stage=1&version=${version}`, {
    method: 'POST',
    headers: { 'content-type': 'application/gzip', authorization: `Bearer ${s.token}` },
    body: await packReleaseTarball(files),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function post(s: Site, route: string, json: unknown, app = 'blog') {
  const res = await fetch(`${s.server.url}/api/releases/${app}/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } & Record<string, unknown> };
}

/** A browser: its cookie jar (only what the site sets), and what each page it opens says of the blog's release. */
function visitor(base: string) {
  const jar = new Map<string, string>();
  const setCookies: string[] = [];
  return {
    jar,
    setCookies,
    async open(page: string, url = base) {
      const res = await fetch(`${url}${page}`, {
        headers: { accept: 'text/html', 'user-agent': BROWSER_UA, ...(jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}) },
      });
      for (const line of res.headers.getSetCookie()) {
        setCookies.push(line);
        const [pair] = line.split(';');
        const [name, value] = pair!.split('=') as [string, string];
        if (value) jar.set(name, value);
        else jar.delete(name);
      }
      const html = await res.text();
      return {
        status: res.status,
        title: titleOf(html),
        blog: mapOf(html).blog,
        cacheControl: res.headers.get('cache-control'),
        cdn: res.headers.get('cdn-cache-control'),
        robots: res.headers.get('x-robots-tag'),
        accel: res.headers.get('x-accel-expires'),
        html,
      };
    },
  };
}

async function deploysPage(s: Site, server = s.server): Promise<DeployLogPage> {
  const cookie = server === s.server ? s.admin : await adminCookie(server);
  return deployLogPageSchema.parse(await (await fetch(`${server.url}/api/admin/deploys?app=blog`, { headers: { cookie } })).json());
}

describe.each(backends)('canaries (%s)', (backend) => {
  it('serves a 30% canary to about 30% of 200 fresh visitors, each keeping its release on 3 pages in a row; its views counted against it', async () => {
    const s = await start(backend);
    const first = visitor(s.server.url);
    const served = (await first.open('/blog')).blog!.version;
    // Before any canary: no bucket cookie, pages not private.
    expect(await first.open('/blog')).toMatchObject({ cacheControl: 'no-cache', accel: null });
    expect(first.setCookies).toEqual([]);

    await stage(s, blogBuild('2.0.0', 'Blog, canary edition'), '2.0.0');
    const started = await post(s, 'promote', { version: '2.0.0', percent: 30 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(releaseChangeSchema.parse(started.body)).toMatchObject({ app: 'blog', version: '2.0.0', previous: served, percent: 30 });

    const counts = { canary: 0, served: 0 };
    const revisits = { canary: 0, served: 0 };
    for (let i = 0; i < 200; i++) {
      const v = visitor(s.server.url);
      const pages = [await v.open('/blog'), await v.open('/'), await v.open('/blog/category/ai-automation')];
      const version = pages[0]!.blog!.version;
      expect([served, '2.0.0']).toContain(version);
      // The same release on every page, in the page's remotes map (and the blog's own title on /blog).
      expect(pages.map((p) => p.blog?.version)).toEqual([version, version, version]);
      expect(pages[0]!.title).toBe(version === '2.0.0' ? 'Blog, canary edition' : 'The blog');
      expect(pages.map((p) => p.blog?.entry)).toEqual(Array(3).fill(version === '2.0.0' ? '/mfe/blog/assets/remoteEntry.js?release=2.0.0' : '/mfe/blog/assets/remoteEntry.js'));
      // Every page depends on the visitor's bucket while a canary runs: for this browser alone (no CDN, no nginx cache
      // told to ignore Cache-Control), not indexed any less.
      for (const p of pages) expect([p.cacheControl, p.cdn, p.accel, p.robots]).toEqual(['private, no-cache', null, '0', null]);
      // One bucket, drawn on the first page and kept: HttpOnly, SameSite=Lax, a year long.
      expect(v.setCookies).toHaveLength(1);
      expect(v.setCookies[0]!.split('; ').slice(1).sort()).toEqual([expect.stringMatching(/^expires=/), 'httponly', 'path=/', 'samesite=lax']);
      expect(Math.abs(Date.parse(/expires=([^;]+)/.exec(v.setCookies[0]!)![1]!) - (Date.now() + 365 * 86_400_000))).toBeLessThan(60_000);
      // The id and the server's MAC of it (issue 51): a client cannot write its own.
      expect(v.jar.get('site_bucket')).toMatch(/^[\w-]{22}\.[\w-]{22}$/);
      // Its files too: the canary's remote entry and its own chunk, for this browser alone.
      if (i < 10) {
        const headers = { cookie: `site_bucket=${v.jar.get('site_bucket')}` };
        const entry = await fetch(`${s.server.url}${pages[0]!.blog!.entry}`, { headers });
        expect(await entry.text()).toBe(version === '2.0.0' ? 'export const title = "Blog, canary edition";' : 'export const name = "blog";');
        expect((await fetch(`${s.server.url}/mfe/blog/assets/page-Canary22.js`, { headers })).status).toBe(version === '2.0.0' ? 200 : 404);
      }
      // The next visit (the same cookie, a day later): the same release.
      const which = version === '2.0.0' ? 'canary' : 'served';
      if (i % 20 === 0) {
        expect((await v.open('/blog')).blog?.version).toBe(version);
        revisits[which] += 1;
      }
      counts[which] += 1;
    }
    const share = counts.canary / 200;
    console.info(`canary 30%: ${counts.canary} of 200 fresh visitors got it (${(share * 100).toFixed(1)}%) (${backend})`);
    expect(share).toBeGreaterThanOrEqual(0.2);
    expect(share).toBeLessThanOrEqual(0.4);

    // The Deploys screen's data: the canary with its share, and each release's page views (the blog's two pages per
    // visitor, counted against the release each visitor got; the re-visits of every 20th visitor too).
    const page = await deploysPage(s);
    expect(page.canaries).toHaveLength(1);
    const canary = page.canaries![0]!;
    expect(canary).toMatchObject({ app: 'blog', version: '2.0.0', current: served, percent: 30, by: 'blog CI', promoteAfter: null });
    // Exactly: the blog's two pages of each visitor and the re-visits, against the release each got (the served one's
    // two views before the canary, in the same minute of the fixed clock, too).
    expect(canary.canary.pageViews).toBe(2 * counts.canary + revisits.canary);
    expect(canary.served.pageViews).toBe(2 * counts.served + revisits.served + 2);
    expect(canary.canary).toMatchObject({ renderErrors: 0, clientErrors: 0, rate: 0 });
    expect(page.canaryRules).toEqual({ maxRate: 0.02, ratio: 3, minPageViews: 50, minReporters: 5 });

    // A bucket cookie the server did not sign (a client choosing its side of the split): ignored, and the answer draws
    // and signs a bucket of its own, whether the value is a bare id, a signed id with a changed id, or a made-up MAC.
    const signed = visitor(s.server.url);
    await signed.open('/blog');
    const [id, mac] = signed.jar.get('site_bucket')!.split('.') as [string, string];
    for (const forged of [id, `${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}.${mac}`, `${id}.${'A'.repeat(22)}`]) {
      const v = visitor(s.server.url);
      v.jar.set('site_bucket', forged);
      await v.open('/');
      expect(v.setCookies, forged).toHaveLength(1);
      expect(v.jar.get('site_bucket')).toMatch(/^[\w-]{22}\.[\w-]{22}$/);
      expect(v.jar.get('site_bucket')!.startsWith(id)).toBe(false);
    }
    // The signed one is kept: no new cookie.
    const again = signed.setCookies.length;
    await signed.open('/');
    expect(signed.setCookies).toHaveLength(again);
    expect(page.entries.find((e) => e.action === 'canary')).toMatchObject({
      version: '2.0.0',
      previous: served,
      result: 'ok',
      by: 'blog CI',
      message: `serves 2.0.0 to 30% of visitors (sticky per visitor); the others keep ${served}`,
    });
  }, 120_000);

  it('one canary per app: another answers 409, as a deploy does; raising the share keeps its visitors; 100 serves it to everyone', async () => {
    const s = await start(backend);
    const served = (await visitor(s.server.url).open('/blog')).blog!.version;
    await stage(s, blogBuild('2.0.0', 'Blog, canary edition'), '2.0.0');
    await stage(s, blogBuild('3.0.0', 'Blog, third edition'), '3.0.0');
    expect((await post(s, 'promote', { version: '2.0.0', percent: 10 })).status).toBe(200);

    // Another release as a canary, or to everyone, or a deploy: refused while it runs, saying how to go on.
    for (const body of [{ version: '3.0.0', percent: 20 }, { version: '3.0.0' }]) {
      const refused = await post(s, 'promote', body);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'canary_running' });
      expect(refused.body.error!.message).toContain('a canary of blog 2.0.0 runs (10% of visitors since');
      expect(refused.body.error!.message).toContain('POST /api/releases/blog/rollback');
    }
    const deploy = await fetch(`${s.server.url}/api/releases/blog?version=4.0.0`, {
      method: 'POST',
      headers: { 'content-type': 'application/gzip', authorization: `Bearer ${s.token}` },
      body: await packReleaseTarball(blogBuild('4.0.0', 'Blog, fourth edition')),
    });
    expect(deploy.status).toBe(409);
    expect(((await deploy.json()) as { error: { code: string } }).error.code).toBe('canary_running');
    // Bad shares and times: 400, nothing changed. The shell is served to everyone or no one.
    for (const body of [{ version: '2.0.0', percent: 0 }, { version: '2.0.0', percent: 101 }, { version: '2.0.0', percent: 12.5 }, { version: '2.0.0', percent: 30, promoteAfter: 'tomorrow' }]) {
      expect((await post(s, 'promote', body)).status, JSON.stringify(body)).toBe(400);
    }
    const past = await post(s, 'promote', { version: '2.0.0', percent: 30, promoteAfter: new Date(s.now() - 1000).toISOString() });
    expect([past.status, past.body.error?.code]).toEqual([400, 'promote_after_passed']);
    if (backend === 'sqlite') {
      // A staged shell (its folder, as a staged upload leaves it on one machine).
      await s.site.writeFile('shell/staged/9.9.9/index.html', '<!doctype html>');
      const shell = await post(s, 'promote', { version: '9.9.9', percent: 10 }, 'shell');
      expect(shell.status).toBe(400);
      expect(shell.body.error!.message).toContain('the shell is served to everyone or to no one');
    }

    // 10 -> 50: everyone in the first 10% stays in it.
    const visitors = await Promise.all(Array.from({ length: 60 }, async () => {
      const v = visitor(s.server.url);
      return { v, at10: (await v.open('/blog')).blog!.version };
    }));
    expect((await post(s, 'promote', { version: '2.0.0', percent: 50 })).status).toBe(200);
    for (const { v, at10 } of visitors) {
      const at50 = (await v.open('/blog')).blog!.version;
      if (at10 === '2.0.0') expect(at50).toBe('2.0.0');
    }
    expect((await deploysPage(s)).canaries).toEqual([expect.objectContaining({ version: '2.0.0', percent: 50 })]);

    // 100: served to everyone, the canary over; visitors in it or not get it, pages a CDN may keep again.
    const promoted = await post(s, 'promote', { version: '2.0.0', percent: 100 });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(releaseChangeSchema.parse(promoted.body)).toMatchObject({ version: '2.0.0', previous: served });
    expect(promoted.body).not.toHaveProperty('percent');
    await waitFor(async () => (await visitor(s.server.url).open('/blog')).blog?.version === '2.0.0', 5000, 'everyone to get 2.0.0');
    for (const { v } of visitors.slice(0, 10)) expect(await v.open('/blog')).toMatchObject({ blog: { version: '2.0.0', entry: '/mfe/blog/assets/remoteEntry.js' }, cacheControl: 'no-cache' });
    const page = await deploysPage(s);
    expect(page.canaries).toEqual([]);
    expect(page.entries.filter((e) => e.result === 'ok').slice(0, 5).map((e) => [e.action, e.version])).toEqual([
      ['promote', '2.0.0'],
      ['canary', '2.0.0'],
      ['canary', '2.0.0'],
      ['stage', '3.0.0'],
      ['stage', '2.0.0'],
    ]);
    expect(page.entries[0]!.message).toMatch(/^served to everyone after a canary at 50% since 2026-06-01T10:00:00\.000Z; .+ was served before$/);

    // A new canary; a rollback request without a version ends it (everyone back on the served release).
    expect((await post(s, 'promote', { version: '3.0.0', percent: 90 })).status).toBe(200);
    const stopped = await post(s, 'rollback', {});
    expect(stopped.status).toBe(200);
    // Answered as a rollback: what everyone gets now, and the canary's release before it.
    expect(stopped.body).toMatchObject({ version: '2.0.0', previous: '3.0.0' });
    for (let i = 0; i < 10; i++) expect((await visitor(s.server.url).open('/blog')).blog?.version).toBe('2.0.0');
    const log = await deploysPage(s);
    expect(log.canaries).toEqual([]);
    expect(log.entries[0]).toMatchObject({ action: 'canary_rollback', version: '3.0.0', previous: '2.0.0', by: 'blog CI', result: 'ok' });
    expect(log.entries[0]!.message).toContain('stopped by blog CI (a rollback request). Everyone gets 2.0.0 again');
    // Still staged: a canary again, or its preview.
    expect((await post(s, 'promote', { version: '3.0.0', percent: 5 })).status).toBe(200);
  }, 120_000);
});

describe('npm run promote -- blog --percent over HTTP', () => {
  const script = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [path.resolve(import.meta.dirname, '../../../../scripts/deploy-remote.mjs'), ...args], { env: { ...process.env, DEPLOY_TOKEN: '' } }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('starts a canary with its share, refuses a share that is not one, and ends it with npm run rollback', async () => {
    const s = await start('sqlite');
    const served = (await visitor(s.server.url).open('/blog')).blog!.version;
    await stage(s, blogBuild('2.0.0', 'Blog, canary edition'), '2.0.0');
    const bad = await script('promote', 'blog', '--version', '2.0.0', '--percent', '0', '--to', s.server.url, '--token', s.token);
    expect([bad.code, bad.stderr.trim()]).toEqual([1, '✖ --percent is a whole number from 1 to 100 (the share of visitors; 100: everyone), not "0"']);
    const started = await script('promote', 'blog', '--version', '2.0.0', '--percent', '25', '--to', s.server.url, '--token', s.token);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout.trim()).toBe(
      `blog 2.0.0 serves 25% of visitors on ${s.server.url} as a canary (sticky per visitor); the others keep ${served}. It is rolled back by itself if its error rate passes the threshold. ` +
        `Serve it to everyone: npm run promote -- blog --version 2.0.0 --to ${s.server.url} --token <token>; end it: npm run rollback -- blog --to ${s.server.url} --token <token>`,
    );
    expect((await deploysPage(s)).canaries).toEqual([expect.objectContaining({ version: '2.0.0', percent: 25, by: 'blog CI' })]);
    const ended = await script('rollback', 'blog', '--to', s.server.url, '--token', s.token);
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stdout).toContain(`blog ${served} is live again on ${s.server.url} (was 2.0.0)`);
    expect((await deploysPage(s)).canaries).toEqual([]);
  }, 60_000);
});

describeNeedingBuild('canaries rolled back by themselves (built shell server entry)', { missing: serverEntriesMissing() }, () => {
  describe.each(backends)('%s', (backend) => {
    it('a canary whose page throws for every visitor is rolled back by itself; the deploy log and an alert say why', async () => {
      const s = await start(backend, { rendering: true });
      const served = (await visitor(s.server.url).open('/blog')).blog!.version;
      await stage(s, blogBuild('2.0.0-throws', 'Blog, failing edition', { throws: true }), '2.0.0-throws');
      expect((await post(s, 'promote', { version: '2.0.0-throws', percent: 50 })).status).toBe(200);
      // The post its pages fail on, published once the canary runs.
      await s.server.instance.services.posts.create(
        { title: BREAKING, excerpt: 'A post the canary cannot show.', content: `<p>${'A post the canary release cannot render on the server. '.repeat(3)}</p>`, author: 'Tri-Valley AI Team', category: 'News', metaDescription: 'A post published while the canary runs, which its pages cannot show.', status: 'published' },
        { allowStatus: true },
      );

      // Fresh visitors until the canary has had its 50 page views; the check (every 10 s) has said nothing before.
      let canaryViews = 0;
      const inCanary: Array<ReturnType<typeof visitor>> = [];
      while (canaryViews < 50) {
        const v = visitor(s.server.url);
        const page = await v.open('/blog');
        expect(page.status).toBe(200);
        if (page.blog?.version !== '2.0.0-throws') {
          expect(page.html).toContain('<h1>Fixture blog</h1>');
          continue;
        }
        // What the visitor gets: the page, its blog area rendered in the browser (where it fails again).
        expect(page.html).not.toContain('<h1>');
        canaryViews += 1;
        inCanary.push(v);
        if (canaryViews === 49) expect(await s.server.instance.services.canaries.check()).toEqual({ rolledBack: [], promoted: [], stopped: [] });
        s.advance(200);
      }
      // The job's next run (a few seconds later on the app's clock).
      s.advance(5000);
      expect(await s.server.instance.services.canaries.check()).toEqual({ rolledBack: ['blog@2.0.0-throws'], promoted: [], stopped: [] });

      // Everyone gets the served release again, those in the canary too.
      for (const v of inCanary.slice(0, 5)) expect(await v.open('/blog')).toMatchObject({ blog: { version: served }, title: 'The blog' });
      const page = await deploysPage(s);
      expect(page.canaries).toEqual([]);
      const entry = page.entries[0]!;
      expect(entry).toMatchObject({ action: 'canary_rollback', version: '2.0.0-throws', previous: served, result: 'ok', by: 'automatic canary check' });
      expect(entry.message).toContain('Rolled back by itself: blog 2.0.0-throws at 50% of visitors had an error rate 100% (50 server render errors and 0 browser errors from 0 visitors in 50 page views)');
      expect(entry.message).toContain("the threshold is at least 2% and 3 times the served release's rate over at least 50 page views, browser errors counting once at least 5 visitors reported them");
      expect(entry.message).toContain(`Everyone gets ${served} again`);
      const alerts = alertHistorySchema.parse(await (await fetch(`${s.server.url}/api/admin/alerts?limit=20`, { headers: { cookie: s.admin } })).json()).alerts;
      const alert = alerts.find((a) => a.title === 'Canary 2.0.0-throws of blog rolled back');
      expect(alert).toMatchObject({ type: 'deployment', severity: 'high' });
      expect(alert!.message).toContain('error rate 100% (50 server render errors');
      // Once: the next checks find no canary.
      expect(await s.server.instance.services.canaries.check()).toEqual({ rolledBack: [], promoted: [], stopped: [] });
    }, 120_000);

    it('a canary failing as rarely as the served release (0.5%) is not rolled back, and is served to everyone at its promoteAfter', async () => {
      const s = await start(backend, { rendering: true });
      const served = (await visitor(s.server.url).open('/blog')).blog!.version;
      await stage(s, blogBuild('2.1.0', 'Blog, steady edition', { throws: false }), '2.1.0');
      const promoteAfter = new Date(s.now() + 30 * 60_000).toISOString();
      expect((await post(s, 'promote', { version: '2.1.0', percent: 20, promoteAfter })).body).toMatchObject({ percent: 20, promoteAfter });
      // 1,000 page views of each release, 5 errors each (what the pages and the browsers' beacons count).
      const counter = s.server.instance.services.releaseErrors;
      for (const release of [served, '2.1.0']) {
        for (let i = 0; i < 1000; i++) counter.pageView('blog', release);
        for (let i = 0; i < 3; i++) counter.renderError('blog', release);
        await counter.fromBrowser([0, 1].map(() => ({ name: 'remote_error' as const, props: { app: 'blog' as const, release, kind: 'render' as const, message: 'TypeError: x is undefined' } })));
      }
      for (let minute = 0; minute < 5; minute++) {
        expect(await s.server.instance.services.canaries.check()).toEqual({ rolledBack: [], promoted: [], stopped: [] });
        s.advance(60_000);
      }
      const canary = (await deploysPage(s)).canaries![0]!;
      // The browsers' two errors came from no named visitor: shown, and not part of the rate (fewer than 5 visitors).
      expect(canary).toMatchObject({ version: '2.1.0', percent: 20, promoteAfter, canary: { pageViews: 1000, renderErrors: 3, clientErrors: 2, clientReporters: 0, rate: 0.003 }, served: { renderErrors: 3, clientErrors: 2 } });
      expect(canary.served.pageViews).toBeGreaterThanOrEqual(1000);

      // At its time, served to everyone by the check.
      s.advance(30 * 60_000);
      expect(await s.server.instance.services.canaries.check()).toEqual({ rolledBack: [], promoted: ['blog@2.1.0'], stopped: [] });
      await waitFor(async () => (await visitor(s.server.url).open('/blog')).blog?.version === '2.1.0', 5000, 'everyone to get 2.1.0');
      const page = await deploysPage(s);
      expect(page.canaries).toEqual([]);
      expect(page.entries[0]).toMatchObject({ action: 'promote', version: '2.1.0', previous: served, by: 'canary timer (promoteAfter)', result: 'ok' });
    }, 120_000);
  });
});

describe.each(backends)('a canary and the browsers’ reports (%s)', (backend) => {
  it('browser errors from a few visitors never roll a canary back, however many; from 5 distinct visitors they do', async () => {
    const s = await start(backend);
    await stage(s, blogBuild('2.2.0-crashes', 'Blog, crashing in the browser'), '2.2.0-crashes');
    expect((await post(s, 'promote', { version: '2.2.0-crashes', percent: 50 })).status).toBe(200);
    // 60 page loads of the canary, which the server counts itself; it renders them fine (the failure is in the browser).
    const inCanary: Array<ReturnType<typeof visitor>> = [];
    while (inCanary.length < 60) {
      const v = visitor(s.server.url);
      if ((await v.open('/blog')).blog?.version === '2.2.0-crashes') inCanary.push(v);
    }
    /** What the shell of a canary page does when the blog fails: asks for its page load's token, sends the report with it. */
    const report = async (v: ReturnType<typeof visitor>, address: string) => {
      const headers = { 'user-agent': BROWSER_UA, cookie: [...v.jar].map(([k, value]) => `${k}=${value}`).join('; ') };
      const { token } = JSON.parse((await fetchFrom(address, `${s.server.url}/page-token.json`, { headers })).text) as { token: string };
      expect((JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { r: Record<string, string> }).r.blog).toBe('2.2.0-crashes');
      const events = [{ name: 'remote_error', path: '/blog', props: { app: 'blog', release: '2.2.0-crashes', kind: 'render', message: 'TypeError: crashes in the browser' } }];
      const sent = await fetchFrom(address, `${s.server.url}/api/events`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', origin: s.server.config.publicOrigin },
        body: JSON.stringify({ events, token }),
      });
      return (JSON.parse(sent.text) as { recorded: number }).recorded;
    };
    const nothing = { rolledBack: [], promoted: [], stopped: [] };

    // One address, every canary page's report: 20 count (its minute's cap), from one visitor: no rollback.
    let counted = 0;
    for (const v of inCanary.slice(0, 40)) counted += await report(v, '127.0.0.2');
    expect(counted).toBe(20);
    expect(await s.server.instance.services.canaries.check()).toEqual(nothing);
    // Three more visitors: four in all, still no rollback, whatever the rate of their reports.
    for (const [i, address] of ['127.0.0.3', '127.0.0.4', '127.0.0.5'].entries()) expect(await report(inCanary[40 + i]!, address)).toBe(1);
    s.advance(5000);
    expect(await s.server.instance.services.canaries.check()).toEqual(nothing);
    const status = (await deploysPage(s)).canaries![0]!;
    expect(status.canary).toMatchObject({ pageViews: 60, renderErrors: 0, clientErrors: 23, clientReporters: 4, rate: 0 });
    expect((await deploysPage(s)).canaryRules).toMatchObject({ minReporters: 5 });

    // The fifth distinct visitor: the browsers' errors count now, and the canary goes.
    expect(await report(inCanary[43]!, '127.0.0.6')).toBe(1);
    s.advance(5000);
    expect(await s.server.instance.services.canaries.check()).toEqual({ ...nothing, rolledBack: ['blog@2.2.0-crashes'] });
    const entry = (await deploysPage(s)).entries[0]!;
    expect(entry).toMatchObject({ action: 'canary_rollback', version: '2.2.0-crashes', by: 'automatic canary check' });
    expect(entry.message).toContain('had an error rate 40% (0 server render errors and 24 browser errors from 5 visitors in 60 page views)');
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('canaries on two instances sharing PostgreSQL', () => {
  it('gives the same visitor the same release from either instance', async () => {
    const schema = uniqueSchema();
    const a = await start('postgres', { pgSchema: schema, env: { RELEASE_POLL_MS: '600000' } });
    // The second machine: its own site root and data, the same database (schema); it hears of the canary by NOTIFY.
    const bSite = await createSiteFixture();
    const b = await startTestServer({
      siteRoot: bSite.root,
      env: { ...ADMIN_ENV, DATABASE_URL: process.env.TEST_DATABASE_URL, RELEASE_POLL_MS: '600000' },
      deps: { clock: () => new Date(a.now()), database: { pgSchema: schema } },
    }).catch(async (error: unknown) => {
      await bSite.cleanup();
      throw error;
    });
    // b first, then a (whose close drops the schema once both have stopped).
    cleanups.push(async () => {
      await b.running.close();
      await rm(b.dataDir, { recursive: true, force: true });
      await bSite.cleanup();
    });
    const served = (await visitor(a.server.url).open('/blog')).blog!.version;
    // b copies the shared release at its first sync.
    await waitFor(async () => (await visitor(b.url).open('/blog')).blog?.version === served, 10_000, 'the second instance to serve the shared release');

    await stage(a, blogBuild('2.0.0', 'Blog, canary edition'), '2.0.0');
    expect((await post(a, 'promote', { version: '2.0.0', percent: 50 })).status).toBe(200);
    // b splits too (NOTIFY, then its release sync reads the canary and copies the staged release when first asked).
    await waitFor(async () => (await Promise.all(Array.from({ length: 10 }, () => visitor(b.url).open('/blog')))).some((p) => p.blog?.version === '2.0.0'), 10_000, 'the second instance to serve the canary');

    const seen = { canary: 0, served: 0 };
    for (let i = 0; i < 60; i++) {
      const v = visitor(a.server.url);
      const [first, second] = i % 2 ? [a.server.url, b.url] : [b.url, a.server.url];
      const here = await v.open('/blog', first);
      const there = await v.open('/blog', second);
      const next = await v.open('/', first);
      expect([there.blog?.version, next.blog?.version, there.title]).toEqual([here.blog?.version, here.blog?.version, here.title]);
      seen[here.blog?.version === '2.0.0' ? 'canary' : 'served'] += 1;
    }
    console.info(`two instances: ${seen.canary} of 60 visitors in the 50% canary, each the same release on both`);
    expect(seen.canary).toBeGreaterThan(10);
    expect(seen.served).toBeGreaterThan(10);
    // Each canary visitor's two blog pages, one on each instance: the counts of both add up (the other's within its
    // next flush, every 5 s) in the Deploys screen of either.
    await waitFor(async () => ((await deploysPage(a, b)).canaries?.[0]?.canary.pageViews ?? 0) >= 2 * seen.canary, 15_000, 'both instances\' counts of the canary');
  }, 120_000);
});
