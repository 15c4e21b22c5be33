import { isPostSlug, postListQuerySchema, slugify, type PostSummary } from '@site/contracts/posts';
import { adminPostListQuerySchema } from '@site/contracts/admin';
import { describeIssues, fieldIssues } from '@site/contracts/error';
import { InvalidInputError } from '../lib/domain-errors';
import type { PostFilter, PostPosition, StoredPostSummary } from './posts-repository';
import { findPost, notFound, toPost, toSummary, type PostContext } from './post-model';
import type { PostService } from './post-service';

export const INVALID_CURSOR = 'The cursor is not valid. Start again from the first page.';

/** The opaque cursor of a page: its last position as base64url JSON. */
export function encodeCursor(position: PostPosition): string {
  return Buffer.from(JSON.stringify([position.sortedAt, position.createdAt, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): PostPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 100)) {
      const [sortedAt, createdAt, id] = value as [string, string, string];
      return { sortedAt, createdAt, id };
    }
  } catch {
    // fall through: not base64url JSON
  }
  throw new InvalidInputError(INVALID_CURSOR, { code: 'invalid_cursor' });
}

export const SEARCH_TAKES_NO_CURSOR = 'A search answers one page, best match first: send no cursor with q.';

/** The admin list's cursor: which way to read and from which post (its place in the list's order), base64url JSON. */
export function encodeAdminCursor(towards: 'older' | 'newer', post: Pick<StoredPostSummary, 'publishedAt' | 'createdAt' | 'id'>): string {
  return Buffer.from(JSON.stringify([towards === 'older' ? 'o' : 'n', post.publishedAt ?? post.createdAt, post.createdAt, post.id])).toString('base64url');
}

export function decodeAdminCursor(cursor: string): PostPosition & { towards: 'older' | 'newer' } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 4 && (value[0] === 'o' || value[0] === 'n') && value.slice(1).every((v) => typeof v === 'string' && v.length > 0 && v.length <= 100)) {
      const [way, sortedAt, createdAt, id] = value as [string, string, string, string];
      return { towards: way === 'o' ? 'older' : 'newer', sortedAt, createdAt, id };
    }
  } catch {
    // fall through: not base64url JSON
  }
  throw new InvalidInputError(INVALID_CURSOR, { code: 'invalid_cursor' });
}

/** Published posts matching the search text and a category given by name or slug (both slugify alike). */
function publishedFilter(filter: { q?: string; category?: string }): PostFilter {
  const category = filter.category?.trim();
  return { status: 'published', q: filter.q, categorySlug: category ? slugify(category) : undefined };
}

type PostQueries = Pick<
  PostService,
  | 'listPublished'
  | 'pagePublished'
  | 'getPublished'
  | 'addView'
  | 'listCategories'
  | 'feed'
  | 'sitemapParts'
  | 'sitemapPart'
  | 'listAll'
  | 'pageAll'
  | 'getById'
  | 'nextScheduledAt'
>;

/** What the blog and the admin read: lists and their pages, one post, categories, feed and sitemap parts. */
export function createPostQueries(ctx: PostContext): PostQueries {
  const { posts } = ctx;

  /** The posts with their featured image's alt text, where the media library has one (one lookup for the lot). */
  async function withAlts<P extends PostSummary>(list: P[]): Promise<P[]> {
    if (!ctx.imageAlts || list.length === 0) return list;
    const alts = await ctx.imageAlts(list.map((p) => p.featuredImage));
    return list.map((p) => {
      const alt = alts.get(p.featuredImage);
      return alt ? { ...p, featuredImageAlt: alt } : p;
    });
  }

  return {
    async listPublished(filter = {}) {
      return (await posts.list(publishedFilter(filter))).map(toSummary);
    },

    async pagePublished(input = {}) {
      const parsed = postListQuerySchema.safeParse(input);
      if (!parsed.success) {
        const issues = fieldIssues(parsed.error);
        throw new InvalidInputError(describeIssues(issues), { details: issues });
      }
      const query = parsed.data;
      const after = query.cursor ? decodeCursor(query.cursor) : undefined;
      const page = await posts.page(publishedFilter(query), { limit: query.limit, after });
      return {
        posts: await withAlts(page.posts.map(toSummary)),
        total: page.total,
        ...(query.q ? { totalIsLowerBound: page.totalIsLowerBound } : {}),
        nextCursor: page.next ? encodeCursor(page.next) : null,
      };
    },

    async getPublished(slug) {
      if (!isPostSlug(slug)) throw notFound();
      const post = await posts.findBySlug(slug);
      if (!post || post.status !== 'published') throw notFound();
      return (await withAlts([toPost(post)]))[0]!;
    },

    async addView(slug) {
      if (!isPostSlug(slug)) throw notFound();
      const views = await posts.incrementViews(slug);
      if (views === undefined) throw notFound();
      return views;
    },

    async listCategories() {
      return posts.listCategories();
    },

    async feed(limit) {
      return (await posts.newestPublished(limit)).map(toSummary);
    },

    sitemapParts: (size) => posts.publishedParts(size),
    sitemapPart: (first, size) => posts.publishedFrom(first, size),

    async listAll(filter = {}) {
      return (await posts.list({ q: filter.q, status: filter.status })).map(toSummary);
    },

    async pageAll(input = {}) {
      const parsed = adminPostListQuerySchema.safeParse(input);
      if (!parsed.success) {
        const issues = fieldIssues(parsed.error);
        throw new InvalidInputError(describeIssues(issues), { details: issues });
      }
      const { q, status, cursor, limit } = parsed.data;
      if (q) {
        // A search is one ranked page (the best `limit` matches); a rank is no stable position to page from.
        if (cursor) throw new InvalidInputError(SEARCH_TAKES_NO_CURSOR, { code: 'invalid_cursor' });
        const [matching, counts] = await Promise.all([posts.ranked({ q, status }, limit), posts.countByStatus()]);
        return { posts: matching.posts.map(toSummary), total: matching.total, totalIsLowerBound: matching.totalIsLowerBound, limit, nextCursor: null, prevCursor: null, counts };
      }
      const at = cursor ? decodeAdminCursor(cursor) : undefined;
      const [page, counts] = await Promise.all([
        posts.pageBoth({ status }, { limit, after: at?.towards === 'older' ? at : undefined, before: at?.towards === 'newer' ? at : undefined }),
        posts.countByStatus(),
      ]);
      const first = page.posts[0];
      const last = page.posts[page.posts.length - 1];
      const towards = at?.towards ?? 'older';
      return {
        posts: page.posts.map(toSummary),
        total: page.total,
        limit,
        // Read older: another page beyond when `more`; read newer: the page we came from lies older.
        nextCursor: last && (towards === 'newer' || page.more) ? encodeAdminCursor('older', last) : null,
        prevCursor: first && at && (towards === 'older' || page.more) ? encodeAdminCursor('newer', first) : null,
        counts,
      };
    },

    async getById(id) {
      return toPost(await findPost(posts, id));
    },

    async nextScheduledAt() {
      return posts.nextScheduledAt();
    },
  };
}
