import { describe, expect, it } from 'vitest';
import { bestRouteMatch, matchRoutePattern, matchesAny } from '../route-match';

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
  it('matches splats', () => {
    expect(matchRoutePattern('/admin/*', '/admin/a/b')).toEqual({ '*': 'a/b' });
    expect(matchRoutePattern('/admin/*', '/admin')).toEqual({ '*': '' });
    expect(matchesAny(['/local-services', '/local-services/danville-ai-automation'], '/local-services/nowhere')).toBe(false);
  });
  // Each of these is what react-router renders in the browser; the server used to answer otherwise.
  it('agrees with the router on case, slashes and escapes', () => {
    expect(matchRoutePattern('/blog', '/BLOG')).toEqual({});
    expect(matchRoutePattern('/blog/:slug', '/Blog/Hello')).toEqual({ slug: 'Hello' });
    expect(matchRoutePattern('/blog', '/blog//')).toEqual({});
    expect(matchRoutePattern('/blog/:slug', '/blog//x')).toBeNull();
    expect(matchRoutePattern('/blog', '/bl%6Fg')).toEqual({});
    expect(matchRoutePattern('/blog/:slug', '/blog/a%20b')).toEqual({ slug: 'a b' });
    expect(matchRoutePattern('/blog/:slug', '/blog/a%2Fb')).toEqual({ slug: 'a/b' });
    expect(matchRoutePattern('/blog/:slug', '/blog/%E0%A4%A')).toEqual({ slug: '%E0%A4%A' });
  });
});

describe('bestRouteMatch', () => {
  it('picks the route react-router ranks first, whatever the order', () => {
    const routes = ['/blog/:slug', '/blog/category/:category', '/blog', '/blog/*'];
    expect(bestRouteMatch(routes, '/blog/category/news')).toEqual({ pattern: '/blog/category/:category', params: { category: 'news' } });
    expect(bestRouteMatch(routes, '/blog/hello')).toEqual({ pattern: '/blog/:slug', params: { slug: 'hello' } });
    expect(bestRouteMatch(routes, '/blog')).toEqual({ pattern: '/blog', params: {} });
    expect(bestRouteMatch(routes, '/blog/a/b/c')).toEqual({ pattern: '/blog/*', params: { '*': 'a/b/c' } });
    expect(bestRouteMatch(routes, '/nope')).toBeNull();
  });
});
