import { execFile } from 'node:child_process';
import { currentShell } from '../release-format';
import { checkStatsNow } from '../../../lib/stat-shared';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deployLogPageSchema } from '@site/contracts/deploys';
import { healthSchema, type RemoteHealth } from '@site/contracts/manifest';
import type { Post } from '@site/contracts/posts';
import { createLogger } from '../../../lib/logger';
import { blogServerModule, createSiteFixture, MANIFESTS, type SiteFixture } from '../../../test-support/site-fixture';
import { ADMIN_ENV, adminCookie } from '../../../test-support/admin-session';
import { SERVE_BUILDS_IN_PLACE, startTestServer, type TestServer } from '../../../test-support/test-server';
import { createRemoteRegistry } from '../remote-registry';
import { newSigningKey, parseTrustedKeys, trustedKeyEntry } from '../release-signature';

const DEPLOY_SCRIPT = path.resolve(import.meta.dirname, '../../../../../scripts/deploy-remote.mjs');
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];

/** `npm run deploy -- …` / `npm run rollback -- …` against the fixture's SITE_ROOT, in its own process. */
function script(siteRoot: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return scriptWith({}, siteRoot, ...args);
}

/** The same, with more of the site's environment (DATA_DIR: the running server's database, its deploy log). */
function scriptWith(env: Record<string, string>, siteRoot: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [DEPLOY_SCRIPT, ...args], { env: { ...process.env, SITE_ROOT: siteRoot, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  }).then(async (result) => {
    // The server sees another process's deploy at its next once-a-second check: run here at once.
    await checkStatsNow();
    return result;
  });
}

interface Build {
  version: string;
  /** The blog page's title: the visible text that changes between versions. */
  title: string;
  /** A content-hashed chunk only this build has. */
  chunk: string;
  /** The server module's text (the route table), e.g. a broken one. */
  serverModule?: string;
}

const FIRST: Build = { version: '1.0.0', title: 'Blog, first edition', chunk: 'page-First111.js' };
const SECOND: Build = { version: '2.0.0', title: 'Blog, second edition', chunk: 'page-Second22.js' };
const BROKEN: Build = { version: '4.0.0', title: 'Blog with a broken server', chunk: 'page-Broken44.js', serverModule: 'export const routes = [ this is not javascript' };
const NO_ROUTES: Build = { version: '4.1.0', title: 'Blog without routes', chunk: 'page-NoRoute4.js', serverModule: 'export const nothing = 1;' };
const FIXED: Build = { version: '5.0.0', title: 'Blog, fixed edition', chunk: 'page-Fixed555.js' };

describe('deploying a remote as a release, and rolling it back, while the server runs', () => {
  let site: SiteFixture;
  let server: TestServer;
  let builds: string;
  let post: Post;
  const logLines: Array<{ level: number; msg: string; remote?: string }> = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void logLines.push(JSON.parse(line)) } });

  /** A blog build outside the site root, as `npm run build` would leave it in mfe-blog/dist. */
  async function build(b: Build): Promise<string> {
    const dir = path.join(builds, b.version);
    const files: Record<string, string> = {
      'mfe-manifest.json': JSON.stringify({ ...MANIFESTS.blog, version: b.version, pages: [{ path: '/blog', title: b.title, description: 'Guides' }] }),
      'assets/remoteEntry.js': `export const title = ${JSON.stringify(b.title)};`,
      [`assets/${b.chunk}`]: `export default ${JSON.stringify(b.title)};`,
      'server/routes.js': b.serverModule ?? blogServerModule(` | ${b.title}`),
    };
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), content);
    }
    return dir;
  }

  async function deploy(b: Build) {
    // A broken server module would be refused by the script's own load check: deploy it anyway, to see the server refuse it.
    const result = await script(site.root, 'deploy', 'blog', '--from', await build(b), ...(b.serverModule ? ['--skip-load-check'] : []));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return result;
  }

  /** What a visitor and the shell see of the blog right now. */
  async function served() {
    const remotes = (await (await fetch(`${server.url}/remotes.json`)).json()) as { blog?: { version: string } };
    const page = await (await fetch(`${server.url}/blog`)).text();
    const postPage = await (await fetch(`${server.url}/blog/${post.slug}`)).text();
    const entry = await fetch(`${server.url}/mfe/blog/assets/remoteEntry.js`);
    return { version: remotes.blog?.version, title: titleOf(page), postTitle: titleOf(postPage), entry: await entry.text() };
  }

  /** A release that does not fail, as health counts it (issue 34: its error rate is under the threshold). */
  const HEALTHY = expect.objectContaining({ failing: false });
  /** What the admin reads of the blog in /api/health (anyone else sees its version only). */
  async function blogHealth(): Promise<RemoteHealth | undefined> {
    const response = await fetch(`${server.url}/api/health`, { headers: { cookie: await adminCookie(server) } });
    return healthSchema.parse(await response.json()).remotes.blog;
  }

  // Each test starts from a fresh clone serving mfe-blog/dist (no release yet) and deploys what it needs.
  beforeEach(async () => {
    logLines.length = 0;
    site = await createSiteFixture();
    builds = await mkdtemp(path.join(tmpdir(), 'api-test-builds-'));
    server = await startTestServer({ siteRoot: site.root, env: { ...SERVE_BUILDS_IN_PLACE, ...ADMIN_ENV, ...SERVE_BUILDS_IN_PLACE }, deps: { logger } });
    post = await server.instance.services.posts.create(
      {
        title: 'Chatbots for dentists',
        excerpt: 'How a two-chair practice answers patients after hours.',
        content: `<p>${'A small practice can answer the common questions of its patients at any hour. '.repeat(3)}</p>`,
        author: 'Tri-Valley AI Team',
        category: 'Case Studies',
        metaDescription: 'A Danville dental practice answers patient questions at night with a small chatbot.',
        status: 'published',
      },
      { allowStatus: true },
    );
  });
  afterEach(async () => {
    await server.close();
    await site.cleanup();
    await rm(builds, { recursive: true, force: true });
  });

  it('serves mfe-blog/dist while no release pointer exists', async () => {
    expect(await served()).toMatchObject({ version: '0.9.0', title: 'The blog' });
    expect(await blogHealth()).toEqual({ version: '0.9.0', remoteEntry: 'ok', serverEntry: 'ok', since: expect.any(String), errors: HEALTHY });
  });

  it('serves a deployed release on the next request, with no restart: version, page text, remote entry, server module', async () => {
    const result = await deploy(FIRST);
    expect(result.stdout).toContain('blog 1.0.0 is live');
    expect(await served()).toEqual({
      version: '1.0.0',
      title: 'Blog, first edition',
      postTitle: 'Chatbots for dentists | Blog, first edition',
      entry: 'export const title = "Blog, first edition";',
    });
    expect(await blogHealth()).toEqual({ version: '1.0.0', remoteEntry: 'ok', serverEntry: 'ok', pointer: '1.0.0', since: expect.any(String), errors: HEALTHY });

    // The second deploy is the visible text change.
    await deploy(SECOND);
    expect(await served()).toEqual({
      version: '2.0.0',
      title: 'Blog, second edition',
      postTitle: 'Chatbots for dentists | Blog, second edition',
      entry: 'export const title = "Blog, second edition";',
    });
  });

  it('keeps answering the hashed chunks of earlier releases (tabs still open on them), never their entry points', async () => {
    await deploy(FIRST);
    await deploy(SECOND);
    const old = await fetch(`${server.url}/mfe/blog/assets/page-First111.js`);
    expect(old.status).toBe(200);
    expect(old.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await old.text()).toContain('Blog, first edition');
    // From mfe-blog/dist, served before the first release.
    expect((await fetch(`${server.url}/mfe/blog/assets/style-CFEB0EW0.css`)).status).toBe(200);
    // A file that is not content-hashed only ever comes from the current release.
    expect((await fetch(`${server.url}/mfe/blog/assets/fonts/inter.woff2`)).status).toBe(404);
    // The server module of no release goes to browsers.
    expect((await fetch(`${server.url}/mfe/blog/server/routes.js`)).status).toBe(404);
  });

  it('rolls back to the previous release in one step: the old text is back on the next request', async () => {
    await deploy(FIRST);
    await deploy(SECOND);
    const result = await script(site.root, 'rollback', 'blog');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('current: 2.0.0 -> 1.0.0');
    expect(await served()).toEqual({
      version: '1.0.0',
      title: 'Blog, first edition',
      postTitle: 'Chatbots for dentists | Blog, first edition',
      entry: 'export const title = "Blog, first edition";',
    });
    expect(await blogHealth()).toEqual({ version: '1.0.0', remoteEntry: 'ok', serverEntry: 'ok', pointer: '1.0.0', since: expect.any(String), errors: HEALTHY });
    // Tabs opened on 2.0.0 still get its chunks.
    expect((await fetch(`${server.url}/mfe/blog/assets/page-Second22.js`)).status).toBe(200);
  });

  it('never serves a half-written deploy: a release being copied, or a pointer naming a missing or incomplete release', async () => {
    // Serving 1.0.0 (rolled back to), with 2.0.0 beside it.
    await deploy(FIRST);
    await deploy(SECOND);
    expect((await script(site.root, 'rollback', 'blog')).code).toBe(0);
    // A copy under way: in its hidden incoming folder, or already named but the pointer not swapped yet.
    await site.writeFile('mfe-blog/releases/.incoming-3.0.0-4242/mfe-manifest.json', JSON.stringify({ ...MANIFESTS.blog, version: '3.0.0' }));
    await site.writeFile(
      'mfe-blog/releases/3.0.0/mfe-manifest.json',
      JSON.stringify({ ...MANIFESTS.blog, version: '3.0.0', pages: [{ path: '/blog', title: 'Half copied', description: 'x' }] }),
    );
    expect(await served()).toMatchObject({ version: '1.0.0', title: 'Blog, first edition' });

    // A pointer naming that incomplete release (no remoteEntry.js, no server module), a missing one, or nonsense.
    for (const [pointer, reason] of [
      ['3.0.0', 'releases/3.0.0/assets/remoteEntry.js is missing'],
      ['9.9.9', 'releases/9.9.9/ does not exist'],
      ['../../shell/dist', 'is not a release name'],
    ] as const) {
      await site.writeFile('mfe-blog/current', `${pointer}\n`);
      expect(await served(), pointer).toEqual({
        version: '1.0.0',
        title: 'Blog, first edition',
        postTitle: 'Chatbots for dentists | Blog, first edition',
        entry: 'export const title = "Blog, first edition";',
      });
      const health = await blogHealth();
      expect(health, pointer).toMatchObject({ version: '1.0.0', lastKnownGood: '1.0.0', failedRelease: { version: pointer } });
      expect(health?.failedRelease?.reason, pointer).toContain(reason);
    }
    // An empty pointer (a writer that did not rename) is not a release either.
    await site.writeFile('mfe-blog/current', '');
    expect((await served()).version).toBe('1.0.0');
    expect(logLines.some((l) => l.level >= 50 && l.remote === 'blog' && /release .* is not served/.test(l.msg))).toBe(true);

    // Back to a good release with the script.
    expect((await script(site.root, 'rollback', 'blog', '--to', '2.0.0')).code).toBe(0);
    expect(await served()).toMatchObject({ version: '2.0.0', title: 'Blog, second edition' });
    expect(await blogHealth()).toEqual({ version: '2.0.0', remoteEntry: 'ok', serverEntry: 'ok', pointer: '2.0.0', since: expect.any(String), errors: HEALTHY });
  });

  it('keeps serving the last known good release entirely when a new release’s server module does not load, and says so in health', async () => {
    await deploy(FIRST);
    await deploy(SECOND);
    expect((await served()).version).toBe('2.0.0');
    await deploy(BROKEN);
    // Browser code and server code stay those of 2.0.0: nothing of 4.0.0 is served but its hashed chunks.
    expect(await served()).toEqual({
      version: '2.0.0',
      title: 'Blog, second edition',
      postTitle: 'Chatbots for dentists | Blog, second edition',
      entry: 'export const title = "Blog, second edition";',
    });
    const health = await blogHealth();
    expect(health).toMatchObject({ version: '2.0.0', remoteEntry: 'ok', serverEntry: 'ok', lastKnownGood: '2.0.0', failedRelease: { version: '4.0.0' } });
    expect(health?.failedRelease?.reason).toContain('server/routes.js does not load');

    // A release whose server module loads but exports no route table is refused too.
    await deploy(NO_ROUTES);
    expect((await blogHealth())?.failedRelease).toEqual({ version: '4.1.0', reason: 'server/routes.js does not load: it does not export a `routes` array' });
    expect((await served()).version).toBe('2.0.0');

    // The fixed build goes live at once.
    await deploy(FIXED);
    expect(await served()).toMatchObject({ version: '5.0.0', title: 'Blog, fixed edition', postTitle: 'Chatbots for dentists | Blog, fixed edition' });
    expect(await blogHealth()).toEqual({ version: '5.0.0', remoteEntry: 'ok', serverEntry: 'ok', pointer: '5.0.0', since: expect.any(String), errors: HEALTHY });
  });

  it('after a restart with the pointer on a broken release, serves the release below it in the history', async () => {
    // History 1.0.0, 2.0.0, 4.0.0 (broken), 4.1.0 (no route table), 5.0.0; this process has served 5.0.0.
    for (const b of [FIRST, SECOND, BROKEN, NO_ROUTES, FIXED]) await deploy(b);
    expect(await served()).toMatchObject({ version: '5.0.0', title: 'Blog, fixed edition' });
    // Rolling back from 5.0.0 lands on 4.1.0 (no route table): this process keeps 5.0.0, the last it served.
    expect((await script(site.root, 'rollback', 'blog', '--skip-load-check')).stdout).toContain('current: 5.0.0 -> 4.1.0');
    expect(await blogHealth()).toMatchObject({ version: '5.0.0', lastKnownGood: '5.0.0', failedRelease: { version: '4.1.0' } });

    // A fresh server has no memory of 5.0.0: it walks down the history (4.1.0, 4.0.0 broken) to 2.0.0.
    const restarted = await startTestServer({ siteRoot: site.root, env: { ...SERVE_BUILDS_IN_PLACE, ...ADMIN_ENV, ...SERVE_BUILDS_IN_PLACE } });
    try {
      const remotes = (await (await fetch(`${restarted.url}/remotes.json`)).json()) as { blog: { version: string } };
      expect(remotes.blog.version).toBe('2.0.0');
      expect(titleOf(await (await fetch(`${restarted.url}/blog`)).text())).toBe('Blog, second edition');
      const asAdmin = { headers: { cookie: await adminCookie(restarted) } };
      const health = healthSchema.parse(await (await fetch(`${restarted.url}/api/health`, asAdmin)).json());
      expect(health.remotes.blog).toMatchObject({ version: '2.0.0', serverEntry: 'ok', lastKnownGood: '2.0.0', failedRelease: { version: '4.1.0' } });
    } finally {
      await restarted.close();
    }
  });
});

describe('hashed chunks of earlier releases', () => {
  let site: SiteFixture;
  let server: TestServer;
  let builds: string;
  beforeAll(async () => {
    site = await createSiteFixture();
    builds = await mkdtemp(path.join(tmpdir(), 'api-test-builds-'));
    server = await startTestServer({ siteRoot: site.root, env: SERVE_BUILDS_IN_PLACE });
  });
  afterAll(async () => {
    await server.close();
    await site.cleanup();
    await rm(builds, { recursive: true, force: true });
  });

  it('answers them from the 5 most recent earlier releases only', async () => {
    const chunk = (n: number) => `assets/page-Rel0000${n}.js`;
    for (let n = 1; n <= 7; n++) {
      const dir = path.join(builds, `r${n}`);
      const files = {
        'mfe-manifest.json': JSON.stringify({ ...MANIFESTS.blog, version: `${n}.0.0` }),
        'assets/remoteEntry.js': `export const n = ${n};`,
        [chunk(n)]: `export default ${n};`,
        'server/routes.js': blogServerModule(),
      };
      for (const [file, content] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), content);
      }
      expect((await script(site.root, 'deploy', 'blog', '--from', dir)).code).toBe(0);
    }
    const statusOf = async (n: number) => (await fetch(`${server.url}/mfe/blog/${chunk(n)}`)).status;
    expect(await statusOf(7)).toBe(200);
    for (let n = 2; n <= 6; n++) expect(await statusOf(n), `release ${n}`).toBe(200);
    expect(await statusOf(1)).toBe(404);
    // Seven deploys, each a process of its own: past 20 s on a loaded machine.
  }, 60_000);
});

describe('the first deploy of a remote, rolled back: what was served before it, byte for byte', () => {
  let site: SiteFixture;
  let server: TestServer;
  let builds: string;

  /** A blog build outside the site root whose remote entry and stylesheet differ from the fixture's dist. */
  async function build(version: string): Promise<string> {
    const dir = path.join(builds, version);
    const files: Record<string, string> = {
      'mfe-manifest.json': JSON.stringify({ ...MANIFESTS.blog, version, pages: [{ path: '/blog', title: `Blog ${version}`, description: 'Guides' }] }),
      'assets/remoteEntry.js': `export const version = ${JSON.stringify(version)};`,
      'assets/style-CFEB0EW0.css': `.blog{content:${JSON.stringify(version)}}`,
      'server/routes.js': blogServerModule(),
    };
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), content);
    }
    return dir;
  }

  /** What a visitor and the shell get of the blog: the files as bytes, the version /remotes.json names, the title. */
  async function visible() {
    const bytes = async (file: string) => {
      const response = await fetch(`${server.url}/mfe/blog/${file}`);
      expect(response.status, file).toBe(200);
      return Buffer.from(await response.arrayBuffer()).toString('base64');
    };
    const remotes = (await (await fetch(`${server.url}/remotes.json`)).json()) as { blog?: { version: string } };
    return {
      version: remotes.blog?.version,
      title: titleOf(await (await fetch(`${server.url}/blog`)).text()),
      manifest: await bytes('mfe-manifest.json'),
      remoteEntry: await bytes('assets/remoteEntry.js'),
      stylesheet: await bytes('assets/style-CFEB0EW0.css'),
    };
  }

  async function blogHealth(): Promise<RemoteHealth | undefined> {
    const response = await fetch(`${server.url}/api/health`, { headers: { cookie: await adminCookie(server) } });
    return healthSchema.parse(await response.json()).remotes.blog;
  }

  /** `npm run build` run again in the served folder after the deploy: the dist no longer holds what was served. */
  async function rebuildDistInPlace() {
    await site.writeManifest('blog', { ...MANIFESTS.blog, version: '0.9.1' });
    await site.writeFile('mfe-blog/dist/assets/remoteEntry.js', 'export const rebuilt = true;');
    await site.writeFile('mfe-blog/dist/assets/style-CFEB0EW0.css', '.blog{color:blue}');
  }

  beforeEach(async () => {
    // A fresh clone: a built mfe-blog/dist (0.9.0) served in place, no release yet.
    site = await createSiteFixture();
    builds = await mkdtemp(path.join(tmpdir(), 'api-test-builds-'));
    server = await startTestServer({ siteRoot: site.root, env: { ...SERVE_BUILDS_IN_PLACE, ...ADMIN_ENV, ...SERVE_BUILDS_IN_PLACE } });
  });
  afterEach(async () => {
    await server.close();
    await site.cleanup();
    await rm(builds, { recursive: true, force: true });
  });

  it('deploy, then rollback: the dist served before the deploy is served again, and nothing is earlier', async () => {
    const before = await visible();
    expect(before).toMatchObject({ version: '0.9.0', title: 'The blog' });
    // The running site's database: the script writes its deploy log there.
    const onSite = { DATA_DIR: server.dataDir };

    const deployed = await scriptWith(onSite, site.root, 'deploy', 'blog', '--from', await build('1.0.0'));
    expect(deployed.stderr).toBe('');
    expect(deployed.code).toBe(0);
    expect(deployed.stdout).toContain('mfe-blog/releases/0.9.0+dist (7 files');
    expect(deployed.stdout).toContain('current: (none: mfe-blog/dist was served, kept as 0.9.0+dist) -> 1.0.0');
    expect(deployed.stdout).toContain('Undo with: npm run rollback -- blog');
    expect(await visible()).toMatchObject({ version: '1.0.0', title: 'Blog 1.0.0' });
    await rebuildDistInPlace();

    const back = await scriptWith(onSite, site.root, 'rollback', 'blog');
    expect(back.stderr).toBe('');
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('current: 1.0.0 -> 0.9.0+dist');
    expect(back.stdout).toContain('blog 0.9.0+dist is live again');
    // The same bytes as before the deploy; /remotes.json and health name the release that holds them.
    expect(await visible()).toEqual({ ...before, version: '0.9.0+dist' });
    const health = await blogHealth();
    expect(health).toMatchObject({ version: '0.9.0+dist', remoteEntry: 'ok', serverEntry: 'ok' });
    expect(health?.failedRelease).toBeUndefined();
    expect(health?.lastKnownGood).toBeUndefined();

    // The deploy log is the one log: both are on the Deploys screen; history.json keeps the stack and which release is the kept dist.
    const cookie = await adminCookie(server);
    const log = deployLogPageSchema.parse(await (await fetch(`${server.url}/api/admin/deploys?app=blog`, { headers: { cookie } })).json());
    expect(log.entries.map((e) => [e.action, e.version, e.previous, e.result, e.message])).toEqual([
      ['rollback', '0.9.0+dist', '1.0.0', 'ok', null],
      ['deploy', '1.0.0', '0.9.0+dist', 'ok', 'mfe-blog/dist, served until now, kept as 0.9.0+dist: the rollback target'],
    ]);
    expect(log.entries.every((e) => e.by.startsWith('npm run '))).toBe(true);
    expect(JSON.parse(await readFile(path.join(site.root, 'mfe-blog/history.json'), 'utf8'))).toEqual({ stack: ['0.9.0+dist'], keptDist: '0.9.0+dist' });

    const again = await script(site.root, 'rollback', 'blog');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'blog has no release before 0.9.0+dist to roll back to: 0.9.0+dist is mfe-blog/dist as it was served before the first release, nothing earlier was kept',
    );
    expect(await visible()).toEqual({ ...before, version: '0.9.0+dist' });
  });

  it('deploy twice (the first of the dist\'s own version), then rollback twice: back to the dist served before', async () => {
    const before = await visible();
    const first = await script(site.root, 'deploy', 'blog', '--from', await build('0.9.0'));
    expect(first.code).toBe(0);
    // The new release keeps the manifest's version; the kept dist is told apart by its suffix.
    expect(first.stdout).toContain('current: (none: mfe-blog/dist was served, kept as 0.9.0+dist) -> 0.9.0');
    expect((await script(site.root, 'deploy', 'blog', '--from', await build('2.0.0'))).stdout).toContain('current: 0.9.0 -> 2.0.0');
    expect(await visible()).toMatchObject({ version: '2.0.0', title: 'Blog 2.0.0' });
    await rebuildDistInPlace();

    const once = await script(site.root, 'rollback', 'blog');
    expect(once.stdout).toContain('current: 2.0.0 -> 0.9.0');
    expect(await visible()).toMatchObject({ version: '0.9.0', title: 'Blog 0.9.0' });

    const twice = await script(site.root, 'rollback', 'blog');
    expect(twice.code).toBe(0);
    expect(twice.stdout).toContain('current: 0.9.0 -> 0.9.0+dist');
    expect(await visible()).toEqual({ ...before, version: '0.9.0+dist' });
    expect(await blogHealth()).toMatchObject({ version: '0.9.0+dist', remoteEntry: 'ok', serverEntry: 'ok' });
    expect((await script(site.root, 'rollback', 'blog')).stderr).toContain('no release before 0.9.0+dist');
  });
});

describe('a release the serving shell cannot run', () => {
  let site: SiteFixture;
  let builds: string;

  beforeEach(async () => {
    site = await createSiteFixture();
    builds = await mkdtemp(path.join(tmpdir(), 'api-test-builds-'));
    // What the serving shell's build says it provides.
    await site.writeFile(
      'shell/dist/shell-manifest.json',
      JSON.stringify({
        name: 'shell',
        version: '1.0.0',
        builtWith: { shared: { react: '19.3.1', 'react-dom': '19.3.1', 'react-router-dom': '7.18.5', zustand: '5.0.8', '@site/ui': '1.0.0' }, serverContract: 1 },
      }),
    );
  });
  afterEach(async () => {
    await site.cleanup();
    await rm(builds, { recursive: true, force: true });
  });

  async function buildWith(version: string, shared: Record<string, string>, serverContract = 1): Promise<string> {
    const dir = path.join(builds, version);
    const files: Record<string, string> = {
      'mfe-manifest.json': JSON.stringify({ ...MANIFESTS.blog, version, builtWith: { shared, serverContract } }),
      'assets/remoteEntry.js': `export const version = ${JSON.stringify(version)};`,
      'server/routes.js': blogServerModule(),
    };
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), content);
    }
    return dir;
  }

  it('is refused by the deploy with a clear message, and nothing changes: no release folder, no pointer, no history', async () => {
    const react18 = await script(site.root, 'deploy', 'blog', '--from', await buildWith('2.0.0', { react: '18.3.1', 'react-dom': '18.3.1', 'react-router-dom': '7.18.5' }));
    expect(react18.code).toBe(1);
    expect(react18.stderr).toContain('cannot be deployed: it cannot run in the serving shell');
    expect(react18.stderr).toContain('it was built against react 18.3.1 (needs ^18.3.1), the shell provides 19.3.1');
    expect(react18.stderr).toContain('react-dom 18.3.1');
    expect(react18.stderr).toContain('Nothing was changed.');
    expect(existsSync(path.join(site.root, 'mfe-blog/current'))).toBe(false);
    expect(existsSync(path.join(site.root, 'mfe-blog/history.json'))).toBe(false);
    expect(existsSync(path.join(site.root, 'mfe-blog/releases/2.0.0'))).toBe(false);

    // A newer patch or minor of what the remote was built against is what ^ allows; the shell's 19.3.1 serves 19.2.0.
    const compatible = await script(site.root, 'deploy', 'blog', '--from', await buildWith('2.1.0', { react: '19.2.0', 'react-dom': '19.2.0', '@site/ui': '1.0.0' }));
    expect(compatible.stderr).toBe('');
    expect(compatible.code).toBe(0);

    // A remote needing a newer React than the shell has is refused as well, as is another server contract.
    const newer = await script(site.root, 'deploy', 'blog', '--from', await buildWith('2.2.0', { react: '19.4.0' }));
    expect(newer.stderr).toContain('it was built against react 19.4.0 (needs ^19.4.0), the shell provides 19.3.1');
    const contract = await script(site.root, 'deploy', 'blog', '--from', await buildWith('2.3.0', { react: '19.3.1' }, 2));
    expect(contract.stderr).toContain('built for server contract 2, the shell serves contract 1');
    expect((await readFile(path.join(site.root, 'mfe-blog/current'), 'utf8')).trim()).toBe('2.1.0');
  });

  /** A shell build providing these shared singletons (index.html, shell-manifest.json). */
  async function shellWith(name: string, shared: Record<string, string>): Promise<string> {
    const dir = path.join(builds, `shell-${name}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'index.html'), `<!doctype html><title>${name}</title>`);
    await writeFile(path.join(dir, 'shell-manifest.json'), JSON.stringify({ name: 'shell', version: name, builtWith: { shared, serverContract: 1 } }));
    return dir;
  }
  /** The serving shell's manifest: its release's (shell/current), else shell/dist's. */
  const servedShell = async () => JSON.parse(await readFile(path.join((await currentShell(site.root)).dir, 'shell-manifest.json'), 'utf8')) as { version: string };

  it("the shell's own deploy refuses a shell that would strand a served remote, with nothing changed; a compatible one deploys and rolls back", async () => {
    expect((await script(site.root, 'deploy', 'blog', '--from', await buildWith('2.1.0', { react: '19.2.0', 'react-dom': '19.2.0' }))).code).toBe(0);

    const react18 = await script(site.root, 'deploy', 'shell', '--from', await shellWith('0.9.0', { react: '18.3.1', 'react-dom': '18.3.1', 'react-router-dom': '7.18.5' }));
    expect(react18.code).toBe(1);
    expect(react18.stderr).toContain('would strand a served remote, which could not run in it');
    expect(react18.stderr).toContain('blog 2.1.0: it was built against react 19.2.0 (needs ^19.2.0), the shell provides 18.3.1');
    expect(react18.stderr).toContain('Nothing was changed.');
    expect((await servedShell()).version).toBe('1.0.0');
    expect(existsSync(path.join(site.root, 'shell/releases/0.9.0'))).toBe(false);

    const newer = await script(site.root, 'deploy', 'shell', '--from', await shellWith('1.1.0', { react: '19.4.0', 'react-dom': '19.4.0', 'react-router-dom': '7.18.5' }));
    expect(newer.stderr).toBe('');
    expect(newer.code).toBe(0);
    expect((await servedShell()).version).toBe('1.1.0');
    const back = await script(site.root, 'rollback', 'shell');
    expect(back.code).toBe(0);
    expect((await servedShell()).version).toBe('1.0.0');
  });
});

/*
 * Issue 33: `npm run deploy -- blog --key <file>` signs the release with the team's key; with RELEASE_TRUSTED_KEYS in
 * the environment (the servers' value) an unsigned or wrongly signed release is refused before anything changes.
 */
describe('signed releases through npm run deploy', () => {
  let site: SiteFixture;
  let builds: string;
  const blogTeam = newSigningKey();
  const shellTeam = newSigningKey();
  const trusted = `${trustedKeyEntry(['blog'], blogTeam.publicKey)},${trustedKeyEntry(['shell'], shellTeam.publicKey)}`;

  beforeEach(async () => {
    site = await createSiteFixture();
    builds = await mkdtemp(path.join(tmpdir(), 'api-test-builds-'));
    await writeFile(path.join(builds, 'blog.key'), blogTeam.privateKeyPem, { mode: 0o600 });
    await writeFile(path.join(builds, 'shell.key'), shellTeam.privateKeyPem, { mode: 0o600 });
    const dist = path.join(builds, 'dist');
    const files: Record<string, string> = {
      'mfe-manifest.json': JSON.stringify({ ...MANIFESTS.blog, version: '3.0.0' }),
      'assets/remoteEntry.js': 'export const signed = true;',
      'server/routes.js': blogServerModule(' | signed'),
    };
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dist, file)), { recursive: true });
      await writeFile(path.join(dist, file), content);
    }
  });
  afterEach(async () => {
    await site.cleanup();
    await rm(builds, { recursive: true, force: true });
  });

  const run = (env: Record<string, string>, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [DEPLOY_SCRIPT, ...args], { env: { ...process.env, SITE_ROOT: site.root, ...env } }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    }).then(async (result) => {
      await checkStatsNow();
      return result;
    });

  it('signs with the team key, and the server trusting that key serves it', async () => {
    const result = await run({ RELEASE_TRUSTED_KEYS: trusted }, 'deploy', 'blog', '--from', path.join(builds, 'dist'), '--key', path.join(builds, 'blog.key'));
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/release-signature\.json \(key [0-9a-f]{16}\)/);
    const registry = createRemoteRegistry({ siteRoot: site.root, remoteUrls: {}, trustedKeys: parseTrustedKeys(trusted) });
    expect((await registry.snapshot()).served?.blog).toMatchObject({ version: '3.0.0', serverEntry: 'ok' });
    expect((await registry.snapshot()).served?.blog?.rejected).toBeUndefined();
  });

  it('refuses, with nothing changed, a release without a key or signed by a key not trusted for the blog', async () => {
    for (const args of [[], ['--key', path.join(builds, 'shell.key')]]) {
      const result = await run({ RELEASE_TRUSTED_KEYS: trusted }, 'deploy', 'blog', '--from', path.join(builds, 'dist'), ...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('✖ the release is not signed by a key trusted for blog: ');
      expect(result.stderr).toContain(args.length === 0 ? 'the release is not signed' : 'is trusted for shell, not for "blog"');
      expect(existsSync(path.join(site.root, 'mfe-blog', 'current'))).toBe(false);
      expect(existsSync(path.join(site.root, 'mfe-blog', 'releases', '3.0.0'))).toBe(false);
    }
    const badKey = await run({}, 'deploy', 'blog', '--from', path.join(builds, 'dist'), '--key', path.join(builds, 'missing.key'));
    expect(badKey.stderr).toContain('✖ cannot read the signing key');
    const notAKey = await run({ RELEASE_SIGNING_KEY: 'not a key' }, 'deploy', 'blog', '--from', path.join(builds, 'dist'));
    expect(notAKey.stderr).toContain('✖ the signing key is not a private key in PEM (PKCS#8)');
  });
});

/*
 * Which release is served is chosen by one function for the shell and the remotes (release-format's servingOrder):
 * the pointer's release, else the last good one, else the releases below it in the history.
 */
describe('a shell pointer naming a release that cannot be served', () => {
  let site: SiteFixture;
  beforeEach(async () => {
    site = await createSiteFixture();
  });
  afterEach(async () => {
    await site.cleanup();
  });

  const shellRelease = async (version: string, options: { index?: boolean } = {}) => {
    if (options.index !== false) await site.writeFile(`shell/releases/${version}/index.html`, `<!doctype html><title>${version}</title>`);
    await site.writeFile(`shell/releases/${version}/shell-manifest.json`, JSON.stringify({ name: 'shell', version, builtWith: { shared: {}, serverContract: 1 } }));
  };

  it('serves the newest complete release below it in the history, also in a process that served none before, as for a remote', async () => {
    await shellRelease('1.0.0');
    await shellRelease('1.1.0');
    // Deployed last, and incomplete here (its index.html did not arrive).
    await shellRelease('2.0.0', { index: false });
    await site.writeFile('shell/history.json', JSON.stringify({ stack: ['1.0.0', '1.1.0', '2.0.0'], log: [] }));
    await site.writeFile('shell/current', '2.0.0\n');
    expect(await currentShell(site.root)).toEqual({ version: '1.1.0', dir: path.join(site.root, 'shell/releases/1.1.0') });

    // Once it is whole, the pointer's release is served; a pointer naming nothing at all falls back the same way.
    await site.writeFile('shell/releases/2.0.0/index.html', '<!doctype html><title>2.0.0</title>');
    await site.writeFile('shell/current', '2.0.0\n\n');
    expect((await currentShell(site.root)).version).toBe('2.0.0');
    await site.writeFile('shell/current', '9.9.9\n');
    expect((await currentShell(site.root)).version).toBe('2.0.0');
  });
});
