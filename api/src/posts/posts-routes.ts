import { categoryListSchema, postListQuerySchema, postListSchema, postSchema, viewsResultSchema } from '@site/contracts/posts';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse, EXAMPLE_POST } from '../http/openapi-parts';

const { content: _content, ...EXAMPLE_SUMMARY } = EXAMPLE_POST;
const slugParam = { slug: { description: 'The post slug, as in its URL.', example: 'five-automations-for-busy-salons' } };
const POST_NOT_FOUND = errorResponse('No published post has this slug.', error('not_found', 'Post not found'));
/** One view per page view: a reader opens a few posts a minute, not hundreds. */
const VIEWS_LIMIT = { windowMs: 60_000, max: 60, keyPrefix: 'post-views' };

/** Public blog API: published posts, one post by slug, its view counter, and the categories. */
export const postsRoutes = defineEndpoints({ config: ['rateLimitMultiplier'], services: ['posts'], context: ['rateLimits'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: '/api/posts',
    tag: 'Blog',
    summary: 'Published posts, newest first, one page at a time',
    description:
      '`q` searches title, excerpt and category through the full-text index: every word must match, the last one may be the start of a word, case-insensitive; punctuation separates words and is never query syntax. The order stays newest first with `q`; `total` then counts the matches up to 1,000, and `totalIsLowerBound` is true when more match.',
    cacheControl: 'no-cache',
    query: { schema: postListQuerySchema, emptyAsAbsent: true },
    responses: {
      200: { description: 'One page; pass `nextCursor` back as `cursor` for the next.', body: { schema: postListSchema, example: { posts: [EXAMPLE_SUMMARY], total: 1, nextCursor: null } } },
      400: errorResponse('A bad limit or a cursor the server did not issue.', error('invalid_cursor', 'The cursor is not valid. Start again from the first page.')),
    },
    handle: ({ query }, { services }) => services.posts.pagePublished(query),
  }),
  endpoint({
    method: 'get',
    path: '/api/posts/:slug',
    tag: 'Blog',
    summary: 'One published post with its HTML content',
    cacheControl: 'no-cache',
    params: slugParam,
    responses: { 200: { description: 'The post.', body: { schema: postSchema, example: EXAMPLE_POST } }, 404: POST_NOT_FOUND },
    handle: ({ params }, { services }) => services.posts.getPublished(params.slug),
  }),
  endpoint({
    method: 'post',
    path: '/api/posts/:slug/views',
    tag: 'Blog',
    summary: 'Count one view of a published post (60 a minute per client)',
    params: slugParam,
    rateLimits: [VIEWS_LIMIT],
    responses: { 200: { description: 'The new count.', body: { schema: viewsResultSchema, example: { views: 13 } } }, 404: POST_NOT_FOUND },
    handle: async ({ params }, { services }) => ({ views: await services.posts.addView(params.slug) }),
  }),
  endpoint({
    method: 'get',
    path: '/api/categories',
    tag: 'Blog',
    summary: 'Categories with their number of published posts',
    cacheControl: 'no-cache',
    responses: {
      200: {
        description: 'Every category with at least one published post; drafts and archived posts are not counted.',
        body: { schema: categoryListSchema, example: { categories: [{ id: 'c1', name: 'How-To Guides', slug: 'how-to-guides', description: 'Articles about How-To Guides.', postCount: 1 }] } },
      },
    },
    handle: async (_input, { services }) => ({ categories: await services.posts.listCategories() }),
  }),
]);
