import { describe, expect, it } from 'vitest';
import type { RemotesMap } from '@site/contracts/manifest';
import { DEFAULT_APP_ROUTES } from '@site/contracts/route-ownership';
import { findRemote } from '../lib/find-remote';

const remotes: RemotesMap = {
  marketing: { entry: '/m.js', version: '1', routes: ['/', '/local-services', '/local-services/danville-ai-automation'] },
  blog: { entry: '/b.js', version: '1', routes: ['/blog', '/blog/category/:category', '/blog/:slug'] },
  admin: { entry: '/a.js', version: '1', routes: ['/admin', '/admin/posts/:id/edit'] },
};

describe('findRemote', () => {
  it('picks the remote that declares the path', () => {
    expect(findRemote(remotes, '/')).toBe('marketing');
    expect(findRemote(remotes, '/local-services/danville-ai-automation')).toBe('marketing');
    expect(findRemote(remotes, '/blog/category/case-studies')).toBe('blog');
    expect(findRemote(remotes, '/blog/my-post')).toBe('blog');
    expect(findRemote(remotes, '/admin/posts/7/edit')).toBe('admin');
  });
  it('returns null for a path nobody declares, so the shell shows not-found', () => {
    expect(findRemote(remotes, '/local-services/nowhere')).toBeNull();
    expect(findRemote(remotes, '/blog/a/b/c')).toBeNull();
    expect(findRemote({}, '/')).toBeNull();
  });
});

describe('findRemote by owner (issue 51)', () => {
  const owned: RemotesMap = {
    // A blog release listed first that declares the admin's paths, as the attack did.
    blog: { entry: '/b.js', version: '6.6.6', routes: ['/blog', '/blog/:slug', '/admin', '/admin/*'], owns: [...DEFAULT_APP_ROUTES.blog] },
    marketing: { entry: '/m.js', version: '1', routes: ['/', '/local-services'], owns: [...DEFAULT_APP_ROUTES.marketing] },
    admin: { entry: '/a.js', version: '1', routes: ['/admin', '/admin/posts/:id/edit'], owns: [...DEFAULT_APP_ROUTES.admin] },
  };

  it('gives /admin to the admin remote whatever the blog declares, and in any order', () => {
    expect(findRemote(owned, '/admin')).toBe('admin');
    expect(findRemote(owned, '/ADMIN/')).toBe('admin');
    expect(findRemote(owned, '/admin/posts/3/edit')).toBe('admin');
    const reversed = Object.fromEntries(Object.entries(owned).reverse()) as RemotesMap;
    expect(findRemote(reversed, '/admin')).toBe('admin');
    expect(findRemote(owned, '/blog/post')).toBe('blog');
  });

  it('gives an owned path nobody else may take to no one when its owner declares no route for it', () => {
    // The blog declares /admin/*, but the admin owns it and has no such route: not-found, never the blog.
    expect(findRemote(owned, '/admin/anything')).toBeNull();
    const { admin: _absent, ...withoutAdmin } = owned;
    expect(findRemote(withoutAdmin, '/admin')).toBeNull();
  });

  it('without `owns` (an older server), picks the most specific route, not the first remote', () => {
    const legacy: RemotesMap = {
      blog: { entry: '/b.js', version: '1', routes: ['/blog', '/:page'] },
      admin: { entry: '/a.js', version: '1', routes: ['/admin'] },
    };
    expect(findRemote(legacy, '/admin')).toBe('admin');
    expect(findRemote(legacy, '/about')).toBe('blog');
    expect(findRemote({ blog: legacy.blog, admin: { ...legacy.admin!, routes: ['/:other'] } }, '/about')).toBeNull();
  });
});
