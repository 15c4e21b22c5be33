import type { BlogPostsTable } from '../posts/blog-schema';

/**
 * A published post's row for SQL-level tests of the posts' tables: the n-th post, a minute after the (n-1)-th from
 * `t0`, slug `<word>-<n>`, its excerpt naming `word`; `fields` override any column.
 */
export function postRow(n: number, word: string, fields: Partial<BlogPostsTable> = {}, t0 = Date.parse('2026-01-01T00:00:00.000Z')): BlogPostsTable {
  const at = new Date(t0 + n * 60_000).toISOString();
  return {
    id: `00000000-0000-4000-b000-${String(n).padStart(12, '0')}`,
    slug: `${word}-${n}`,
    title: `Notes ${n}`,
    excerpt: `About the ${word}, number ${n}.`,
    content: '<p>Body.</p>',
    keywords: '[]',
    author: 'Owner',
    category: 'Business',
    category_slug: 'business',
    status: 'published',
    featured_image: null,
    og_image: null,
    read_time: 1,
    views: 0,
    meta_description: '',
    source: 'local',
    published_at: at,
    created_at: at,
    updated_at: at,
    publish_at: null,
    ...fields,
  } as BlogPostsTable;
}
