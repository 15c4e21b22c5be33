import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOG_FEED_PATH, BLOG_ROUTES, blogCategoryPath, blogPostPath } from '../blog-routes';
import { slugify } from '../posts-rules';
import { bestRouteMatch, fillRoutePattern } from '../route-match';

const patterns = Object.values(BLOG_ROUTES);

describe('the blog URL scheme', () => {
  it('names a post, a category and the feed under /blog', () => {
    expect(BLOG_ROUTES).toEqual({ home: '/blog', category: '/blog/category/:category', post: '/blog/:slug' });
    expect(blogPostPath('chatbots-for-dentists')).toBe('/blog/chatbots-for-dentists');
    expect(blogCategoryPath('case-studies')).toBe('/blog/category/case-studies');
    expect(BLOG_FEED_PATH).toBe('/blog/rss.xml');
  });

  it('fills paths the route table routes back to the same page and params, whatever the slug', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (text) => {
        const slug = slugify(text);
        expect(bestRouteMatch(patterns, blogPostPath(slug))).toEqual({ pattern: BLOG_ROUTES.post, params: { slug } });
        expect(bestRouteMatch(patterns, blogCategoryPath(slug))).toEqual({ pattern: BLOG_ROUTES.category, params: { category: slug } });
      }),
    );
    // Even a post slugged like the category segment is a post.
    expect(bestRouteMatch(patterns, blogPostPath('category'))).toEqual({ pattern: BLOG_ROUTES.post, params: { slug: 'category' } });
  });
});

describe('fillRoutePattern', () => {
  it('percent-encodes each param so it stays one segment', () => {
    expect(fillRoutePattern('/admin/posts/:id/edit', { id: 'a/b c' })).toBe('/admin/posts/a%2Fb%20c/edit');
    expect(fillRoutePattern('/blog/category/:category', { category: 'Café & Co' })).toBe('/blog/category/Caf%C3%A9%20%26%20Co');
    expect(fillRoutePattern('/blog', {})).toBe('/blog');
  });

  it('is undone by matchRoutePattern for any non-empty value', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, b) => {
        expect(bestRouteMatch(['/x/:a/y/:b'], fillRoutePattern('/x/:a/y/:b', { a, b }))?.params).toEqual({ a, b });
      }),
    );
  });
});
