import { describe, expect, it } from 'vitest';
import { MANIFESTS } from '../../../test-support/site-fixture';
import type { RemotesSnapshot } from '../../releases/remote-registry';
import { resolveHead } from '../dynamic-pages';
import { resolvePage } from '../resolve-page';
import type { RouteDataLoaders } from '../route-data';

const post = { slug: 'chatbots', title: 'Chatbots', metaDescription: 'About chatbots' };

function setup() {
  const calls: Array<[string | undefined, string]> = [];
  const loaders: RouteDataLoaders = {
    post: async (slug, search) => {
      calls.push([slug, search.toString()]);
      return slug === post.slug ? post : undefined;
    },
    'analysis-report': async () => undefined,
    'post-list': async () => ({ lists: [] }),
  };
  const module = {
    routes: [
      { path: '/blog' },
      { path: '/blog/:slug', data: { source: 'post', param: 'slug' }, head: (params: Record<string, string>, data: unknown) => ({ path: `/blog/${params.slug}`, title: (data as typeof post).title, description: (data as typeof post).metaDescription }) },
    ],
  };
  const snapshot: RemotesSnapshot = Object.freeze({
    manifests: [MANIFESTS.blog],
    map: {},
    routes: MANIFESTS.blog.routes,
    served: { blog: { name: 'blog' as const, version: '0.9.0', dir: '/site/mfe-blog/dist', layout: 'dist' as const, serverEntry: 'ok' as const, module, since: '2026-11-25T10:00:00.000Z', pointer: null } },
  });
  return { calls, loaders, snapshot, module };
}

describe('resolvePage', () => {
  it('resolves a page once: owner, module, route and params; its data is loaded once for the head and the body', async () => {
    const { calls, loaders, snapshot, module } = setup();
    const page = resolvePage(snapshot, '/blog/chatbots', new URLSearchParams('ref=x'), loaders);
    expect(page.owner?.manifest.name).toBe('blog');
    expect(page.owner?.module).toBe(module);
    expect(page.owner?.route?.def.path).toBe('/blog/:slug');
    expect(page.owner?.route?.params).toEqual({ slug: 'chatbots' });
    expect(Object.isFrozen(page)).toBe(true);

    // The head asks, then the server render asks: one load.
    expect(await resolveHead(page)).toMatchObject({ title: 'Chatbots', description: 'About chatbots' });
    expect(await page.data()).toEqual({ loaded: true, data: post });
    expect(calls).toEqual([['chatbots', 'ref=x']]);
  });

  it('an unknown slug is not found; a static page keeps its manifest metadata; an undeclared path has no owner', async () => {
    const { loaders, snapshot } = setup();
    expect(await resolveHead(resolvePage(snapshot, '/blog/nothing-here', new URLSearchParams(), loaders))).toBe('not-found');
    expect(await resolveHead(resolvePage(snapshot, '/Blog/', new URLSearchParams(), loaders))).toMatchObject({ path: '/blog', title: 'The blog' });
    const nowhere = resolvePage(snapshot, '/nowhere', new URLSearchParams(), loaders);
    expect(nowhere.owner).toBeUndefined();
    expect(await resolveHead(nowhere)).toBeNull();
  });
});
