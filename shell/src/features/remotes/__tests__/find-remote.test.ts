import { describe, expect, it } from 'vitest';
import type { RemotesMap } from '@site/contracts/manifest';
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
