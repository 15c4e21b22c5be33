import { describe, expect, it } from 'vitest';
import { matchRoutePattern, matchesAny } from '../route-match';

describe('matchRoutePattern', () => {
  it('matches exact paths and ignores a trailing slash', () => {
    expect(matchRoutePattern('/', '/')).toEqual({});
    expect(matchRoutePattern('/blog', '/blog/')).toEqual({});
    expect(matchRoutePattern('/blog', '/blogs')).toBeNull();
  });
  it('captures params and refuses extra segments', () => {
    expect(matchRoutePattern('/blog/:slug', '/blog/hello-world')).toEqual({ slug: 'hello-world' });
    expect(matchRoutePattern('/blog/:slug', '/blog/a/b')).toBeNull();
    expect(matchRoutePattern('/admin/posts/:id/edit', '/admin/posts/42/edit')).toEqual({ id: '42' });
  });
  it('matches splats and rejects malformed escapes', () => {
    expect(matchRoutePattern('/admin/*', '/admin/a/b')).toEqual({ '*': 'a/b' });
    expect(matchRoutePattern('/blog/:slug', '/blog/%E0%A4%A')).toBeNull();
    expect(matchesAny(['/local-services', '/local-services/danville-ai-automation'], '/local-services/nowhere')).toBe(false);
  });
});
