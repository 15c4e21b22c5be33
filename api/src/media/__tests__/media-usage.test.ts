import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaListSchema } from '@site/contracts/media';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { testBackends, uniqueSchema, type TestDatabase } from '../../test-support/databases';
import { call, TEST_ORIGIN } from '../../test-support/site-client';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { mediaUsageMigration } from '../../db/migrations/0015-media-usage';
import { encodeMediaCursor } from '../media-service';

const DAY = 24 * 60 * 60 * 1000;

const article = (title: string, featuredImage: string, ogImage?: string) => ({
  title,
  excerpt: 'An excerpt long enough for the rules of the blog.',
  content: `<h2>Body</h2><p>${'Words of a post that is long enough to be stored. '.repeat(4)}</p>`,
  author: 'Admin',
  category: 'AI Automation',
  metaDescription: 'A meta description that is long enough for the rules of the blog posts.',
  featuredImage,
  ...(ogImage ? { ogImage } : {}),
});

const newHash = () => randomBytes(12).toString('hex');

/** Media rows as an upload stores them (no files: where an image is used is all these tests read). */
function mediaRows(count: number, createdAt: (i: number) => string) {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    hash: newHash(),
    filename: `image-${i}.png`,
    alt: '',
    format: 'png',
    width: 800,
    height: 600,
    bytes: 1000,
    variants: '[]',
    created_at: createdAt(i),
  }));
}

/*
 * Issue 32: where an image is used is a table kept by every post write (media_usage), not LIKE over every post. The
 * library answers for any number of images, and the uses follow a post through edit, revision restore, delete,
 * undelete and the end of its 30 restorable days.
 */
describe.each(testBackends().map((b) => b.name))('media usage (%s)', (backend) => {
  let server: TestServer;
  let cookie: string;
  let offset = 0;
  const schema = uniqueSchema();

  beforeAll(async () => {
    server = await startTestServer({
      env: { ...ADMIN_ENV, PUBLIC_ORIGIN: TEST_ORIGIN, ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: { clock: () => new Date(Date.now() + offset), ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}) },
    });
    cookie = await adminCookie(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const listed = async () => {
    const res = await call(server.url, '/api/admin/media', { cookie });
    expect(res.status).toBe(200);
    return mediaListSchema.parse(res.json).media;
  };
  const usesOf = async (id: string) => (await listed()).find((m) => m.id === id)!.usedBy;
  const admin = (path: string, init: { method?: string; body?: unknown } = {}) => call(server.url, path, { ...init, cookie });

  it('lists a library of 600 images a page at a time, with where each is used', async () => {
    // Today's LIKE over every post for each listed image failed here on SQLite ("Expression tree is too large").
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    const rows = mediaRows(600, (i) => new Date(base + i * 1000).toISOString());
    for (let i = 0; i < rows.length; i += 100) await server.instance.db.insertInto('media').values(rows.slice(i, i + 100)).execute();
    const newest = rows.at(-1)!;
    const post = await admin('/api/admin/posts', { method: 'POST', body: article('A post with the newest image', `/media/${newest.hash}-800x600.png`) });
    expect(post.status).toBe(201);

    const media = await listed();
    expect(media).toHaveLength(24);
    expect(media[0]!.id).toBe(newest.id);
    expect(media[0]!.usedBy).toEqual([{ id: (post.json as { id: string }).id, title: 'A post with the newest image', field: 'featuredImage' }]);
    expect(media.slice(1).every((m) => m.usedBy.length === 0)).toBe(true);

    // Every page by its cursor: all 600, newest first, each once, and no cursor after the last.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await admin(`/api/admin/media?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const page = mediaListSchema.parse(res.json);
      seen.push(...page.media.map((m) => m.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...rows].reverse().map((r) => r.id));
    // Images stored in the same millisecond still come once each (the keyset's id breaks the tie).
    const sameTime = mediaRows(3, () => '2025-06-01T00:00:00.000Z');
    await server.instance.db.insertInto('media').values(sameTime).execute();
    const older: string[] = [];
    // From a cursor just after them (as if the page before ended there), one image per page.
    cursor = encodeMediaCursor({ createdAt: '2025-06-02T00:00:00.000Z', id: 'x' });
    while (cursor && older.length < 3) {
      const page = mediaListSchema.parse((await admin(`/api/admin/media?limit=1&cursor=${cursor}`)).json);
      older.push(...page.media.map((m) => m.id));
      cursor = page.nextCursor;
    }
    expect(older).toEqual(sameTime.map((r) => r.id).sort().reverse());
    for (const bad of ['nope', Buffer.from('["x"]').toString('base64url')]) {
      expect((await admin(`/api/admin/media?cursor=${bad}`)).json).toMatchObject({ error: { code: 'invalid_cursor' } });
    }
    expect((await admin('/api/admin/media?limit=0')).status).toBe(400);
  });

  it('follows a post through edit, revision restore, delete, undelete and the end of its 30 days', async () => {
    const [a, b] = mediaRows(2, () => new Date(Date.now() + offset).toISOString());
    await server.instance.db.insertInto('media').values([a!, b!]).execute();
    const urlA = `/media/${a!.hash}-800x600.png`;
    const ogB = `https://example.test/media/${b!.hash}-og.jpg`;

    const created = await admin('/api/admin/posts', { method: 'POST', body: article('Usage through a life', urlA, ogB) });
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    const other = await admin('/api/admin/posts', { method: 'POST', body: article('Another post with the same image', urlA) });
    const otherId = (other.json as { id: string }).id;
    expect(await usesOf(a!.id)).toEqual(
      [
        { id, title: 'Usage through a life', field: 'featuredImage' },
        { id: otherId, title: 'Another post with the same image', field: 'featuredImage' },
      ].sort((x, y) => (x.id < y.id ? -1 : 1)),
    );
    expect(await usesOf(b!.id)).toEqual([{ id, title: 'Usage through a life', field: 'ogImage' }]);

    // Edit: the post's images change, and so do the uses (the title too).
    const current = async () => (await admin(`/api/admin/posts/${id}`)).json as { updatedAt: string };
    const edited = await admin(`/api/admin/posts/${id}`, {
      method: 'PUT',
      body: { ...article('Usage through a life, edited', `/media/${b!.hash}-800x600.png`), expectedUpdatedAt: (await current()).updatedAt },
    });
    expect(edited.status).toBe(200);
    expect(await usesOf(a!.id)).toEqual([{ id: otherId, title: 'Another post with the same image', field: 'featuredImage' }]);
    expect(await usesOf(b!.id)).toEqual([{ id, title: 'Usage through a life, edited', field: 'featuredImage' }]);

    // Restoring the first revision brings its images back.
    const revisions = (await admin(`/api/admin/posts/${id}/revisions`)).json as { revisions: Array<{ id: string; number: number }> };
    const first = revisions.revisions.find((r) => r.number === 1)!;
    const restored = await admin(`/api/admin/posts/${id}/revisions/${first.id}/restore`, { method: 'POST', body: { expectedUpdatedAt: (await current()).updatedAt } });
    expect(restored.status).toBe(200);
    expect((await usesOf(a!.id)).map((u) => [u.id, u.field])).toContainEqual([id, 'featuredImage']);
    expect(await usesOf(b!.id)).toEqual([{ id, title: 'Usage through a life', field: 'ogImage' }]);

    // Deleted, it can be restored for 30 days: it still uses its images, named deleted, and the guard holds.
    expect((await admin(`/api/admin/posts/${otherId}`, { method: 'DELETE' })).status).toBeLessThan(300);
    expect((await admin(`/api/admin/posts/${id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    expect(await usesOf(b!.id)).toEqual([{ id, title: 'Usage through a life', field: 'ogImage', deleted: true }]);
    expect((await admin(`/api/admin/media/${b!.id}`, { method: 'DELETE' })).json).toMatchObject({
      error: { code: 'media_in_use', message: expect.stringContaining('(deleted, can be restored for 30 days)') },
    });

    // Undeleted: an ordinary use again.
    expect((await admin(`/api/admin/posts/${id}/undelete`, { method: 'POST' })).status).toBe(201);
    expect(await usesOf(b!.id)).toEqual([{ id, title: 'Usage through a life', field: 'ogImage' }]);
    expect((await admin(`/api/admin/posts/${id}`, { method: 'DELETE' })).status).toBeLessThan(300);

    // 29 days on, still restorable; past 30, neither post holds its images any more, with no job having run.
    offset += 29 * DAY;
    cookie = await adminCookie(server);
    expect((await usesOf(a!.id)).map((u) => [u.id, u.deleted])).toEqual(
      [
        [id, true],
        [otherId, true],
      ].sort((x, y) => (x[0]! < y[0]! ? -1 : 1)),
    );
    offset += 1 * DAY + 60_000;
    cookie = await adminCookie(server);
    expect(await usesOf(a!.id)).toEqual([]);
    expect(await usesOf(b!.id)).toEqual([]);
    expect((await admin(`/api/admin/media/${b!.id}`, { method: 'DELETE' })).status).toBe(204);
  });
});

/*
 * The migration fills media_usage from what was stored before it: posts' image fields, and each deleted post's last
 * version (its delete revision) with the time it was deleted.
 */
describe.each(testBackends())('media usage backfill ($name)', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('backfills the uses of existing and deleted posts', async () => {
    const db = database.handle.db;
    await mediaUsageMigration.down!(db);
    const [h1, h2, h3] = [newHash(), newHash(), newHash()];
    const now = '2026-03-01T00:00:00.000Z';
    const post = (id: string, title: string, featured: string | null, og: string | null) => ({
      id,
      slug: id,
      title,
      excerpt: 'e',
      content: '<p>c</p>',
      keywords: '[]',
      author: 'Admin',
      category: 'AI Automation',
      category_slug: 'ai-automation',
      status: 'draft',
      featured_image: featured,
      og_image: og,
      read_time: 1,
      views: 0,
      meta_description: 'm',
      source: 'local',
      published_at: null,
      publish_at: null,
      created_at: now,
      updated_at: now,
    });
    await db
      .insertInto('blog_posts')
      .values([post('p-live', 'Live', `/media/${h1}-800x600.png`, `https://example.test/media/${h2}-og.jpg`), post('p-plain', 'Plain', '/images/blog/a.svg', null)])
      .execute();
    const revision = (postId: string, number: number, action: string, createdAt: string, snapshot: Record<string, unknown>) => ({
      id: `${postId}-r${number}`,
      post_id: postId,
      number,
      created_at: createdAt,
      action,
      author_kind: 'admin',
      author_label: 'Admin',
      changed_fields: '[]',
      restored_from: null,
      snapshot: JSON.stringify(snapshot),
    });
    await db
      .insertInto('blog_post_revisions')
      .values([
        revision('p-gone', 1, 'create', '2026-02-01T00:00:00.000Z', { title: 'Gone', featuredImage: `/media/${h1}-800x600.png`, ogImage: null }),
        revision('p-gone', 2, 'delete', '2026-02-20T00:00:00.000Z', { title: 'Gone', featuredImage: `/media/${h3}-800x600.png`, ogImage: null }),
        // Deleted, then restored: its post exists (p-live), so the delete is not its last word.
        revision('p-live', 1, 'delete', '2026-02-10T00:00:00.000Z', { title: 'Live', featuredImage: `/media/${h3}-800x600.png` }),
        revision('p-live', 2, 'undelete', '2026-02-11T00:00:00.000Z', { title: 'Live', featuredImage: `/media/${h1}-800x600.png` }),
      ])
      .execute();

    await mediaUsageMigration.up(db);
    const rows = await db.selectFrom('media_usage').selectAll().orderBy('post_id').orderBy('field').execute();
    expect(rows).toEqual([
      { post_id: 'p-gone', field: 'featuredImage', hash: h3, title: 'Gone', deleted_at: '2026-02-20T00:00:00.000Z' },
      { post_id: 'p-live', field: 'featuredImage', hash: h1, title: 'Live', deleted_at: null },
      { post_id: 'p-live', field: 'ogImage', hash: h2, title: 'Live', deleted_at: null },
    ]);
  });
});
