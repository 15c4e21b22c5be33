import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, '../deploy-remote.mjs');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the script as an operator would (`npm run deploy -- …` runs exactly this), on a temp SITE_ROOT. */
function run(siteRoot: string, ...args: string[]): Promise<Run> {
  return runWith({}, siteRoot, ...args);
}

/** The same, with more of the site's environment (what the server is started with too). */
function runWith(env: Record<string, string>, siteRoot: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { cwd: siteRoot, env: { ...process.env, SITE_ROOT: siteRoot, INIT_CWD: siteRoot, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('scripts/deploy-remote.mjs (npm run deploy / rollback)', () => {
  let root: string;
  const blog = (...parts: string[]) => path.join(root, 'mfe-blog', ...parts);
  const pointer = async () => (await readFile(blog('current'), 'utf8')).trim();
  const history = async () => JSON.parse(await readFile(blog('history.json'), 'utf8')) as { stack: string[]; keptDist?: string };

  /** A built dist of the blog at `dir` (relative to the temp root) whose page says `text`. */
  async function build(dir: string, version: string, text: string, options: { omit?: string[]; name?: string; serverModule?: string; routes?: string[] } = {}) {
    const files: Record<string, string> = {
      'mfe-manifest.json': JSON.stringify({ name: options.name ?? 'blog', version, routes: options.routes ?? ['/blog'], server: { routes: 'server/routes.js' } }),
      'assets/remoteEntry.js': `export const text = ${JSON.stringify(text)};`,
      [`assets/page-${version.replace(/\W/g, '')}AbCd.js`]: `export default ${JSON.stringify(text)};`,
      'server/routes.js': options.serverModule ?? 'export const routes = [];',
    };
    for (const [file, content] of Object.entries(files)) {
      if (options.omit?.includes(file)) continue;
      await mkdir(path.dirname(path.join(root, dir, file)), { recursive: true });
      await writeFile(path.join(root, dir, file), content);
    }
    return path.join(root, dir);
  }

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'deploy-remote-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('copies the dist into releases/<manifest version>/, then points current at it and records it', async () => {
    const from = await build('build-1', '1.4.0', 'first');
    const result = await run(root, 'deploy', 'blog', '--from', from);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('verified mfe-manifest.json (blog 1.4.0), assets/remoteEntry.js, server/routes.js');
    // No mfe-blog/dist here: the remote was absent, nothing is kept and nothing is promised.
    expect(result.stdout).toContain('current: (none) -> 1.4.0');
    expect(result.stdout).toContain('blog 1.4.0 is live');
    expect(result.stdout).toContain('Nothing was served before it, so there is nothing to roll back to.');
    expect(result.stdout).not.toContain('Undo with');
    expect(await pointer()).toBe('1.4.0');
    expect(await readFile(blog('releases/1.4.0/assets/remoteEntry.js'), 'utf8')).toContain('first');
    expect((await history()).stack).toEqual(['1.4.0']);
    // Nothing half-written is left behind: no incoming copy, no temp pointer, no lock.
    expect((await readdir(blog('releases'))).sort()).toEqual(['1.4.0']);
    expect((await readdir(blog())).sort()).toEqual(['current', 'history.json', 'releases']);
  });

  it('gives a rebuilt dist of the same version a build number, and takes --version', async () => {
    await run(root, 'deploy', 'blog', '--from', await build('a', '2.0.0', 'a'));
    const again = await run(root, 'deploy', 'blog', '--from', await build('b', '2.0.0', 'b'));
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('current: 2.0.0 -> 2.0.0+2');
    expect(await pointer()).toBe('2.0.0+2');

    const named = await run(root, 'deploy', 'blog', '--from', await build('c', '2.0.0', 'c'), '--version', 'hotfix-1');
    expect(named.code).toBe(0);
    expect(await pointer()).toBe('hotfix-1');
    expect((await history()).stack).toEqual(['2.0.0', '2.0.0+2', 'hotfix-1']);

    const taken = await run(root, 'deploy', 'blog', '--from', await build('d', '2.0.0', 'd'), '--version', 'hotfix-1');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('release hotfix-1 of blog exists already');
    expect(await readFile(blog('releases/hotfix-1/assets/remoteEntry.js'), 'utf8')).toContain('"c"');
    const unsafe = await run(root, 'deploy', 'blog', '--from', await build('e', '2.0.0', 'e'), '--version', '../escape');
    expect(unsafe.code).toBe(1);
    expect(await pointer()).toBe('hotfix-1');
  });

  it('refuses an incomplete or foreign dist and changes nothing', async () => {
    await run(root, 'deploy', 'blog', '--from', await build('good', '1.0.0', 'good'));
    const cases: Array<[string, string]> = [
      [await build('no-entry', '1.1.0', 'x', { omit: ['assets/remoteEntry.js'] }), 'assets/remoteEntry.js is missing'],
      [await build('no-server', '1.1.0', 'x', { omit: ['server/routes.js'] }), 'server/routes.js is missing'],
      [await build('no-manifest', '1.1.0', 'x', { omit: ['mfe-manifest.json'] }), 'mfe-manifest.json is missing'],
      [await build('other-remote', '1.1.0', 'x', { name: 'admin' }), 'names the remote "admin", not "blog"'],
    ];
    await build('bad-json', '1.1.0', 'x');
    await writeFile(path.join(root, 'bad-json/mfe-manifest.json'), '{"name":"blog",');
    cases.push([path.join(root, 'bad-json'), 'mfe-manifest.json is not valid JSON']);

    for (const [from, message] of cases) {
      const result = await run(root, 'deploy', 'blog', '--from', from);
      expect(result.code, from).toBe(1);
      expect(result.stderr, from).toContain(message);
    }
    expect(await pointer()).toBe('1.0.0');
    expect(await readdir(blog('releases'))).toEqual(['1.0.0']);
  });

  it('refuses a release whose server module does not load (the server would not serve it), unless told to skip the check', async () => {
    await run(root, 'deploy', 'blog', '--from', await build('good', '1.0.0', 'good'));
    const broken = await build('broken', '1.1.0', 'broken', { serverModule: 'export const routes = [ not javascript' });
    const refused = await run(root, 'deploy', 'blog', '--from', broken);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('its server module would not run: server/routes.js does not load');
    expect(await pointer()).toBe('1.0.0');
    expect(await readdir(blog('releases'))).toEqual(['1.0.0']);

    const noRoutes = await run(root, 'deploy', 'blog', '--from', await build('no-routes', '1.2.0', 'x', { serverModule: 'export const x = 1;' }));
    expect(noRoutes.stderr).toContain('it does not export a `routes` array');

    const forced = await run(root, 'deploy', 'blog', '--from', broken, '--skip-load-check');
    expect(forced.code).toBe(0);
    expect(await pointer()).toBe('1.1.0');

    // Nor does a rollback go to a release that does not load.
    await run(root, 'deploy', 'blog', '--from', await build('next', '1.3.0', 'next'));
    const back = await run(root, 'rollback', 'blog');
    expect(back.code).toBe(1);
    expect(back.stderr).toContain('cannot roll back to 1.1.0: its server module would not run: server/routes.js does not load');
    expect(await pointer()).toBe('1.3.0');
  });

  it('rolls back one step at a time to the release before, and forward again with --to', async () => {
    for (const [dir, version] of [['v1', '1.0.0'], ['v2', '2.0.0'], ['v3', '3.0.0']]) await run(root, 'deploy', 'blog', '--from', await build(dir!, version!, dir!));

    const back = await run(root, 'rollback', 'blog');
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('current: 3.0.0 -> 2.0.0');
    expect(await pointer()).toBe('2.0.0');
    expect(existsSync(blog('releases/3.0.0/assets/remoteEntry.js'))).toBe(true);

    expect((await run(root, 'rollback', 'blog')).stdout).toContain('current: 2.0.0 -> 1.0.0');
    const bottom = await run(root, 'rollback', 'blog');
    expect(bottom.code).toBe(1);
    expect(bottom.stderr).toContain('no release before 1.0.0');
    expect(await pointer()).toBe('1.0.0');

    const forward = await run(root, 'rollback', 'blog', '--to', '3.0.0');
    expect(forward.code).toBe(0);
    expect(await pointer()).toBe('3.0.0');
    // A deploy after rollbacks goes on top; the rollback returns to what was live before it.
    await run(root, 'deploy', 'blog', '--from', await build('v4', '4.0.0', 'v4'));
    expect((await run(root, 'rollback', 'blog')).stdout).toContain('current: 4.0.0 -> 3.0.0');
    // The stack a rollback walks down, and no log: what happened is the site's deploy log (none here: no site database).
    expect(await history()).toEqual({ stack: ['1.0.0', '3.0.0'] });

    const listed = await run(root, 'list', 'blog');
    expect(listed.stdout).toContain('current 3.0.0');
    expect(listed.stdout).toMatch(/\* 3\.0\.0 .* current/);
  });

  it('will not roll back to a release that is gone, nor without a pointer', async () => {
    expect((await run(root, 'rollback', 'blog')).stderr).toContain('blog has no release yet: nothing to roll back');
    await run(root, 'deploy', 'blog', '--from', await build('v1', '1.0.0', 'v1'));
    await run(root, 'deploy', 'blog', '--from', await build('v2', '2.0.0', 'v2'));
    await rm(blog('releases/1.0.0/assets/remoteEntry.js'));
    const result = await run(root, 'rollback', 'blog');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot roll back to 1.0.0');
    expect(await pointer()).toBe('2.0.0');
  });

  it('keeps the served mfe-blog/dist as a release on the first deploy, so the first rollback returns to it', async () => {
    // What the server serves before any release: the dist, in place. The new build has the same manifest version.
    await build('mfe-blog/dist', '1.0.0', 'as served');
    const result = await run(root, 'deploy', 'blog', '--from', await build('new', '1.0.0', 'new'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('kept mfe-blog/dist, served until now, as mfe-blog/releases/1.0.0+dist (4 files, 0 KB): the rollback target');
    expect(result.stdout).toContain('current: (none: mfe-blog/dist was served, kept as 1.0.0+dist) -> 1.0.0');
    expect(result.stdout).toContain('Undo with: npm run rollback -- blog');
    expect(await pointer()).toBe('1.0.0');
    expect(await history()).toEqual({ stack: ['1.0.0+dist', '1.0.0'], keptDist: '1.0.0+dist' });

    // A rebuild in place after the deploy does not change what the rollback returns to.
    await build('mfe-blog/dist', '1.1.0', 'rebuilt');
    const back = await run(root, 'rollback', 'blog');
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('current: 1.0.0 -> 1.0.0+dist');
    expect(await pointer()).toBe('1.0.0+dist');
    expect(await readFile(blog('releases/1.0.0+dist/assets/remoteEntry.js'), 'utf8')).toBe('export const text = "as served";');

    const bottom = await run(root, 'rollback', 'blog');
    expect(bottom.code).toBe(1);
    expect(bottom.stderr).toContain('blog has no release before 1.0.0+dist to roll back to: 1.0.0+dist is mfe-blog/dist as it was served before the first release');
    expect(await pointer()).toBe('1.0.0+dist');
    expect((await run(root, 'list', 'blog')).stdout).toMatch(/\* 1\.0\.0\+dist .* current, mfe-blog\/dist as served before the first release/);
  });

  it('keeps the dist once, under a name no other release has, and only when a deploy goes through', async () => {
    await build('mfe-blog/dist', '1.0.0', 'as served');
    // A refused deploy switches nothing and leaves no copy of the dist behind.
    const refused = await run(root, 'deploy', 'blog', '--from', await build('broken', '2.0.0', 'x', { serverModule: 'export const routes = [ nope' }));
    expect(refused.code).toBe(1);
    expect(existsSync(blog('releases/1.0.0+dist'))).toBe(false);
    expect(existsSync(blog('current'))).toBe(false);

    // The new release takes the name the kept dist would have had: the dist gets the next one.
    const named = await run(root, 'deploy', 'blog', '--from', await build('new', '2.0.0', 'new'), '--version', '1.0.0+dist');
    expect(named.code).toBe(0);
    expect(named.stdout).toContain('current: (none: mfe-blog/dist was served, kept as 1.0.0+dist.2) -> 1.0.0+dist');
    expect(await readFile(blog('releases/1.0.0+dist.2/assets/remoteEntry.js'), 'utf8')).toContain('as served');

    // Only the first deploy keeps it: later ones have a pointer, and the dist is no longer what is served.
    const second = await run(root, 'deploy', 'blog', '--from', await build('newer', '3.0.0', 'newer'));
    expect(second.stdout).not.toContain('kept');
    expect((await history()).stack).toEqual(['1.0.0+dist.2', '1.0.0+dist', '3.0.0']);
    expect((await readdir(blog('releases'))).sort()).toEqual(['1.0.0+dist', '1.0.0+dist.2', '3.0.0']);
  });

  it('deploys over a served dist it cannot keep, and says that the rollback cannot return to it', async () => {
    await build('mfe-blog/dist', '1.0.0', 'as served', { omit: ['assets/remoteEntry.js'] });
    const result = await run(root, 'deploy', 'blog', '--from', await build('new', '2.0.0', 'new'));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('mfe-blog/dist was served but is not kept as a release, so a rollback cannot return to it');
    expect(result.stderr).toContain('assets/remoteEntry.js is missing');
    expect(result.stdout).toContain('Nothing was served before it, so there is nothing to roll back to.');
    expect(await readdir(blog('releases'))).toEqual(['2.0.0']);
  });

  it('runs one deploy of a remote at a time, and takes over the lock of a process that is gone', async () => {
    await run(root, 'deploy', 'blog', '--from', await build('v1', '1.0.0', 'v1'));
    await writeFile(blog('.deploy.lock'), String(process.pid));
    const busy = await run(root, 'deploy', 'blog', '--from', await build('v2', '2.0.0', 'v2'));
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(`another deploy or rollback of blog is running (pid ${process.pid})`);
    expect(await pointer()).toBe('1.0.0');

    await writeFile(blog('.deploy.lock'), '999999999');
    const taken = await run(root, 'deploy', 'blog', '--from', path.join(root, 'v2'));
    expect(taken.code).toBe(0);
    expect(await pointer()).toBe('2.0.0');
    expect(existsSync(blog('.deploy.lock'))).toBe(false);
  });

  it("refuses a blog release declaring the admin's routes, naming them, as the server would: nothing changes", async () => {
    await run(root, 'deploy', 'blog', '--from', await build('good', '1.0.0', 'good'));
    const refused = await run(root, 'deploy', 'blog', '--from', await build('takeover', '1.1.0', 'x', { routes: ['/blog', '/admin', '/admin/*'] }));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the route "/admin" is outside blog\'s routes (it belongs to admin): blog owns /blog*');
    expect(refused.stderr).toContain('the route "/admin/*" is outside blog\'s routes (it belongs to admin)');
    expect(refused.stderr).toContain('Nothing was changed.');
    expect(await pointer()).toBe('1.0.0');
    expect(await readdir(blog('releases'))).toEqual(['1.0.0']);
  });

  it('reads APP_ROUTES_<APP> and RELEASE_MAX_* from its environment as the server does', async () => {
    const news = await build('news', '1.0.0', 'news', { routes: ['/blog', '/news', '/news/:slug'] });
    // By default /news is no app's: refused.
    const outside = await run(root, 'deploy', 'blog', '--from', news);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('the route "/news" is outside blog\'s routes: blog owns /blog*');
    expect(existsSync(blog('current'))).toBe(false);
    // The site gives the blog /news too: the same release goes through.
    const owned = await runWith({ APP_ROUTES_BLOG: '/blog*, /news*' }, root, 'deploy', 'blog', '--from', news);
    expect(owned.stderr).toBe('');
    expect(owned.code).toBe(0);
    expect(await pointer()).toBe('1.0.0');

    // A site that caps routes at 2 refuses a release with 3, and says which limit.
    const capped = await runWith({ APP_ROUTES_BLOG: '/blog*,/news*', RELEASE_MAX_ROUTES: '2' }, root, 'deploy', 'blog', '--from', await build('more', '1.1.0', 'more', { routes: ['/blog', '/news', '/news/:slug'] }));
    expect(capped.code).toBe(1);
    expect(capped.stderr).toContain('mfe-manifest.json declares 3 routes, over the limit of 2 (RELEASE_MAX_ROUTES)');
    expect(await pointer()).toBe('1.0.0');

    // What the server would refuse to start with, this tool refuses to run with, in the server's words.
    for (const [env, message] of [
      [{ RELEASE_MAX_ROUTES: 'lots' }, 'RELEASE_MAX_ROUTES: Must be a number'],
      [{ APP_ROUTES_BLOG: '/api/*' }, `APP_ROUTES_BLOG: "/api/*" is the server's`],
      [{ APP_ROUTES_BLOG: '/admin*' }, 'APP_ROUTES: Two APP_ROUTES_<APP> name the same pattern'],
    ] as const) {
      const invalid = await runWith(env, root, 'deploy', 'blog', '--from', await build('again', '1.2.0', 'again'));
      expect(invalid.code, JSON.stringify(env)).toBe(1);
      expect(invalid.stderr, JSON.stringify(env)).toContain(message);
    }
    expect(await pointer()).toBe('1.0.0');

    // A rollback is checked the same: back to the /news release only where the site gives the blog /news.
    expect((await run(root, 'deploy', 'blog', '--from', await build('plain', '2.0.0', 'plain'))).code).toBe(0);
    const back = await run(root, 'rollback', 'blog');
    expect(back.code).toBe(1);
    expect(back.stderr).toContain('cannot roll back to 1.0.0: this is not a release of blog the site can serve: the route "/news" is outside blog\'s routes');
    expect(await pointer()).toBe('2.0.0');
    expect((await runWith({ APP_ROUTES_BLOG: '/blog*,/news*' }, root, 'rollback', 'blog')).code).toBe(0);
    expect(await pointer()).toBe('1.0.0');
  });

  it('answers a wrong command line with the usage (exit 2)', async () => {
    for (const args of [['deploy'], ['deploy', 'nope'], ['publish', 'blog'], ['deploy', 'blog', '--frm', 'x']]) {
      const result = await run(root, ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain('npm run deploy -- <remote>');
    }
  });
});
