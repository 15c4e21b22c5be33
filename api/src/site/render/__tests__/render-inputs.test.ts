import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { transform } from 'esbuild';
import Koa, { type Context } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ENV } from '../../../test-support/admin-session';
import { describeNeedingBuild, REPO_ROOT, serverEntriesMissing } from '../../../test-support/built-site';
import { startTestServer, type TestServer } from '../../../test-support/test-server';
import { createPageComposer } from '../compose-page';
import { createRemoteRegistry } from '../../releases/remote-registry';
import { createRenderCache } from '../render-cache';
import { createRenderQueue } from '../render-queue';
import { createRouteDataLoaders } from '../route-data';
import { createShellDocument } from '../shell-document';
import { createShellServer } from '../shell-server';
import { site, type SiteOptions } from '../../site-handler';
import { RENDER_INPUTS, renderCacheKey } from '../render-page';

/*
 * The key-completeness test of the render cache: every public route of the built site is answered through proxies
 * that record what the answer reads (the request, the site's options, the route data loaders and process.env), and
 * every read must be listed in RENDER_INPUTS, which says where the cache accounts for it (key, tags, bypass) or why
 * it leaves the kept page alone. Adding an input to the render without deciding that fails here.
 */

/** What the handler writes on the context: the answer, not an input. */
const ANSWER_SIDE = new Set(['set', 'vary', 'status', 'type', 'body', 'respond', 'res', 'remove', 'append', 'message', 'length']);

/** A read of one of these request methods is a read of the header it consults. */
const HEADER_METHODS: Record<string, (args: unknown[]) => string[]> = {
  get: (args) => [`header:${String(args[0]).toLowerCase()}`],
  accepts: () => ['header:accept'],
  acceptsEncodings: () => ['header:accept-encoding'],
  acceptsLanguages: () => ['header:accept-language'],
  acceptsCharsets: () => ['header:accept-charset'],
  is: () => ['header:content-type'],
};

type Reads = Set<string>;

/** A header bag whose reads are recorded as `header:<name>`. */
function recordingHeaders(headers: object, reads: Reads): object {
  return new Proxy(headers, {
    get(target, prop) {
      if (typeof prop === 'string') reads.add(`header:${prop.toLowerCase()}`);
      return Reflect.get(target, prop);
    },
    ownKeys(target) {
      reads.add('header:*');
      return Reflect.ownKeys(target);
    },
  });
}

/**
 * The request side of a Koa context (or its `request`), recording each property read and each header consulted.
 * Methods and getters run on the real object, so Koa's own plumbing is not counted; only what the handler asks.
 */
function recordingContext<T extends object>(target: T, reads: Reads): T {
  return new Proxy(target, {
    get(obj, prop) {
      if (typeof prop !== 'string') return Reflect.get(obj, prop, obj);
      if (HEADER_METHODS[prop]) {
        const method = Reflect.get(obj, prop, obj) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          for (const read of HEADER_METHODS[prop]!(args)) reads.add(read);
          return method.apply(obj, args);
        };
      }
      if (prop === 'header' || prop === 'headers') return recordingHeaders(Reflect.get(obj, prop, obj) as object, reads);
      if (prop === 'request') return recordingContext(Reflect.get(obj, prop, obj) as object, reads);
      if (prop === 'cookies') {
        const cookies = Reflect.get(obj, prop, obj) as { get(name: string): unknown };
        return { get: (name: string) => (reads.add(`cookie:${name}`), cookies.get(name)) };
      }
      reads.add(prop);
      const value = Reflect.get(obj, prop, obj);
      return typeof value === 'function' ? value.bind(obj) : value;
    },
    set(obj, prop, value) {
      return Reflect.set(obj, prop, value, obj);
    },
  });
}

/** An object whose top-level reads are recorded (the site's options, the data loaders). */
function recordingObject<T extends object>(target: T, reads: Reads, prefix = ''): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      if (typeof prop === 'string') reads.add(`${prefix}${prop}`);
      return Reflect.get(obj, prop, receiver);
    },
  });
}

/** The reads of a category that RENDER_INPUTS does not list. */
const undeclared = (reads: Iterable<string>, declared: object, ignore: ReadonlySet<string> = new Set()) =>
  [...reads].filter((read) => !ignore.has(read) && !Object.hasOwn(declared, read)).sort();

describe('the recorder', () => {
  it('names a header, a cookie and a property the handler reads, and none that Koa reads for it', async () => {
    const reads: Reads = new Set();
    const app = new Koa();
    app.use(async (ctx) => {
      const recorded = recordingContext(ctx, reads);
      // What a careless change to the render could add: each would have to be in the key.
      recorded.body = `${recorded.get('Accept-Language')} ${recorded.cookies.get('session')} ${recorded.ip} ${recorded.request.headers['referer']}`;
      recorded.status = 200;
      recorded.set('X-Test', '1');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await fetch(`http://127.0.0.1:${port}/`, { headers: { 'accept-language': 'fr', cookie: 'session=x' } });
    } finally {
      server.close();
    }
    expect(undeclared(reads, RENDER_INPUTS.request, ANSWER_SIDE)).toEqual(['cookie:session', 'header:accept-language', 'header:referer', 'ip']);
  });
});

describeNeedingBuild('every input of a render is in the render cache key or its tags (the built site)', { missing: serverEntriesMissing() }, () => {
  let api: TestServer;
  let server: http.Server;
  let base: string;
  const reads = { request: new Set<string>(), options: new Set<string>(), data: new Set<string>(), env: new Set<string>() };
  const paths: string[] = [];

  beforeAll(async () => {
    // The real services on a fresh database: the route data the loaders read (a post, a report).
    api = await startTestServer({ env: ADMIN_ENV });
    const post = await api.instance.services.posts.create(
      {
        title: 'What the render reads',
        excerpt: 'A post of the render inputs test, for its page and its category.',
        content: `<p>${'Words of the post to read on its page. '.repeat(4)}</p>`,
        author: 'Tri-Valley AI Team',
        category: 'AI Automation',
        metaDescription: 'A post of the render inputs test, long enough to be a description.',
        status: 'published',
      },
      { allowStatus: true },
    );
    const report = await fetch(`${api.url}/api/analyze-smb-business`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: api.url },
      body: JSON.stringify({ businessName: 'Render Inputs Bakery', businessType: 'Restaurant', location: 'Danville, CA' }),
    });
    expect(report.status).toBe(200);
    const { id } = (await report.json()) as { id: string };

    // esbuild's service process (the release importer's transform) starts once per process, with a copy of the
    // environment: started here, it is not counted as an input of the first render.
    await transform('');

    // The site as app.ts assembles it, on the built repository, each input behind a recorder.
    const shellServer = createShellServer({ siteRoot: REPO_ROOT });
    const options: SiteOptions = {
      publicOrigin: 'https://tri-valley.example',
      shell: createShellDocument({ siteRoot: REPO_ROOT, server: shellServer }),
      remotes: createRemoteRegistry({ siteRoot: REPO_ROOT, remoteUrls: {}, shared: async () => (await shellServer.load())?.shared }),
      loaders: recordingObject(createRouteDataLoaders(api.instance.services), reads.data),
      composer: createPageComposer({ shell: shellServer, timeoutMs: 10_000, queue: createRenderQueue({ maxWaitMs: 10_000 }) }),
      cache: createRenderCache(),
    };
    const handler = site(recordingObject(options, reads.options));
    const app = new Koa();
    app.use(async (ctx: Context) => {
      const env = process.env;
      process.env = recordingObject(env, reads.env);
      try {
        await handler(recordingContext(ctx, reads.request));
      } finally {
        process.env = env;
      }
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    paths.push(
      '/',
      '/local-services',
      '/local-services/danville-ai-automation',
      '/case-studies/danville-restaurant-automation',
      '/case-studies/restaurant-automation',
      '/roi-calculator',
      '/blog',
      `/blog/${post.slug}`,
      '/blog/category/ai-automation',
      '/free-analysis',
      '/website-analysis',
      `/free-analysis/report/${id}`,
      '/blog/no-such-post',
      '/no-such-page',
    );
  }, 60_000);
  afterAll(async () => {
    server?.close();
    await api?.close();
  });

  it('renders every public route and kept page through the recorders with what a visitor sends', async () => {
    // What a browser sends: a session cookie, a language, a user agent, a referrer, a validator. Each page: the
    // render, the kept page, a 304 for its ETag, the page with a query string, and a HEAD.
    const visitor = {
      accept: 'text/html',
      'accept-encoding': 'br, gzip',
      'accept-language': 'en-US,en;q=0.9',
      'user-agent': 'Mozilla/5.0 (render inputs test)',
      referer: 'https://search.example/',
      cookie: 'admin_session=not-a-session; theme=dark',
      'x-forwarded-for': '203.0.113.9',
    };
    // The registry loads each remote's server module on first need (the pages of that first visit render in the
    // browser): a first round, recorded too, loads them.
    for (const p of paths) await (await fetch(`${base}${p}`, { headers: visitor })).text();
    for (const p of paths) {
      const first = await fetch(`${base}${p}`, { headers: visitor });
      expect(first.status, p).toBe(p.includes('no-such') ? 404 : 200);
      await first.text();
      const kept = await fetch(`${base}${p}`, { headers: visitor });
      await kept.text();
      const etag = kept.headers.get('etag');
      const revalidated = await fetch(`${base}${p}`, { headers: { ...visitor, 'if-none-match': etag ?? '' } });
      await revalidated.text();
      // A page that exists and was kept has a validator; a kept 404 (an unknown post) is sent whole again.
      if (kept.status === 200) expect([kept.headers.get('x-render-cache'), etag !== null, revalidated.status], p).toEqual(['hit', true, 304]);
      // A query string (a search, a campaign tag) and a HEAD.
      await (await fetch(`${base}${p}?q=chatbots&utm_source=test`, { headers: visitor })).text();
      await fetch(`${base}${p}`, { method: 'HEAD', headers: visitor });
    }
    // The recorders saw the render: the path, the data of each kind, the key's inputs.
    expect(reads.request).toContain('path');
    expect([...reads.data].sort()).toEqual(['analysis-report', 'post', 'post-list']);
    expect(reads.options).toContain('publicOrigin');
  }, 120_000);

  it('reads nothing of the request that RENDER_INPUTS does not list (cookies, other headers, the address)', () => {
    expect(undeclared(reads.request, RENDER_INPUTS.request, ANSWER_SIDE)).toEqual([]);
  });

  it('reads no option, data source or environment variable that RENDER_INPUTS does not list', () => {
    expect(undeclared(reads.options, RENDER_INPUTS.options)).toEqual([]);
    expect(undeclared(reads.data, RENDER_INPUTS.data)).toEqual([]);
    expect(undeclared(reads.env, RENDER_INPUTS.env)).toEqual([]);
  });

  it("what RENDER_INPUTS puts in the key changes the key: the path, the origin, the shell's page and server entry, the remotes", async () => {
    const shellPage = { html: '<html></html>', scriptHashes: [], dir: '/site/shell/releases/1.0.0', version: '1.0.0', entry: { renderPage: () => null } };
    const snapshot = { map: { blog: { entry: '/mfe/blog/assets/remoteEntry.js' } }, manifests: [], served: {} } as never;
    const composer = { compose: async () => null };
    const key = (over: { origin?: string; path?: string; page?: object; snapshot?: object } = {}) =>
      renderCacheKey(
        { publicOrigin: over.origin ?? 'https://a.example', composer },
        (over.page ?? shellPage) as never,
        (over.snapshot ?? snapshot) as never,
        over.path ?? '/blog',
      );
    const same = await key();
    expect(await key()).toBe(same);
    for (const changed of [
      { origin: 'https://b.example' },
      { path: '/blog/category/ai-automation' },
      { page: { ...shellPage, html: '<html lang="en"></html>' } },
      // Another server entry (a shell deployed), another shell release.
      { page: { ...shellPage, entry: { renderPage: () => null } } },
      { page: { ...shellPage, version: '1.0.1' } },
      { snapshot: { map: { blog: { entry: '/mfe/blog/releases/1.0.1/assets/remoteEntry.js' } }, manifests: [], served: {} } },
    ]) {
      expect(await key(changed), JSON.stringify(changed)).not.toBe(same);
    }
    // Every input RENDER_INPUTS says is in the key is one of those: the release choice (a preview cookie, a canary's
    // bucket cookie, read by chooseReleases) through the snapshot of the releases it chose, another snapshot object with
    // another map.
    const inKey = Object.entries({ ...RENDER_INPUTS.request, ...RENDER_INPUTS.options })
      .filter(([, how]) => how.startsWith('key'))
      .map(([name]) => name)
      .sort();
    expect(inKey).toEqual(['chooseReleases', 'composer', 'cookie:site_bucket', 'cookie:site_preview', 'path', 'publicOrigin', 'remotes', 'shell', 'url']);
  });
});
