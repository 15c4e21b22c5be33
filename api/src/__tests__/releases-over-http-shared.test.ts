import { copyFile, mkdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deployLogPageSchema, deployTokenCreatedSchema } from '@site/contracts/deploys';
import { healthSchema, type RemoteHealth } from '@site/contracts/manifest';
import { ADMIN_ENV, adminCookie } from '../test-support/admin-session';
import { describeNeedingBuild, REPO_ROOT, serverEntriesMissing } from '../test-support/built-site';
import { bundleMissing, forgetRedisKeys, postgresUrlWithSchema, reachableRedis, redisTestPrefix, startChildServer, type ChildServer } from '../test-support/child-server';
import { uniqueSchema } from '../test-support/databases';
import { blogServerModule, createSiteFixture, MANIFESTS, type SiteFixture } from '../test-support/site-fixture';
import { waitFor } from '../test-support/site-client';
import { packReleaseTarball } from '../site/releases/release-tarball';
import { newSigningKey, signFiles, trustedKeyEntry } from '../site/releases/release-signature';
import { movePointer, openReleaseStore, readSharedPointer, releaseTransaction, storeRelease } from '../site/releases/releases-repository';

/*
 * Deploys over HTTP on two instances (two site roots, as two machines) sharing one PostgreSQL (and Redis when there is
 * one), both trusting the blog team's key for the blog and the marketing team's for marketing (issue 33). A team's CI
 * deploys through one instance with its token; both serve it. What runs is what a trusted team signed, whatever the
 * database says: a release row written straight into the database is loaded by neither.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = await reachableRedis();
const unavailable = databaseUrl ? undefined : 'TEST_DATABASE_URL is not set (a PostgreSQL database)';
const ORIGIN = 'https://site.test';
/** Within this of the deploy's answer, every instance serves the new release (the bound). */
const SWITCH_MS = 2000;

describeNeedingBuild('deploys over HTTP to two instances on one PostgreSQL, signed releases only', { missing: bundleMissing() ?? serverEntriesMissing(), unavailable }, () => {
  const schema = uniqueSchema();
  const blogKey = newSigningKey();
  const marketingKey = newSigningKey();
  let admin: pg.Client;
  let sites: SiteFixture[] = [];
  let a: ChildServer;
  let b: ChildServer;
  let blogToken: string;
  let databaseWithSchema: string;

  const build = (version: string, key = blogKey.privateKeyPem, app = 'blog') => {
    const files = new Map<string, Buffer>([
      ['mfe-manifest.json', Buffer.from(JSON.stringify({ ...MANIFESTS.blog, version }))],
      ['assets/remoteEntry.js', Buffer.from(`export const version = ${JSON.stringify(version)};`)],
      ['server/routes.js', Buffer.from(blogServerModule())],
    ]);
    files.set('release-signature.json', signFiles(files, app, version, key));
    return files;
  };

  async function deploy(instance: ChildServer, app: string, files: Map<string, Buffer>, token = blogToken) {
    const res = await fetch(`${instance.url}/api/releases/${app}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' }, body: await packReleaseTarball(files) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  /** The blog version an instance tells the browser to load. */
  const servedVersion = async (instance: ChildServer) => ((await (await fetch(`${instance.url}/remotes.json`)).json()) as { blog?: { version: string } }).blog?.version;

  const cookies = new Map<ChildServer, string>();
  async function blogHealth(instance: ChildServer): Promise<RemoteHealth> {
    if (!cookies.has(instance)) cookies.set(instance, await adminCookie({ url: instance.url, config: { publicOrigin: ORIGIN } as never }));
    const response = await fetch(`${instance.url}/api/health`, { headers: { cookie: cookies.get(instance)! } });
    return healthSchema.parse(await response.json()).remotes.blog!;
  }

  /** Writes a release into the database as anyone with its credentials could: correct hashes, pointer moved, NOTIFY. */
  async function insertRow(version: string, files: Map<string, Buffer>) {
    const store = await openReleaseStore(databaseWithSchema);
    try {
      await releaseTransaction(store.db, 'blog', async (trx) => {
        const pointer = await readSharedPointer(trx, 'blog');
        await storeRelease(trx, { remote: 'blog', version, manifest: { ...MANIFESTS.blog, version }, files }, new Date());
        await movePointer(trx, 'blog', { version, stack: [...(pointer?.stack ?? []), version] }, new Date());
      });
    } finally {
      await store.close();
    }
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    sites = [await createSiteFixture(), await createSiteFixture()];
    for (const site of sites) {
      await mkdir(path.join(site.root, 'shell/dist/server'), { recursive: true });
      await copyFile(path.join(REPO_ROOT, 'shell/dist/server/entry.js'), path.join(site.root, 'shell/dist/server/entry.js'));
      await symlink(path.join(REPO_ROOT, 'shell/node_modules'), path.join(site.root, 'shell/node_modules'), 'dir');
    }
    databaseWithSchema = postgresUrlWithSchema(databaseUrl!, schema);
    const env = {
      DATABASE_URL: databaseWithSchema,
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redisTestPrefix(schema) } : {}),
      ...ADMIN_ENV,
      PUBLIC_ORIGIN: ORIGIN,
      RELEASE_POLL_MS: '600000',
      RELEASE_TRUSTED_KEYS: [trustedKeyEntry(['blog'], blogKey.publicKey), trustedKeyEntry(['marketing'], marketingKey.publicKey)].join(','),
    };
    a = await startChildServer({ ...env, SITE_ROOT: sites[0]!.root, DATA_DIR: sites[0]!.root });
    b = await startChildServer({ ...env, SITE_ROOT: sites[1]!.root, DATA_DIR: sites[1]!.root });
    const cookie = await adminCookie({ url: a.url, config: { publicOrigin: ORIGIN } as never });
    const created = await fetch(`${a.url}/api/admin/deploy-tokens`, {
      method: 'POST',
      headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'blog CI', apps: ['blog'] }),
    });
    blogToken = deployTokenCreatedSchema.parse(await created.json()).token;
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (redisUrl) await forgetRedisKeys(redisUrl, redisTestPrefix(schema));
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    await Promise.all(sites.map((site) => site.cleanup()));
  }, 30_000);

  it('a signed deploy over HTTP through A is served by both within 2 s; a blog token on the shell is 403; a rollback over HTTP', async () => {
    const started = Date.now();
    const deployed = await deploy(a, 'blog', build('5.0.0'));
    expect(deployed.status, JSON.stringify(deployed.body)).toBe(201);
    const answered = Date.now() - started;
    const switched = await Promise.all(
      [a, b].map(async (instance) => {
        const from = Date.now();
        await waitFor(async () => (await servedVersion(instance)) === '5.0.0', SWITCH_MS, `${instance.url} to serve 5.0.0`);
        return Date.now() - from;
      }),
    );
    console.info(`deploy over HTTP: answered after ${answered} ms; then served by a after ${switched[0]} ms, by b after ${switched[1]} ms`);

    const shell = await deploy(a, 'shell', build('5.0.1'));
    expect(shell.status).toBe(403);
    expect((shell.body.error as { code: string }).code).toBe('token_not_for_app');

    expect((await deploy(a, 'blog', build('5.1.0'))).status).toBe(201);
    for (const instance of [a, b]) await waitFor(async () => (await servedVersion(instance)) === '5.1.0', SWITCH_MS, `${instance.url} to serve 5.1.0`);
    // Through the other instance: back to 5.0.0 on both.
    const rollback = await fetch(`${b.url}/api/releases/blog/rollback`, { method: 'POST', headers: { authorization: `Bearer ${blogToken}`, 'content-type': 'application/json' }, body: '{}' });
    expect(rollback.status).toBe(200);
    expect(await rollback.json()).toMatchObject({ version: '5.0.0', previous: '5.1.0' });
    for (const instance of [a, b]) await waitFor(async () => (await servedVersion(instance)) === '5.0.0', SWITCH_MS, `${instance.url} to serve 5.0.0`);

    // The deploy log is the one log, on either instance; the pointer and each instance's history.json keep the stack only.
    const cookie = await adminCookie({ url: b.url, config: { publicOrigin: ORIGIN } as never });
    const log = deployLogPageSchema.parse(await (await fetch(`${b.url}/api/admin/deploys?app=blog`, { headers: { cookie } })).json());
    expect(log.entries.slice(0, 2).map((e) => [e.action, e.version, e.previous, e.result, e.by])).toEqual([
      ['rollback', '5.0.0', '5.1.0', 'ok', 'blog CI'],
      ['deploy', '5.1.0', '5.0.0', 'ok', 'blog CI'],
    ]);
    const pointer = (await admin.query(`SELECT version, stack, log FROM "${schema}".release_pointers WHERE remote = 'blog'`)).rows[0];
    expect({ ...pointer, stack: JSON.parse(pointer.stack), log: JSON.parse(pointer.log) }).toEqual({ version: '5.0.0', stack: ['5.0.0'], log: {} });
    for (const site of sites) expect(JSON.parse(await readFile(path.join(site.root, 'mfe-blog/history.json'), 'utf8'))).toEqual({ stack: ['5.0.0'] });
  });

  it('a release row written straight into the database, unsigned or signed by the marketing key, is loaded by neither; health says why', async () => {
    for (const instance of [a, b]) await waitFor(async () => (await servedVersion(instance)) === '5.0.0', SWITCH_MS, `${instance.url} to serve 5.0.0`);
    const unsigned = build('6.6.6');
    unsigned.delete('release-signature.json');
    await insertRow('6.6.6', unsigned);
    for (const instance of [a, b]) {
      await waitFor(async () => (await blogHealth(instance)).failedRelease?.version === '6.6.6', 5000, `${instance.url} to refuse 6.6.6`);
      const health = await blogHealth(instance);
      expect(health.version).toBe('5.0.0');
      expect(health.failedRelease?.reason).toContain('release-signature.json is missing');
      expect(await servedVersion(instance)).toBe('5.0.0');
    }
    console.info(`refused row 6.6.6 (unsigned), as /api/health says on b: ${JSON.stringify((await blogHealth(b)).failedRelease)}`);

    await insertRow('6.6.7', build('6.6.7', marketingKey.privateKeyPem));
    for (const instance of [a, b]) {
      await waitFor(async () => (await blogHealth(instance)).failedRelease?.version === '6.6.7', 5000, `${instance.url} to refuse 6.6.7`);
      const health = await blogHealth(instance);
      expect(health.version).toBe('5.0.0');
      expect(health.failedRelease?.reason).toMatch(/trusted for marketing, not for "blog"/);
    }
    console.info(`refused row 6.6.7 (signed by the marketing key), as /api/health says on a: ${JSON.stringify((await blogHealth(a)).failedRelease)}`);
  });
});
