import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { afterEach, describe, expect, it } from 'vitest';
import { appReleasesSchema, deployLogPageSchema, deployTokenCreatedSchema, releaseChangeSchema } from '@site/contracts/deploys';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { blogServerModule, createSiteFixture, MANIFESTS, type SiteFixture } from '../../test-support/site-fixture';
import { signDists } from '../../test-support/signed-dists';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { packReleaseTarball } from '../../site/releases/release-tarball';
import { newSigningKey, signFiles, trustedKeyEntry } from '../../site/releases/release-signature';

/*
 * Deploys over HTTP on one instance (SQLite, SITE_ROOT): a team's CI with a deploy token for its app, the checks before
 * anything changes, the archive's limits, and the deploy log and alerts the owner reads. Two instances on PostgreSQL:
 * src/__tests__/shared-releases.test.ts.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Site {
  server: TestServer;
  site: SiteFixture;
  cookie: string;
}

async function start(env: Record<string, string> = {}, prepare?: (site: SiteFixture) => Promise<void>): Promise<Site> {
  const site = await createSiteFixture();
  cleanups.push(() => site.cleanup());
  await prepare?.(site);
  const server = await startTestServer({ siteRoot: site.root, env: { ...ADMIN_ENV, ...env } });
  cleanups.push(() => server.close());
  return { server, site, cookie: await adminCookie(server) };
}

async function adminCall(s: Site, route: string, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(`${s.server.url}${route}`, {
    method: init.method ?? 'GET',
    headers: { cookie: s.cookie, origin: s.server.config.publicOrigin, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined };
}

async function token(s: Site, apps: string[], name = `${apps.join('+')} CI`): Promise<string> {
  const created = await adminCall(s, '/api/admin/deploy-tokens', { method: 'POST', json: { name, apps } });
  expect(created.status).toBe(201);
  return deployTokenCreatedSchema.parse(created.body).token;
}

/** A blog build: its manifest (version, page title), remote entry and server module. */
function blogBuild(version: string, title: string, server = blogServerModule()): Map<string, Buffer> {
  return new Map([
    ['mfe-manifest.json', Buffer.from(JSON.stringify({ ...MANIFESTS.blog, version, pages: [{ path: '/blog', title, description: 'Guides' }] }))],
    ['assets/remoteEntry.js', Buffer.from(`export const title = ${JSON.stringify(title)};`)],
    ['server/routes.js', Buffer.from(server)],
  ]);
}

async function send(s: Site, app: string, body: Buffer | null, bearer: string | undefined, query = '') {
  const res = await fetch(`${s.server.url}/api/releases/${app}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/gzip', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: body ?? Buffer.alloc(0),
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined };
}

async function served(s: Site, app: string, bearer: string) {
  const res = await fetch(`${s.server.url}/api/releases/${app}`, { headers: { authorization: `Bearer ${bearer}` } });
  expect(res.status).toBe(200);
  return appReleasesSchema.parse(await res.json());
}

async function rollback(s: Site, app: string, bearer: string, json: unknown = {}) {
  const res = await fetch(`${s.server.url}/api/releases/${app}/rollback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function deployLog(s: Site) {
  return deployLogPageSchema.parse((await adminCall(s, '/api/admin/deploys?limit=50')).body).entries;
}

/** The blog version the site serves now (/api/health). */
async function blogTitle(s: Site): Promise<string | undefined> {
  const res = await fetch(`${s.server.url}/api/health`);
  const health = (await res.json()) as { remotes?: Record<string, { version: string }> };
  return health.remotes?.blog?.version;
}

/** Every entry of a folder, hidden ones too (nothing may be left behind by a refusal). */
const entries = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).sort();

/**
 * A hand-made archive: entries with any name, type or size. The tar stream is gzipped a chunk at a time, each chunk a
 * gzip member of its own (members may follow one another, RFC 1952 2.2, and a gunzip reads them as one stream), and a
 * chunk of zeros is the same member every time: a 1 GB expansion needs no 1 GB compressed, and the server still reads
 * 1 GB of zeros from it.
 */
async function archive(items: Array<{ name: string; type?: 'file' | 'symlink' | 'link' | 'directory'; content?: Buffer; linkname?: string; size?: number; stream?: Readable }>): Promise<Buffer> {
  const packer = pack();
  const chunks: Buffer[] = [];
  const zeroMembers = new Map<number, Buffer>();
  const done = pipeline(packer, async (source: AsyncIterable<unknown>) => {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (chunk.length > ZERO_BLOCK.length || !chunk.equals(ZERO_BLOCK.subarray(0, chunk.length))) chunks.push(gzipSync(chunk));
      else {
        if (!zeroMembers.has(chunk.length)) zeroMembers.set(chunk.length, gzipSync(chunk));
        chunks.push(zeroMembers.get(chunk.length)!);
      }
    }
  });
  for (const item of items) {
    if (item.stream) {
      await new Promise<void>((resolve, reject) => {
        const entry = packer.entry({ name: item.name, size: item.size }, (error) => (error ? reject(error) : resolve()));
        item.stream!.pipe(entry);
      });
    } else {
      await new Promise<void>((resolve, reject) =>
        packer.entry({ name: item.name, type: item.type ?? 'file', linkname: item.linkname }, item.content ?? Buffer.alloc(0), (error) => (error ? reject(error) : resolve())),
      );
    }
  }
  packer.finalize();
  await done;
  return Buffer.concat(chunks);
}

const ZERO_BLOCK = Buffer.alloc(1024 * 1024);

/** `size` zero bytes, streamed (a 1 GB file is never held in memory). */
function zeros(size: number): Readable {
  let left = size;
  const block = ZERO_BLOCK;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, block.length);
      left -= n;
      this.push(n === block.length ? block : block.subarray(0, n));
    },
  });
}

const DEPLOY_SCRIPT = path.resolve(import.meta.dirname, '../../../../scripts/deploy-remote.mjs');

/** `npm run deploy -- …` from another clone: only the site's URL, a token and the key. */
function script(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DEPLOY_SCRIPT, ...args], { env: { ...process.env, RELEASE_TRUSTED_KEYS: '', DATABASE_URL: '', ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function folder(files: Map<string, Buffer>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'blog-dist-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  for (const [file, content] of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  return dir;
}

describe('deploys over HTTP with a deploy token (one instance)', () => {
  it('npm run deploy/rollback -- blog --to <url> --token <token> --key <file>: signed, served, listed, rolled back', async () => {
    const key = newSigningKey();
    // The blog team signed its build; the operator's key, trusted for the other apps only, signed theirs (the server
    // starts only when every app it serves is signed by a key trusted for it).
    const operator = newSigningKey();
    const keys = [trustedKeyEntry(['blog'], key.publicKey), trustedKeyEntry(['shell', 'marketing', 'admin'], operator.publicKey)].join(',');
    const s = await start({ RELEASE_TRUSTED_KEYS: keys }, async (site) => {
      await signDists(site.root, ['blog'], key.privateKeyPem);
      await signDists(site.root, ['shell', 'marketing', 'admin'], operator.privateKeyPem);
    });
    const blog = await token(s, ['blog'], 'blog CI');
    const dist = await folder(blogBuild('4.0.0', 'Blog four'));
    const keyFile = path.join(dist, '..', `${path.basename(dist)}.key`);
    await writeFile(keyFile, key.privateKeyPem, { mode: 0o600 });
    cleanups.push(() => rm(keyFile, { force: true }));

    const unsigned = await script(['deploy', 'blog', '--to', s.server.url, '--token', blog, '--from', dist]);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toContain('answered 400: the release is not signed by a key trusted for blog');

    const deployed = await script(['deploy', 'blog', '--to', s.server.url, '--token', blog, '--from', dist, '--key', keyFile]);
    expect(deployed.stderr).toBe('');
    expect(deployed.code).toBe(0);
    expect(deployed.stdout).toContain(`blog 4.0.0 is live on ${s.server.url}`);
    expect(await blogTitle(s)).toBe('4.0.0');
    // The same build again is signed under the next free name.
    const again = await script(['deploy', 'blog', '--to', s.server.url, '--from', dist, '--key', keyFile], { DEPLOY_TOKEN: blog });
    expect(again.code).toBe(0);
    expect(await blogTitle(s)).toBe('4.0.0+2');

    const listed = await script(['list', 'blog', '--to', s.server.url, '--token', blog]);
    expect(listed.stdout).toMatch(/\* 4\.0\.0\+2 .* blog CI/);
    const back = await script(['rollback', 'blog', '--to', s.server.url, '--token', blog]);
    expect(back.code).toBe(0);
    expect(await blogTitle(s)).toBe('4.0.0');
    const wrongApp = await script(['rollback', 'marketing', '--to', s.server.url, '--token', blog]);
    expect(wrongApp.stderr).toContain('answered 403: This deploy token may not deploy marketing.');
  }, 60_000);

  it('deploys a blog release with a blog token, lists it with who deployed it, and rolls back to what was served before', async () => {
    const s = await start();
    const blog = await token(s, ['blog'], 'blog CI');
    // The built dist was imported as the first release on the first start.
    const built = (await blogTitle(s))!;
    expect(built).toMatch(new RegExp(`^${MANIFESTS.blog.version.replaceAll('.', '\\.')}\\+build\\.[0-9a-f]{8}$`));

    const deployed = await send(s, 'blog', await packReleaseTarball(blogBuild('2.0.0', 'Blog two')), blog);
    expect(deployed.status).toBe(201);
    const change = releaseChangeSchema.parse(deployed.body);
    expect(change).toMatchObject({ app: 'blog', version: '2.0.0', previous: built });
    expect(change.checked.join(' ')).toContain('server/routes.js loads');
    expect(await blogTitle(s)).toBe('2.0.0');

    const list = await served(s, 'blog', blog);
    expect(list.served).toMatchObject({ version: '2.0.0', by: 'blog CI' });
    expect(list.releases.map((r) => r.version).sort()).toEqual(['2.0.0', built].sort());

    // The same version again: a name never changes what it holds.
    const again = await send(s, 'blog', await packReleaseTarball(blogBuild('2.0.0', 'Blog two, changed')), blog, '?version=2.0.0');
    expect(again.status).toBe(409);

    const back = await rollback(s, 'blog', blog);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ version: built, previous: '2.0.0' });
    expect(await blogTitle(s)).toBe(built);
    expect((await rollback(s, 'blog', blog, { version: '9.9.9' })).status).toBe(404);

    const log = await deployLog(s);
    expect(log.slice(0, 4).map((e) => [e.action, e.version, e.result, e.by])).toEqual([
      ['rollback', '9.9.9', 'refused', 'blog CI'],
      ['rollback', built, 'ok', 'blog CI'],
      ['deploy', '2.0.0', 'refused', 'blog CI'],
      ['deploy', '2.0.0', 'ok', 'blog CI'],
    ]);
    expect(log[0]!.from).toBeTruthy();
    expect(log[0]!.message).toContain('no release of blog is named 9.9.9');
  });

  it('a deploy and a refused rollback by npm run on the serving machine are in the same deploy log', async () => {
    const s = await start();
    const dist = await folder(blogBuild('7.0.0', 'Blog seven'));
    const env = { SITE_ROOT: s.site.root, DATA_DIR: s.server.dataDir, INIT_CWD: s.site.root };
    // Where it came from is checked as an upload's is, and kept (issue 52).
    const badCommit = await script(['deploy', 'blog', '--from', dist, '--commit', 'main'], env);
    expect(badCommit.code).toBe(1);
    expect(badCommit.stderr).toContain('commit is a commit sha: 7 to 40 hexadecimal digits.');
    const deployed = await script(['deploy', 'blog', '--from', dist, '--commit', '0123abc', '--notes', 'hotfix from the server'], env);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(await blogTitle(s)).toBe('7.0.0');
    const refused = await script(['rollback', 'blog', '--to', 'no-such-release'], env);
    expect(refused.code).toBe(1);
    const log = await deployLog(s);
    // Written by the deployer itself, as over HTTP: the refused rollback names the release asked for.
    expect(log.slice(0, 3).map((e) => [e.action, e.version, e.result])).toEqual([
      ['rollback', 'no-such-release', 'refused'],
      ['deploy', '7.0.0', 'ok'],
      ['deploy', null, 'refused'],
    ]);
    expect(log[1]!.by).toMatch(/^npm run deploy \(/);
    expect(log[1]).toMatchObject({ commit: '0123abc', notes: 'hotfix from the server', ciUrl: null });
    expect(log[0]!.message).toContain('no-such-release');
  }, 60_000);

  it('answers 401 without a valid token and 403 for another app, each written to the deploy log, nothing changed', async () => {
    const s = await start();
    const blog = await token(s, ['blog'], 'blog CI');
    const before = await blogTitle(s);
    const body = await packReleaseTarball(blogBuild('2.0.0', 'Blog two'));
    expect((await send(s, 'blog', body, undefined)).status).toBe(401);
    expect((await send(s, 'blog', body, 'dpl_not-a-token')).status).toBe(401);
    const shell = await send(s, 'shell', body, blog);
    expect(shell.status).toBe(403);
    expect(JSON.stringify(shell.body)).toContain('may not deploy shell');
    expect((await send(s, 'marketing', body, blog)).status).toBe(403);
    expect(await blogTitle(s)).toBe(before);
    const log = (await deployLog(s)).filter((e) => e.result === 'refused');
    expect(log.map((e) => e.app).sort()).toEqual(['blog', 'blog', 'marketing', 'shell']);
    // A known token used for another app is named; an unknown one is not.
    expect(log.filter((e) => e.app !== 'blog').map((e) => e.by)).toEqual(['blog CI', 'blog CI']);
    expect(log.filter((e) => e.app === 'blog').map((e) => e.by)).toEqual(['a bad deploy token', 'a bad deploy token']);
  });

  it('refuses archives with .. paths, absolute paths, links or a 1 GB expansion, writing nothing', async () => {
    const s = await start();
    const blog = await token(s, ['blog']);
    const releases = path.join(s.site.root, 'mfe-blog', 'releases');
    const [before, stored] = [await blogTitle(s), await entries(releases)];
    const build = [...blogBuild('2.0.0', 'Blog two')].map(([name, content]) => ({ name, content }));
    const cases: Array<[string, Buffer, RegExp]> = [
      ['..', await archive([...build, { name: '../../escape.js', content: Buffer.from('x') }]), /a path with \.\. is refused/],
      ['absolute', await archive([...build, { name: '/etc/cron.d/x', content: Buffer.from('x') }]), /an absolute path is refused/],
      ['symlink', await archive([...build, { name: 'assets/link.js', type: 'symlink', linkname: '/etc/passwd' }]), /a symlink is refused/],
      ['hard link', await archive([...build, { name: 'assets/hard.js', type: 'link', linkname: 'mfe-manifest.json' }]), /a link is refused/],
      ['not gzip', Buffer.from('just text'), /not a gzip-compressed tar archive/],
      ['1 GB', await archive([...build, { name: 'assets/huge.bin', size: 1024 ** 3, stream: zeros(1024 ** 3) }]), /expands to more than 100 MB/],
    ];
    for (const [label, body, message] of cases) {
      const answer = await send(s, 'blog', body, blog);
      expect(answer.status, label).toBe(400);
      expect((answer.body?.error as { message: string }).message, label).toMatch(message);
    }
    expect(await entries(releases)).toEqual(stored);
    expect(await entries(s.site.root)).not.toContain('escape.js');
    expect(await blogTitle(s)).toBe(before);
    const log = await deployLog(s);
    expect(log.filter((e) => e.result === 'refused')).toHaveLength(cases.length);
    // The owner is told: a refused deploy raises an alert.
    const alerts = (await adminCall(s, '/api/admin/alerts')).body as { alerts?: Array<{ type: string; title: string }> };
    expect(alerts.alerts?.some((a) => a.type === 'deployment' && a.title === 'blog deploy refused')).toBe(true);
  }, 60_000);

  it('names the cause in full when the server module does not load (file, line, the error)', async () => {
    const s = await start();
    const blog = await token(s, ['blog']);
    const stored = await entries(path.join(s.site.root, 'mfe-blog', 'releases'));
    const broken = await send(s, 'blog', await packReleaseTarball(blogBuild('2.0.0', 'Blog two', 'export const routes = [\n  { path: "/blog" \n  oops\n];')), blog);
    expect(broken.status).toBe(400);
    const message = (broken.body?.error as { message: string }).message;
    expect(message).toMatch(/server\/routes\.js does not load: server\/routes\.js:3:\d+: Expected/);
    expect(await entries(path.join(s.site.root, 'mfe-blog', 'releases'))).toEqual(stored);
  });

  it('with RELEASE_TRUSTED_KEYS, takes only a release signed by a key trusted for its app', async () => {
    const blogKey = newSigningKey();
    const marketingKey = newSigningKey();
    // Each team signed its build; the operator's key, trusted for the shell and admin only, signed theirs (the server
    // starts only when every app it serves is signed by a key trusted for it).
    const operator = newSigningKey();
    const keys = [trustedKeyEntry(['blog'], blogKey.publicKey), trustedKeyEntry(['marketing'], marketingKey.publicKey), trustedKeyEntry(['shell', 'admin'], operator.publicKey)];
    const s = await start({ RELEASE_TRUSTED_KEYS: keys.join(',') }, async (site) => {
      await signDists(site.root, ['blog'], blogKey.privateKeyPem);
      await signDists(site.root, ['marketing'], marketingKey.privateKeyPem);
      await signDists(site.root, ['shell', 'admin'], operator.privateKeyPem);
    });
    const blog = await token(s, ['blog']);
    const signed = (key: string, version: string) => {
      const files = blogBuild(version, `Blog ${version}`);
      files.set('release-signature.json', signFiles(files, 'blog', version, key));
      return packReleaseTarball(files);
    };
    const unsigned = await send(s, 'blog', await packReleaseTarball(blogBuild('2.0.0', 'Blog two')), blog);
    expect(unsigned.status).toBe(400);
    expect((unsigned.body?.error as { message: string }).message).toMatch(/not signed by a key trusted for blog: release-signature.json is missing/);
    const wrongKey = await send(s, 'blog', await signed(marketingKey.privateKeyPem, '2.0.0'), blog);
    expect(wrongKey.status).toBe(400);
    expect((wrongKey.body?.error as { message: string }).message).toMatch(/trusted for marketing, not for "blog"/);
    const good = await send(s, 'blog', await signed(blogKey.privateKeyPem, '2.1.0'), blog);
    expect(good.status).toBe(201);
    expect(good.body).toMatchObject({ version: '2.1.0' });
    expect(await blogTitle(s)).toBe('2.1.0');
    // Signed as 2.1.0: it cannot be deployed under another name.
    const renamed = await send(s, 'blog', await signed(blogKey.privateKeyPem, '2.2.0'), blog, '?version=2.3.0');
    expect(renamed.status).toBe(400);
  });
});
