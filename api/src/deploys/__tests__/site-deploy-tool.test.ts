import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appStatusSchema, deployTokenCreatedSchema, type AppStatus } from '@site/contracts/deploys';
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

/** Every file and folder under `dir` (relative), sorted: what a dry run must leave as it was. */
async function listTree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

let server: TestServer;
let site: SiteFixture;
let work: string;
let token: string;
/** A token for the analysis app only. */
let analysisToken: string;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  site = await createSiteFixture();
  cleanups.push(() => site.cleanup());
  // The canary check runs when a test calls it (its job's next run is minutes away); a pipeline's minutes of
  // requests come in seconds here.
  server = await startTestServer({ siteRoot: site.root, env: { ...ADMIN_ENV, RELEASE_CANARY_CHECK_MS: '600000', RATE_LIMIT_MULTIPLIER: '10' } });
  cleanups.push(() => server.close());
  const cookie = await adminCookie(server);
  const created = await fetch(`${server.url}/api/admin/deploy-tokens`, {
    method: 'POST',
    headers: { cookie, origin: server.config.publicOrigin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'blog CI', apps: ['blog'] }),
  });
  expect(created.status).toBe(201);
  token = deployTokenCreatedSchema.parse(await created.json()).token;
  const other = await fetch(`${server.url}/api/admin/deploy-tokens`, {
    method: 'POST',
    headers: { cookie, origin: server.config.publicOrigin, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'analysis CI', apps: ['analysis'] }),
  });
  analysisToken = deployTokenCreatedSchema.parse(await other.json()).token;
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

/** GET /api/releases/blog/status with the blog's token. */
async function statusOf(bearer: string): Promise<AppStatus> {
  const res = await fetch(`${server.url}/api/releases/blog/status`, { headers: { authorization: `Bearer ${bearer}` } });
  expect(res.status).toBe(200);
  return appStatusSchema.parse(await res.json());
}

/** The blog's canary once the site runs one of `version` (the tool started it). */
async function canaryOf(version: string): Promise<NonNullable<AppStatus['canary']>> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { canary } = await statusOf(token);
    if (canary?.version === version) return canary;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no canary of blog ${version} started`);
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
    expect(status.code, status.stderr).toBe(0);
    const json = appStatusSchema.parse(JSON.parse(status.stdout));
    // Where 2.0.0 came from is kept with it: on its upload's entry, and on the rollback that serves it again.
    expect(json.served).toMatchObject({ version: '2.0.0', by: 'blog CI', commit: 'abc1234', notes: 'first from CI', ciUrl: null });
    expect(json.canary).toBeNull();
    expect(json.staged).toEqual([]);
    // Newest first (the site's first start imported its built blog below these).
    expect(json.log.slice(0, 4).map((e) => [e.action, e.version, e.result])).toEqual([
      ['rollback', '2.0.0', 'ok'],
      ['promote', '3.0.0', 'ok'],
      ['stage', '3.0.0', 'ok'],
      ['deploy', '2.0.0', 'ok'],
    ]);
    expect(json.log[0]).toMatchObject({ by: 'blog CI', commit: 'abc1234', notes: 'first from CI' });
    expect(json.log[1]).toMatchObject({ commit: null, notes: null });
    const person = await tool(['status', 'blog', '--to', server.url, '--token', token]);
    expect(person.code, person.stderr).toBe(0);
    expect(person.stdout).toContain(`blog on ${server.url}: serves 2.0.0 since`);
    expect(person.stdout).toContain('canary: none');
    expect(person.stdout).toMatch(/rollback\s+2\.0\.0\s+ok\s+blog CI {2}commit abc1234 "first from CI"/);
  }, 120_000);

  it('a dry run runs the checks and stores nothing: no release, no staged folder, no log entry; the same name deploys after', async () => {
    const before = await servedBlog();
    const blogFolder = path.join(site.root, 'mfe-blog');
    const folderBefore = await listTree(blogFolder);
    const logBefore = await statusOf(token);
    await blogBuild(path.join(work, 'dry'), '4.0.0');
    for (const stage of [[], ['--stage']]) {
      const dry = await tool(['deploy', 'blog', '--from', 'dry', '--dry-run', ...stage, '--commit', 'def5678', '--to', server.url, '--token', token]);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toContain('checked mfe-manifest.json');
      expect(dry.stdout).toContain(`blog 4.0.0 passed every check of ${server.url}: nothing was stored, ${before} stays served`);
    }
    expect(await servedBlog()).toBe(before);
    expect(await listTree(blogFolder)).toEqual(folderBefore);
    const after = await statusOf(token);
    expect(after.log).toEqual(logBefore.log);
    expect(after.staged).toEqual([]);
    const listed = (await (await fetch(`${server.url}/api/releases/blog`, { headers: { authorization: `Bearer ${token}` } })).json()) as { releases: Array<{ version: string }> };
    expect(listed.releases.map((r) => r.version)).not.toContain('4.0.0');

    // What a deploy would refuse, a dry run refuses, saying why, with nothing recorded either.
    await blogBuild(path.join(work, 'old'), '0.1.0');
    const old = await tool(['deploy', 'blog', '--from', 'old', '--dry-run', '--to', server.url, '--token', token]);
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('answered 409');
    expect(old.stderr).toContain('(downgrade_refused)');
    expect((await statusOf(token)).log).toEqual(logBefore.log);

    const real = await tool(['deploy', 'blog', '--from', 'dry', '--to', server.url, '--token', token]);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toContain(`blog 4.0.0 is live on ${server.url}`);
    expect(await servedBlog()).toBe('4.0.0');
  }, 60_000);

  it('the upload checks its provenance parameters: a bad commit or CI URL is a 400 naming the field, with nothing stored', async () => {
    await blogBuild(path.join(work, 'prov'), '4.1.0');
    const badCommit = await tool(['deploy', 'blog', '--from', 'prov', '--commit', 'not-a-sha', '--to', server.url, '--token', token]);
    expect(badCommit.code).toBe(1);
    expect(badCommit.stderr).toContain('answered 400');
    expect(badCommit.stderr).toContain('commit is a commit sha: 7 to 40 hexadecimal digits.');
    const badUrl = await tool(['deploy', 'blog', '--from', 'prov', '--ci-url', 'ftp://ci.example.com/1', '--to', server.url, '--token', token]);
    expect(badUrl.code).toBe(1);
    expect(badUrl.stderr).toContain('ciUrl is an http(s) URL of at most 500 characters');
    const longNotes = await tool(['deploy', 'blog', '--from', 'prov', '--notes', 'x'.repeat(501), '--to', server.url, '--token', token]);
    expect(longNotes.code).toBe(1);
    expect(longNotes.stderr).toContain('notes is at most 500 characters.');
    expect(await servedBlog()).not.toBe('4.1.0');
  }, 60_000);

  it('the status endpoint answers only the app\'s own token: 401 without one, 403 with another app\'s', async () => {
    const none = await fetch(`${server.url}/api/releases/blog/status`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('deploy_token_missing');
    const other = await fetch(`${server.url}/api/releases/blog/status`, { headers: { authorization: `Bearer ${analysisToken}` } });
    expect(other.status).toBe(403);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe('token_not_for_app');
    const forged = await tool(['status', 'blog', '--to', server.url, '--token', analysisToken]);
    expect(forged.code).toBe(1);
    expect(forged.stderr).toContain('answered 403: This deploy token may not deploy blog. (token_not_for_app)');
  });

  it('promote --wait exits 0 once the canary is served to everyone: by a later promote, or at --promote-after', async () => {
    await blogBuild(path.join(work, 'canary'), '5.0.0');
    expect((await tool(['deploy', 'blog', '--from', 'canary', '--stage', '--to', server.url, '--token', token])).code).toBe(0);
    const waiting = tool(['promote', 'blog', '--version', '5.0.0', '--percent', '10', '--wait', '--timeout', '60', '--to', server.url, '--token', token]);
    await canaryOf('5.0.0');
    // Another promote (a person's) serves it to everyone: the pipeline's step succeeds.
    const again = await tool(['promote', 'blog', '--version', '5.0.0', '--to', server.url, '--token', token]);
    expect(again.code, again.stderr).toBe(0);
    const waited = await waiting;
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toContain('blog 5.0.0 serves 10% of visitors');
    expect(waited.stdout).toMatch(/5\.0\.0 to 10% since .+: 0 page views, 0 errors, error rate n\/a \(served release: /);
    expect(waited.stdout).toContain(`blog 5.0.0 is served to everyone on ${server.url}.`);

    await blogBuild(path.join(work, 'timed'), '5.1.0');
    expect((await tool(['deploy', 'blog', '--from', 'timed', '--stage', '--to', server.url, '--token', token])).code).toBe(0);
    const timed = tool(['promote', 'blog', '--version', '5.1.0', '--percent', '20', '--promote-after', '2s', '--wait', '--timeout', '60', '--to', server.url, '--token', token]);
    const canary = await canaryOf('5.1.0');
    expect(canary.percent).toBe(20);
    // The canary check (every few seconds on the site) serves it to everyone once its time came.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(canary.promoteAfter!) - Date.now() + 50)));
    await server.instance.services.canaries.check();
    const promoted = await timed;
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain(`served to everyone at ${canary.promoteAfter}`);
    expect(promoted.stdout).toContain(`blog 5.1.0 is served to everyone on ${server.url}.`);
    expect((await statusOf(token)).log[0]).toMatchObject({ action: 'promote', version: '5.1.0', by: 'canary timer (promoteAfter)' });
  }, 90_000);

  it('promote --wait exits non-zero with the deploy log\'s reason when the canary is rolled back by itself, or by someone; and on --timeout', async () => {
    await blogBuild(path.join(work, 'failing'), '5.2.0');
    expect((await tool(['deploy', 'blog', '--from', 'failing', '--stage', '--commit', 'feed5200', '--to', server.url, '--token', token])).code).toBe(0);
    const waiting = tool(['promote', 'blog', '--version', '5.2.0', '--percent', '10', '--wait', '--timeout', '60', '--to', server.url, '--token', token]);
    await canaryOf('5.2.0');
    // Its visitors' pages fail on the server: what the renderer counts for each page and each failed render.
    const errors = server.instance.services.releaseErrors;
    for (let i = 0; i < 60; i++) {
      errors.pageView('blog', '5.2.0');
      if (i % 5 === 0) errors.renderError('blog', '5.2.0');
      errors.pageView('blog', '5.1.0');
    }
    const status = await statusOf(token);
    expect(status.canary).toMatchObject({ version: '5.2.0', current: '5.1.0', percent: 10, pageViews: 60, errors: 12, errorRate: 0.2, servedPageViews: 60, servedErrors: 0, servedErrorRate: 0 });
    expect(status.staged.map((r) => [r.version, r.commit])).toEqual([['5.2.0', 'feed5200']]);
    const rolledBackAt = performance.now();
    // The site's canary check (a job every 10 s); run now rather than waited for. It may have run already.
    await server.instance.services.canaries.check();
    const failed = await waiting;
    const reportedIn = performance.now() - rolledBackAt;
    console.info(`promote --wait reported the failing canary ${Math.round(reportedIn)} ms after the canary check rolled it back (the tool polls every 2 s; the site checks every 10 s)`);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`✖ blog 5.2.0 was rolled back on ${server.url} by automatic canary check: Rolled back by itself: blog 5.2.0 at 10% of visitors had an error rate 20%`);
    expect(await servedBlog()).toBe('5.1.0');
    const log = (await statusOf(token)).log[0]!;
    expect(log).toMatchObject({ action: 'canary_rollback', version: '5.2.0', result: 'ok', by: 'automatic canary check', commit: 'feed5200' });
    expect(log.reason).toContain('Rolled back by itself');

    // Ended by someone while the pipeline waits: the same, with who and why.
    await blogBuild(path.join(work, 'stopped'), '5.3.0');
    expect((await tool(['deploy', 'blog', '--from', 'stopped', '--stage', '--to', server.url, '--token', token])).code).toBe(0);
    const watched = tool(['promote', 'blog', '--version', '5.3.0', '--percent', '50', '--wait', '--to', server.url, '--token', token]);
    await canaryOf('5.3.0');
    const ended = await tool(['rollback', 'blog', '--to', server.url, '--token', token]);
    expect(ended.code, ended.stderr).toBe(0);
    const stopped = await watched;
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain(`✖ blog 5.3.0 was rolled back on ${server.url} by blog CI: stopped by blog CI (a rollback request)`);

    // Nothing decides within --timeout: the step fails, the canary keeps running.
    const started = performance.now();
    const late = await tool(['promote', 'blog', '--version', '5.3.0', '--percent', '50', '--wait', '--timeout', '1', '--to', server.url, '--token', token]);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain('✖ blog 5.3.0 is still a canary on');
    expect(late.stderr).toContain('after 1 s (--timeout): it keeps running; promote it or roll it back');
    expect(performance.now() - started).toBeLessThan(15_000);
    expect((await statusOf(token)).canary?.version).toBe('5.3.0');
    expect((await tool(['rollback', 'blog', '--to', server.url, '--token', token])).code).toBe(0);
    expect((await statusOf(token)).canary).toBeNull();
  }, 120_000);

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
