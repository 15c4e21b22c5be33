import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminHealthSchema } from '@site/contracts/admin';
import { healthSchema, type RemoteHealth } from '@site/contracts/manifest';
import { ADMIN_ENV, adminCookie } from '../test-support/admin-session';
import { describeNeedingBuild, REPO_ROOT, serverEntriesMissing } from '../test-support/built-site';
import { bundleMissing, forgetRedisKeys, postgresUrlWithSchema, reachableRedis, redisTestPrefix, startChildServer, type ChildServer } from '../test-support/child-server';
import { uniqueSchema } from '../test-support/databases';
import { blogServerModule, createSiteFixture, MANIFESTS, renderingBlogEntry, type SiteFixture } from '../test-support/site-fixture';
import { waitFor } from '../test-support/site-client';

/*
 * Releases shared by every instance: two server processes started from two different site roots (as on two
 * machines) on one PostgreSQL database (and one Redis when there is one). `npm run deploy`/`rollback` run through one
 * machine's site root with DATABASE_URL; both instances must serve the result, without a restart.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = await reachableRedis();
const unavailable = databaseUrl ? undefined : 'TEST_DATABASE_URL is not set (a PostgreSQL database)';

const DEPLOY_SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/deploy-remote.mjs');
const ORIGIN = 'https://site.test';
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
/** Within this of the deploy's commit, every instance serves the new release (the bound). */
const SWITCH_MS = 2000;

interface Build {
  version: string;
  title: string;
  /** Text put before the server module (e.g. an import of a package only one machine has). */
  serverPrefix?: string;
  /** The server module itself (default: the fixture's route table, which does not render). */
  server?: string;
  /** Extra files (a large release, to be killed while it is stored). */
  extra?: Record<string, Uint8Array>;
}

describeNeedingBuild('releases shared by two instances on two site roots (PostgreSQL)', { missing: bundleMissing() ?? serverEntriesMissing(), unavailable }, () => {
  const schema = uniqueSchema();
  let admin: pg.Client;
  let sites: SiteFixture[] = [];
  let builds: string;
  let a: ChildServer;
  let b: ChildServer;
  let env: Record<string, string>;
  const cookies = new Map<ChildServer, string>();

  /** `npm run deploy -- …` / `npm run rollback -- …` on one machine (its SITE_ROOT), with the site's DATABASE_URL. */
  function script(site: SiteFixture, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [DEPLOY_SCRIPT, ...args], { env: { ...process.env, SITE_ROOT: site.root, DATABASE_URL: env.DATABASE_URL } }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  async function build(b: Build): Promise<string> {
    const dir = path.join(builds, b.version);
    const files: Record<string, string | Uint8Array> = {
      'mfe-manifest.json': JSON.stringify({
        ...MANIFESTS.blog,
        version: b.version,
        pages: [{ path: '/blog', title: b.title, description: 'Guides' }],
        // A module that renders is the remote's server entry (the route table alone only gives heads).
        ...(b.server ? { server: { entry: 'server/routes.js' } } : {}),
      }),
      'assets/remoteEntry.js': `export const title = ${JSON.stringify(b.title)};`,
      'server/routes.js': `${b.serverPrefix ?? ''}${b.server ?? blogServerModule()}`,
      ...b.extra,
    };
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), content);
    }
    return dir;
  }

  /** What visitors of one instance see of the blog: the page's title and the version the shell is told. */
  async function served(instance: ChildServer) {
    const page = await (await fetch(`${instance.url}/blog`)).text();
    const remotes = (await (await fetch(`${instance.url}/remotes.json`)).json()) as { blog?: { version: string } };
    return { title: titleOf(page), version: remotes.blog?.version };
  }

  /** What the owner reads of the blog in one instance's /api/health. */
  async function blogHealth(instance: ChildServer): Promise<RemoteHealth> {
    if (!cookies.has(instance)) cookies.set(instance, await adminCookie({ url: instance.url, config: { publicOrigin: ORIGIN } as never }));
    const response = await fetch(`${instance.url}/api/health`, { headers: { cookie: cookies.get(instance)! } });
    return healthSchema.parse(await response.json()).remotes.blog!;
  }

  /** The admin dashboard's Shell check on one instance (Refresh on the admin panel). */
  async function shellCheck(instance: ChildServer) {
    await blogHealth(instance); // signs in
    const refreshed = await fetch(`${instance.url}/api/admin/health/refresh`, { method: 'POST', headers: { cookie: cookies.get(instance)!, origin: ORIGIN } });
    return adminHealthSchema.parse(await refreshed.json()).checks.find((c) => c.id === 'shell')!;
  }

  /** Milliseconds until `instance` serves `title` on /blog (fails after SWITCH_MS). */
  async function switchTime(instance: ChildServer, title: string, from: number): Promise<number> {
    await waitFor(async () => (await served(instance)).title === title, SWITCH_MS, `${instance.url} to serve "${title}"`);
    return Date.now() - from;
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    builds = await mkdtemp(path.join(tmpdir(), 'shared-release-builds-'));
    // Two machines: each its own site root with its own built dists, and its own data directory.
    sites = [await createSiteFixture(), await createSiteFixture()];
    // The built shell's server entry on both machines (React beside it), so blog pages are rendered and kept.
    for (const site of sites) {
      await mkdir(path.join(site.root, 'shell/dist/server'), { recursive: true });
      await copyFile(path.join(REPO_ROOT, 'shell/dist/server/entry.js'), path.join(site.root, 'shell/dist/server/entry.js'));
      // A whole shell build (its manifest too), so the first start imports it as the shell's first shared release.
      await copyFile(path.join(REPO_ROOT, 'shell/dist/shell-manifest.json'), path.join(site.root, 'shell/dist/shell-manifest.json'));
      await symlink(path.join(REPO_ROOT, 'shell/node_modules'), path.join(site.root, 'shell/node_modules'), 'dir');
    }
    // A package only the first machine has: a server module that imports it loads there and not on the second.
    await sites[0]!.writeFile('node_modules/only-on-the-first-machine/package.json', JSON.stringify({ name: 'only-on-the-first-machine', main: 'index.js' }));
    await sites[0]!.writeFile('node_modules/only-on-the-first-machine/index.js', 'module.exports = { here: true };');
    env = {
      DATABASE_URL: postgresUrlWithSchema(databaseUrl!, schema),
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redisTestPrefix(schema) } : {}),
      ...ADMIN_ENV,
      PUBLIC_ORIGIN: ORIGIN,
      // The notice, not the poll, must carry a deploy to every instance within SWITCH_MS.
      RELEASE_POLL_MS: '600000',
    };
    a = await startChildServer({ ...env, SITE_ROOT: sites[0]!.root, DATA_DIR: sites[0]!.root });
    b = await startChildServer({ ...env, SITE_ROOT: sites[1]!.root, DATA_DIR: sites[1]!.root });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (redisUrl) await forgetRedisKeys(redisUrl, redisTestPrefix(schema));
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    await Promise.all(sites.map((site) => site.cleanup()));
    if (builds) await rm(builds, { recursive: true, force: true });
  }, 30_000);

  it('a deploy through one machine is served by both within 2 s; a rollback through the other brings the old text back on both', async () => {
    const before = await served(a);
    expect(await served(b)).toEqual(before);

    let started = Date.now();
    const deployed = await script(sites[0]!, 'deploy', 'blog', '--from', await build({ version: '2.0.0', title: 'Blog, shared edition' }));
    expect(deployed.stderr).toBe('');
    expect(deployed.code).toBe(0);
    expect(deployed.stdout).toContain('blog 2.0.0 is live on every instance');
    expect(deployed.stdout).toContain('Undo with: npm run rollback -- blog');
    // The script returns once the transaction committed: from then on, both switch on their own.
    started = Date.now();
    const deploySwitch = await Promise.all([a, b].map((instance) => switchTime(instance, 'Blog, shared edition', started)));
    for (const instance of [a, b]) expect((await served(instance)).version).toBe('2.0.0');
    console.info(`shared deploy 2.0.0: served by instance a after ${deploySwitch[0]} ms, by b after ${deploySwitch[1]} ms`);

    // Both instances and the pointer, as the owner reads them on either instance.
    await waitFor(async () => (await blogHealth(a)).shared?.instances.filter((i) => i.version === '2.0.0').length === 2, 5000, 'both instances to report 2.0.0');
    const health = await blogHealth(b);
    expect(health.version).toBe('2.0.0');
    expect(health.shared?.pointer).toBe('2.0.0');
    expect(health.shared?.instances.map((i) => ({ self: i.self, version: i.version, problem: i.problem })).sort((x, y) => Number(x.self) - Number(y.self))).toEqual([
      { self: false, version: '2.0.0', problem: null },
      { self: true, version: '2.0.0', problem: null },
    ]);

    // The shell too: each instance reports the shell release it serves (its build, imported on the first start).
    const instancesOf = (message: string) => /instances: (.*)$/.exec(message)?.[1]?.split(', ') ?? [];
    await waitFor(async () => instancesOf((await shellCheck(b)).message).length === 2, 5000, 'both instances to report their shell');
    const shell = await shellCheck(b);
    expect(shell.status).toBe('ok');
    expect(shell.version).toMatch(/\+build\.[0-9a-f]{8}$/);
    expect(shell.message).toContain(`version ${shell.version} from shell/releases/${shell.version}`);
    expect(shell.message).toContain(`shared pointer ${shell.version} `);
    const instances = instancesOf(shell.message);
    expect(instances.filter((i) => i.includes('(this one)'))).toHaveLength(1);
    for (const instance of instances) expect(instance).toMatch(new RegExp(`${shell.version!.replace(/[.+]/g, '\\$&')} since \\d\\d:\\d\\d UTC$`));

    // Rolled back through the other machine: the dist both served before (kept by the first deploy) is back on both.
    const rolledBack = await script(sites[1]!, 'rollback', 'blog');
    expect(rolledBack.stderr).toBe('');
    expect(rolledBack.code).toBe(0);
    started = Date.now();
    const rollbackSwitch = await Promise.all([a, b].map((instance) => switchTime(instance, before.title!, started)));
    console.info(`shared rollback: served by instance a after ${rollbackSwitch[0]} ms, by b after ${rollbackSwitch[1]} ms`);
    // The dists both served before were imported as the first release on the first start (RELEASE_IMPORT_BUILDS=first).
    expect((await blogHealth(a)).shared?.pointer).toMatch(new RegExp(`^${MANIFESTS.blog.version.replaceAll('.', '\\.')}\\+build\\.[0-9a-f]{8}$`));
  });

  it('an instance on which the new release does not load keeps its last good release and says so, while the other serves it', async () => {
    const release = await build({
      version: '3.0.0',
      title: 'Blog needing a package',
      serverPrefix: "import extra from 'only-on-the-first-machine';\nif (!extra.here) throw new Error('no');\n",
    });
    const lastGood = (await served(b)).version;
    // Checked on the first machine, where it loads.
    const deployed = await script(sites[0]!, 'deploy', 'blog', '--from', release);
    expect(deployed.code).toBe(0);
    await waitFor(async () => (await served(a)).title === 'Blog needing a package', SWITCH_MS, 'a to serve 3.0.0');
    await waitFor(async () => (await blogHealth(b)).failedRelease?.version === '3.0.0', SWITCH_MS, 'b to refuse 3.0.0');

    const onB = await blogHealth(b);
    expect(onB.version).toBe(lastGood);
    expect(onB.lastKnownGood).toBe(lastGood);
    expect(onB.failedRelease?.reason).toContain('only-on-the-first-machine');
    expect((await served(b)).version).toBe(lastGood);
    // Either instance tells the owner that b is behind, and why.
    await waitFor(async () => (await blogHealth(a)).shared?.instances.some((i) => !i.self && i.version === lastGood && i.problem?.includes('3.0.0')) ?? false, 5000, 'b to report its problem');
    expect((await blogHealth(a)).shared?.instances.find((i) => i.self)).toMatchObject({ version: '3.0.0', problem: null });

    // The dashboard's remote check (Refresh on the admin panel) warns, naming the pointer and each instance.
    const refreshed = await fetch(`${a.url}/api/admin/health/refresh`, { method: 'POST', headers: { cookie: cookies.get(a)!, origin: ORIGIN } });
    const check = adminHealthSchema.parse(await refreshed.json()).checks.find((c) => c.id === 'remote:blog')!;
    expect(check.status).toBe('warning');
    expect(check.message).toContain('shared pointer 3.0.0');
    expect(check.message).toMatch(/instances: .*\(this one\) 3\.0\.0 since \d\d:\d\d UTC/);
    expect(check.message).toMatch(new RegExp(`${lastGood!.replace(/[.+]/g, '\\$&')} since \\d\\d:\\d\\d UTC \\(serves ${lastGood!.replace(/[.+]/g, '\\$&')}: 3\\.0\\.0`));
  });

  it('a post published through one instance is on the next page of either, though both kept the page before', async () => {
    // A blog that renders on the server, so its pages are kept (render cache) on both instances.
    const deployed = await script(sites[0]!, 'deploy', 'blog', '--from', await build({ version: '4.0.0', title: 'Blog, rendered', server: renderingBlogEntry('Rendered blog') }));
    expect(deployed.code).toBe(0);
    await waitFor(async () => (await served(a)).version === '4.0.0' && (await served(b)).version === '4.0.0', SWITCH_MS, 'both to serve 4.0.0');
    const kept = async (instance: ChildServer) => (await fetch(`${instance.url}/blog`, { headers: { accept: 'text/html' } })).headers.get('x-render-cache');
    for (const instance of [a, b]) {
      await waitFor(async () => (await kept(instance)) === 'hit', 5000, `${instance.url}/blog to be kept`);
    }

    // Written and published through the first instance's admin API, as the owner does in the panel.
    await blogHealth(a); // signs in
    const headers = { 'content-type': 'application/json', cookie: cookies.get(a)!, origin: ORIGIN };
    const created = await fetch(`${a.url}/api/admin/posts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        title: 'Published on one, seen on both',
        excerpt: 'A post published through the first instance.',
        content: `<p>${'Words of a post published through one instance. '.repeat(4)}</p>`,
        author: 'Tri-Valley AI Team',
        category: 'AI Automation',
        metaDescription: 'A post published through one instance and read on the other at once.',
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const publish = await fetch(`${a.url}/api/admin/posts/${id}/publish`, { method: 'POST', headers });
    expect(publish.status).toBe(200);
    const published = Date.now();
    // The next request on the first shows it; the second drops its kept page on the notice within moments.
    expect(await (await fetch(`${a.url}/blog`, { headers: { accept: 'text/html' } })).text()).toContain('Published on one, seen on both');
    await waitFor(async () => (await (await fetch(`${b.url}/blog`, { headers: { accept: 'text/html' } })).text()).includes('Published on one, seen on both'), 1000, 'b to show the post');
    console.info(`a post published through a is on b's /blog after ${Date.now() - published} ms`);
  });

  it('a deploy killed half-way changes nothing', async () => {
    const pointerBefore = (await admin.query(`SELECT version, since FROM "${schema}".release_pointers WHERE remote = 'blog'`)).rows[0];
    const servedBefore = await Promise.all([served(a), served(b)]);
    // Large enough that storing it takes a while: killed while its files are being written.
    const extra = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`assets/big-${i}.bin`, randomBytes(100_000)]));
    const release = await build({ version: '9.9.9', title: 'Blog never deployed', extra });
    const child = spawn(process.execPath, [DEPLOY_SCRIPT, 'deploy', 'blog', '--from', release], {
      env: { ...process.env, SITE_ROOT: sites[0]!.root, DATABASE_URL: env.DATABASE_URL },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Killed once its transaction has started writing the release's files.
    await waitFor(
      async () => {
        const { rows } = await admin.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND xact_start IS NOT NULL AND query ILIKE '%release_blobs%' AND pid <> pg_backend_pid()`,
        );
        return rows[0].n > 0;
      },
      20_000,
      'the deploy to be storing files',
    );
    child.kill('SIGKILL');
    await exited;
    // Its connection is gone, and its transaction with it.
    await waitFor(
      async () => {
        const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE '%release_blobs%' AND pid <> pg_backend_pid()`);
        return rows[0].n === 0;
      },
      10_000,
      'the killed deploy to be gone',
    );

    expect((await admin.query(`SELECT version, since FROM "${schema}".release_pointers WHERE remote = 'blog'`)).rows[0]).toEqual(pointerBefore);
    expect((await admin.query(`SELECT count(*)::int AS n FROM "${schema}".releases WHERE version = '9.9.9'`)).rows[0].n).toBe(0);
    expect(await Promise.all([served(a), served(b)])).toEqual(servedBefore);
  });
});
