import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST_STATUSES, type PostStatus } from '@site/contracts/posts';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createPostsRepository, type PostsRepository, type StoredPost } from '../posts-repository';

/*
 * The counts the database keeps per status and category (migration 0009: triggers on blog_posts) answer a list's
 * total and the admin's counts. After any sequence of writes through the repository (create, change of status or
 * category or anything else, delete) they equal a count over the posts themselves, on each engine.
 */

const CATEGORIES = ['ai-automation', 'case-studies', 'local-business'] as const;

type Op =
  | { kind: 'create'; status: PostStatus; category: (typeof CATEGORIES)[number] }
  | { kind: 'update'; pick: number; status?: PostStatus; category?: (typeof CATEGORIES)[number]; title?: string }
  | { kind: 'delete'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), status: fc.constantFrom(...POST_STATUSES), category: fc.constantFrom(...CATEGORIES) }),
  fc.record(
    {
      kind: fc.constant('update' as const),
      pick: fc.nat(),
      status: fc.constantFrom(...POST_STATUSES),
      category: fc.constantFrom(...CATEGORIES),
      title: fc.constantFrom('A new title', 'Another title'),
    },
    { requiredKeys: ['kind', 'pick'] },
  ),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

for (const backend of testBackends()) {
  describe(`post counts kept by the database (${backend.name})`, () => {
    let database: TestDatabase;
    let posts: PostsRepository;
    let n = 0;

    beforeAll(async () => {
      database = await backend.open();
      posts = createPostsRepository(database.handle.db);
    }, 30_000);
    afterAll(async () => {
      await database?.dispose();
    });

    /** The truth: a count over the posts themselves. */
    async function counted(filter: { status?: PostStatus; categorySlug?: string }) {
      let query = database.handle.db.selectFrom('blog_posts').select((eb) => eb.fn.countAll<number | string>().as('n'));
      if (filter.status) query = query.where('status', '=', filter.status);
      if (filter.categorySlug) query = query.where('category_slug', '=', filter.categorySlug);
      return Number((await query.executeTakeFirstOrThrow()).n);
    }

    async function apply(op: Op, ids: string[]) {
      if (op.kind === 'create') {
        const now = new Date(Date.UTC(2026, 0, 1) + (n += 1) * 1000).toISOString();
        const post: StoredPost = {
          id: `post-${backend.name}-${n}`,
          slug: `post-${n}`,
          title: `Post ${n}`,
          excerpt: 'An excerpt of the post, long enough for a list.',
          content: '<p>Words.</p>',
          keywords: [],
          author: 'Test',
          category: op.category,
          categorySlug: op.category,
          status: op.status,
          featuredImage: null,
          ogImage: null,
          readTime: 1,
          views: 0,
          metaDescription: 'A description of the post for the counts test.',
          source: 'local',
          publishedAt: op.status === 'published' ? now : null,
          publishAt: null,
          createdAt: now,
          updatedAt: now,
        };
        expect(await posts.insert(post)).toBe(true);
        ids.push(post.id);
        return;
      }
      if (ids.length === 0) return;
      const id = ids[op.pick % ids.length]!;
      if (op.kind === 'delete') {
        expect(await posts.delete(id)).toBe(true);
        ids.splice(ids.indexOf(id), 1);
        return;
      }
      const current = (await posts.findById(id))!;
      const category = op.category ?? current.categorySlug;
      expect(
        await posts.update({ ...current, status: op.status ?? current.status, category, categorySlug: category, title: op.title ?? current.title }),
      ).toBe(true);
    }

    it('equal a count over the posts after any sequence of creates, updates and deletes', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { maxLength: 25 }), async (ops) => {
          // Each run starts from the posts the last one left (seeded ones included): counts must hold from any start.
          const ids = (await database.handle.db.selectFrom('blog_posts').select('id').execute()).map((r) => r.id);
          for (const op of ops) await apply(op, ids);
          for (const status of [undefined, ...POST_STATUSES]) {
            for (const categorySlug of [undefined, ...CATEGORIES]) {
              const filter = { ...(status ? { status } : {}), ...(categorySlug ? { categorySlug } : {}) };
              const page = await posts.page(filter, { limit: 1 });
              expect(page.total, JSON.stringify(filter)).toBe(await counted(filter));
            }
          }
          const byStatus = await posts.countByStatus();
          for (const status of POST_STATUSES) expect(byStatus[status], status).toBe(await counted({ status }));
          const categories = await posts.listCategories();
          for (const c of categories) expect(c.postCount, c.slug).toBe(await counted({ status: 'published', categorySlug: c.slug }));
          // No category without a published post is listed.
          expect(categories.every((c) => c.postCount > 0)).toBe(true);
        }),
        { numRuns: 40 },
      );
    }, 120_000);

    it('started from the posts that existed before the migration (the seeded ones)', async () => {
      const fresh = await backend.open();
      try {
        const rows = await sql<{ n: number | string }>`select coalesce(sum(posts), 0) as n from blog_post_counts`.execute(fresh.handle.db);
        const all = await fresh.handle.db.selectFrom('blog_posts').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
        expect(Number(all.n)).toBeGreaterThan(0);
        expect(Number(rows.rows[0]!.n)).toBe(Number(all.n));
      } finally {
        await fresh.dispose();
      }
    });
  });
}
