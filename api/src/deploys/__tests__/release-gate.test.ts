import { afterEach, describe, expect, it } from 'vitest';
import { appReleasesSchema, deployLogPageSchema, deployTokenCreatedSchema } from '@site/contracts/deploys';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { blogServerModule, createSiteFixture, MANIFESTS } from '../../test-support/site-fixture';
import { startTestServer } from '../../test-support/test-server';
import { packReleaseTarball } from '../../site/releases/release-tarball';
import { newSigningKey, signFiles, trustedKeyEntry } from '../../site/releases/release-signature';
import { signDists } from '../../test-support/signed-dists';

/*
 * Issue 51, the deploy gate over HTTP: the token lockout counts bad tokens only (a refused release never locks a valid
 * token out), and a release only goes forward unless the caller asks for a downgrade.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(env: Record<string, string> = {}, prepare?: (siteRoot: string) => Promise<void>) {
  const site = await createSiteFixture();
  cleanups.push(() => site.cleanup());
  await prepare?.(site.root);
  const server = await startTestServer({ siteRoot: site.root, env: { ...ADMIN_ENV, ...env } });
  cleanups.push(() => server.close());
  const cookie = await adminCookie(server);
  const admin = async (route: string, json?: unknown) => {
    const res = await fetch(`${server.url}${route}`, {
      method: json === undefined ? 'GET' : 'POST',
      headers: { cookie, origin: server.config.publicOrigin, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return (await res.json()) as unknown;
  };
  const token = deployTokenCreatedSchema.parse(await admin('/api/admin/deploy-tokens', { name: 'blog CI', apps: ['blog'] })).token;
  return { server, token, admin };
}

type Server = Awaited<ReturnType<typeof start>>;

function blogBuild(version: string): Map<string, Buffer> {
  return new Map([
    ['mfe-manifest.json', Buffer.from(JSON.stringify({ ...MANIFESTS.blog, version, pages: [{ path: '/blog', title: `Blog ${version}`, description: 'Guides' }] }))],
    ['assets/remoteEntry.js', Buffer.from(`export const title = ${JSON.stringify(version)};`)],
    ['server/routes.js', Buffer.from(blogServerModule())],
  ]);
}

async function send(s: Server, body: Buffer, bearer: string | undefined, query = '') {
  const res = await fetch(`${s.server.url}/api/releases/blog${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/gzip', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body,
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as { error?: { code: string; message: string } } & Record<string, unknown> };
}

async function releases(s: Server) {
  const res = await fetch(`${s.server.url}/api/releases/blog`, { headers: { authorization: `Bearer ${s.token}` } });
  expect(res.status).toBe(200);
  return appReleasesSchema.parse(await res.json());
}

/** The blog release the site serves now (/api/health: what the registry serves, not only the pointer). */
async function servedBlog(s: Server) {
  const health = (await (await fetch(`${s.server.url}/api/health`)).json()) as { remotes?: Record<string, { version: string }> };
  return health.remotes?.blog?.version;
}

describe('the deploy token lockout', () => {
  it('counts bad tokens only: twelve refused uploads with a valid token, then a valid request is answered 200', async () => {
    const s = await start();
    const good = await packReleaseTarball(blogBuild('3.0.0'));
    expect((await send(s, good, s.token)).status).toBe(201);
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await send(s, Buffer.from('not an archive'), s.token)).status);
    // The same name again: a conflict, not a bad token.
    for (let i = 0; i < 6; i++) answers.push((await send(s, good, s.token, '?version=3.0.0')).status);
    expect(answers).toEqual([...Array(6).fill(400), ...Array(6).fill(409)]);
    expect((await releases(s)).served?.version).toBe('3.0.0');
    expect((await send(s, await packReleaseTarball(blogBuild('3.1.0')), s.token)).status).toBe(201);
  });

  it('still locks out an address after ten bad tokens, and the 429 says what it counts', async () => {
    const s = await start();
    const body = await packReleaseTarball(blogBuild('3.0.0'));
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await send(s, body, i % 2 ? 'dpl_not-a-token' : undefined)).status);
    expect(statuses).toEqual(Array(10).fill(401));
    const locked = await send(s, body, 'dpl_not-a-token');
    expect(locked.status).toBe(429);
    expect(locked.body.error?.message).toMatch(/missing, unknown, revoked or wrong-app deploy token \(answered 401 or 403\).*Refused releases do not count/);
  });
});

describe('versions only go forward unless asked', () => {
  it('refuses a signed downgrade without allowDowngrade (nothing changed), serves it with it and logs the downgrade; a rollback needs no flag', async () => {
    const key = newSigningKey();
    // The server starts only when every app it serves is signed by a key trusted for it: the operator signs the others.
    const operator = newSigningKey();
    const keys = [trustedKeyEntry(['blog'], key.publicKey), trustedKeyEntry(['shell', 'marketing', 'admin'], operator.publicKey)].join(',');
    const s = await start({ RELEASE_TRUSTED_KEYS: keys }, async (root) => {
      await signDists(root, ['shell', 'marketing', 'admin'], operator.privateKeyPem);
      await signDists(root, ['blog'], key.privateKeyPem);
    });
    const signed = (version: string) => {
      const files = blogBuild(version);
      files.set('release-signature.json', signFiles(files, 'blog', version, key.privateKeyPem));
      return packReleaseTarball(files);
    };
    expect((await send(s, await signed('2.1.0'), s.token)).status).toBe(201);
    const before = await releases(s);

    const refused = await send(s, await signed('0.5.0'), s.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'downgrade_refused' });
    expect(refused.body.error?.message).toContain('blog 0.5.0 is below 2.1.0, which is served');
    expect(refused.body.error?.message).toContain('?allowDowngrade=1');
    const after = await releases(s);
    expect(after.releases.map((r) => r.version)).toEqual(before.releases.map((r) => r.version));
    expect(after.served?.version).toBe('2.1.0');
    expect(await servedBlog(s)).toBe('2.1.0');

    // A pre-release of the served version is below it too; the flag is validated.
    expect((await send(s, await signed('2.1.0-rc.1'), s.token)).status).toBe(409);
    const badFlag = await send(s, await signed('0.5.0'), s.token, '?allowDowngrade=yes');
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.error?.message).toContain('allowDowngrade is 1 (or true)');

    const allowed = await send(s, await signed('0.5.0'), s.token, '?allowDowngrade=1');
    expect(allowed.status).toBe(201);
    expect(allowed.body).toMatchObject({ version: '0.5.0', previous: '2.1.0' });
    expect(await servedBlog(s)).toBe('0.5.0');
    const log = deployLogPageSchema.parse(await s.admin('/api/admin/deploys?limit=10')).entries;
    expect(log[0]).toMatchObject({ action: 'deploy', version: '0.5.0', result: 'ok' });
    expect(log[0]!.message).toContain('a downgrade from 2.1.0 to 0.5.0');
    expect(log.find((e) => e.version === '0.5.0' && e.result === 'refused')?.message).toContain('is below 2.1.0');

    // Back to a stored release: a rollback, no flag.
    const back = await fetch(`${s.server.url}/api/releases/blog/rollback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
      body: '{}',
    });
    expect(back.status).toBe(200);
    expect(await servedBlog(s)).toBe('2.1.0');
    // Forward again needs nothing.
    expect((await send(s, await signed('2.2.0'), s.token)).status).toBe(201);
  });
});
