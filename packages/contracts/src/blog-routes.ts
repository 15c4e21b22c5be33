import { fillRoutePattern } from './route-match';

/**
 * The blog's URL scheme, written once. mfe-blog's route table declares these patterns (its router, its manifest
 * and the server's page rendering read them from there), and every address of a post or a category built anywhere
 * else is filled from the same patterns: the blog's own links and heads, the admin's "View" link, and the API's RSS
 * feed, sitemap and webhook answer. No zod here: the blog's pages load it.
 */
export const BLOG_ROUTES = {
  /** The list of published posts. */
  home: '/blog',
  /** One category's posts, by the category's slug. */
  category: '/blog/category/:category',
  /** One published post, by its slug. */
  post: '/blog/:slug',
} as const;

/** The RSS feed of the published posts: served by the API, under the blog's address. */
export const BLOG_FEED_PATH = `${BLOG_ROUTES.home}/rss.xml`;

/** A post's public page (`/blog/<slug>`). */
export const blogPostPath = (slug: string): string => fillRoutePattern(BLOG_ROUTES.post, { slug });

/** A category's page (`/blog/category/<slug>`). */
export const blogCategoryPath = (categorySlug: string): string => fillRoutePattern(BLOG_ROUTES.category, { category: categorySlug });
