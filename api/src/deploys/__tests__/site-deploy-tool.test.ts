import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployTokenCreatedSchema } from '@site/contracts/deploys';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { blogServerModule, createSiteFixture, MANIFESTS, type SiteFixture } from '../../test-support/site-fixture';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * The one-file deploy tool (issue 52): downloaded from a running site into an empty folder (no repository, no
 * node_modules) and run with the machine's own Node 20 or later, as a team's pipeline would.
 */

/** The system's Node when it is 20 or later (what a CI image has), else the one running the tests. */
function systemNode(): string {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(candidate)) continue;
    const major = Number(/^v(\d+)/.exec(execFileSync(candidate, ['--version'], { encoding: 'utf8' }))?.[1]);
    if (major >= 20) return candidate;
  }
  return process.execPath;
}
const NODE = systemNode();

let server: TestServer;
let site: SiteFixture;
let work: string;
let token: string;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  site = await createSiteFixture();
  cleanups.push(() => site.cleanup());
  server = await startTestServer({ siteRoot: site.root, env: { ...ADMIN_ENV } });
  cleanups.push(() => server.close());
  const cookie = await adminCookie(server);
  const created = await fetch(`${server.url}/api/admin/deploy-tokens`, {
    method: 'POST',
    headers: { cookie, origin: server.config.publicOrigin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'blog CI', apps: ['blog'] }),
  });
  expect(created.status).toBe(201);
  token = deployTokenCreatedSchema.parse(await created.json()).token;
  work = await mkdtemp(path.join(tmpdir(), 'site-deploy-pipeline-'));
  cleanups.push(() => rm(work, { recursive: true, force: true }));
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A blog build written under `dir`: its manifest (version, page title), remote entry and server module. */
async function blogBuild(dir: string, version: string): Promise<void> {
  const files: Array<[string, string]> = [
    ['mfe-manifest.json', JSON.stringify({ ...MANIFESTS.blog, version, pages: [{ path: '/blog', title: `Blog ${version}`, description: 'Guides' }] })],
    ['assets/remoteEntry.js', `export const version = ${JSON.stringify(version)};`],
    ['server/routes.js', blogServerModule()],
  ];
  for (const [file, content] of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
}

/** `node site-deploy.mjs …` in the pipeline's folder, with no DEPLOY_TOKEN, SITE_URL or key of this machine. */
function tool(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !['DEPLOY_TOKEN', 'SITE_URL', 'RELEASE_SIGNING_KEY', 'NODE_OPTIONS', 'NODE_PATH'].includes(key)));
  return new Promise((resolve) => {
    execFile(NODE, ['site-deploy.mjs', ...args], { cwd: work, env: { ...clean, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The blog release the site serves (/api/health). */
async function servedBlog(): Promise<string | undefined> {
  const health = (await (await fetch(`${server.url}/api/health`)).json()) as { remotes?: Record<string, { version: string }> };
  return health.remotes?.blog?.version;
}

describe('site-deploy.mjs, downloaded from the site it deploys to', () => {
  it('is served with its type, no-cache and an ETag, and runs from an empty folder: deploy, stage, promote, roll back, status', async () => {
    const started = performance.now();
    expect(await readdir(work)).toEqual([]);
    const res = await fetch(`${server.url}/site-deploy.mjs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const body = Buffer.from(await res.arrayBuffer());
    await writeFile(path.join(work, 'site-deploy.mjs'), body);
    // Revalidated, not downloaded again, while it is unchanged.
    expect((await fetch(`${server.url}/site-deploy.mjs`, { headers: { 'if-none-match': etag! } })).status).toBe(304);

    // The pipeline built its blog into ./dist (the tool's default --from).
    await blogBuild(path.join(work, 'dist'), '2.0.0');
    const deployed = await tool(['deploy', 'blog', '--to', server.url, '--token', token, '--commit', 'abc1234', '--notes', 'first from CI']);
    expect(deployed.stderr).toBe('');
    expect(deployed.code).toBe(0);
    expect(deployed.stdout).toContain(`blog 2.0.0 is live on ${server.url}`);
    expect(await servedBlog()).toBe('2.0.0');
    const elapsed = performance.now() - started;
    console.info(`site-deploy.mjs (${body.length} bytes, Node ${execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim()}): empty folder to a served release in ${Math.round(elapsed)} ms`);
    expect(await readdir(work)).toEqual(['dist', 'site-deploy.mjs']);

    await blogBuild(path.join(work, 'next'), '3.0.0');
    const staged = await tool(['deploy', 'blog', '--from', 'next', '--stage', '--to', server.url], { DEPLOY_TOKEN: token });
    expect(staged.code, staged.stderr).toBe(0);
    expect(staged.stdout).toContain('blog 3.0.0 is stored staged');
    expect(staged.stdout).toContain(`node site-deploy.mjs promote blog --version 3.0.0 --to ${server.url}`);
    expect(await servedBlog()).toBe('2.0.0');

    const promoted = await tool(['promote', 'blog', '--version', '3.0.0', '--token', token], { SITE_URL: server.url });
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain(`blog 3.0.0 is live on ${server.url} (was 2.0.0)`);
    expect(await servedBlog()).toBe('3.0.0');

    const back = await tool(['rollback', 'blog', '--to', server.url, '--token', token]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain(`blog 2.0.0 is live again on ${server.url} (was 3.0.0)`);
    expect(await servedBlog()).toBe('2.0.0');

    const status = await tool(['status', 'blog', '--to', server.url, '--token', token, '--json']);
    const endpoint = await fetch(`${server.url}/api/releases/blog/status`, { headers: { authorization: `Bearer ${token}` } });
    if (endpoint.status === 404) {
      expect(status.code).toBe(1);
      expect(status.stderr).toContain(`this site (${server.url}) does not have /api/releases/blog/status yet`);
    } else {
      expect(status.code, status.stderr).toBe(0);
      const json = JSON.parse(status.stdout) as { served: string | { version: string }; canary: unknown; log: Array<{ action: string; version: string | null }> };
      expect(typeof json.served === 'string' ? json.served : json.served.version).toBe('2.0.0');
      expect(json.canary).toBeNull();
      expect(json.log[0]).toMatchObject({ action: 'rollback', version: '2.0.0' });
    }
  }, 120_000);

  it('a dry run sends nothing to a site that would store it, and stores nothing on one that takes it', async () => {
    const openapi = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, { post?: { parameters?: Array<{ name: string }> } }> };
    const takesDryRun = (openapi.paths['/api/releases/{app}']?.post?.parameters ?? []).some((p) => p.name === 'dryRun');
    const before = await servedBlog();
    await blogBuild(path.join(work, 'dry'), '4.0.0');
    const dry = await tool(['deploy', 'blog', '--from', 'dry', '--dry-run', '--to', server.url, '--token', token]);
    expect(await servedBlog()).toBe(before);
    const listed = (await (await fetch(`${server.url}/api/releases/blog`, { headers: { authorization: `Bearer ${token}` } })).json()) as { releases: Array<{ version: string }> };
    expect(listed.releases.map((r) => r.version)).not.toContain('4.0.0');
    if (takesDryRun) {
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain('nothing was stored');
    } else {
      expect(dry.code).toBe(1);
      expect(dry.stderr).toContain('this site does not take a dry run yet');
    }
  }, 60_000);

  it('promote --wait follows the release until it is served to everyone', async () => {
    await blogBuild(path.join(work, 'canary'), '5.0.0');
    expect((await tool(['deploy', 'blog', '--from', 'canary', '--stage', '--to', server.url, '--token', token])).code).toBe(0);
    const endpoint = await fetch(`${server.url}/api/releases/blog/status`, { headers: { authorization: `Bearer ${token}` } });
    if (endpoint.status === 404) {
      // The canary starts; what the tool cannot follow, it says, and the step fails.
      const waited = await tool(['promote', 'blog', '--version', '5.0.0', '--percent', '10', '--wait', '--to', server.url, '--token', token]);
      expect(waited.stdout).toContain('blog 5.0.0 serves 10% of visitors');
      expect(waited.code).toBe(1);
      expect(waited.stderr).toContain('does not have /api/releases/blog/status yet');
      const ended = await tool(['rollback', 'blog', '--to', server.url, '--token', token]);
      expect(ended.code, ended.stderr).toBe(0);
      return;
    }
    const waiting = tool(['promote', 'blog', '--version', '5.0.0', '--percent', '10', '--wait', '--timeout', '60', '--to', server.url, '--token', token]);
    // Another promote (a person, or the canary's promoteAfter) serves it to everyone: the pipeline's step succeeds.
    let again: { code: number; stderr: string } = { code: 1, stderr: '' };
    for (let attempt = 0; attempt < 50 && again.code !== 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      again = await tool(['promote', 'blog', '--version', '5.0.0', '--to', server.url, '--token', token]);
    }
    expect(again.code, again.stderr).toBe(0);
    const waited = await waiting;
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toContain(`blog 5.0.0 is served to everyone on ${server.url}`);
  }, 90_000);

  it('says what is wrong and exits non-zero: a wrong token (the server\'s message and code), a missing --to (the usage)', async () => {
    const before = await servedBlog();
    const wrong = await tool(['deploy', 'blog', '--to', server.url, '--token', 'dpl_not-a-token']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(new RegExp(`${server.url.replaceAll('.', '\\.')} answered 401: .+ \\(deploy_token_invalid\\)`));
    const rolledBack = await tool(['rollback', 'blog', '--to', server.url, '--token', 'dpl_not-a-token']);
    expect(rolledBack.code).toBe(1);
    expect(rolledBack.stderr).toContain('answered 401');
    expect(await servedBlog()).toBe(before);

    const noSite = await tool(['deploy', 'blog', '--token', token]);
    expect(noSite.code).toBe(2);
    expect(noSite.stderr).toContain('Name the site: --to <site URL> (or SITE_URL)');
    expect(noSite.stderr).toContain('Usage: node site-deploy.mjs');
    const noToken = await tool(['deploy', 'blog', '--to', server.url]);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('needs a deploy token: --token <token> or DEPLOY_TOKEN');
    const notBuilt = await tool(['deploy', 'blog', '--from', 'nowhere', '--to', server.url, '--token', token]);
    expect(notBuilt.code).toBe(1);
    expect(notBuilt.stderr).toContain('cannot read nowhere: no such folder');
  }, 60_000);
});
