import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@site/contracts/admin';
import { createPostsRepository } from '../posts-repository';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createPostService, type PostService } from '../post-service';
import { DELETED_POST_NOT_FOUND } from '../post-history';

const valid = {
  title: 'First title of a revised post',
  excerpt: 'An excerpt that will change over a few saves.',
  content: `<h2>Version one</h2><p>${'The first words of this post, as first written. '.repeat(5)}</p>`,
  author: 'Dana Lee',
  category: 'AI Automation',
  metaDescription: 'A post whose history is kept: every save is a revision the owner can restore.',
  keywords: ['history'],
};

/*
 * Revision history (issue 23) on each database: every save is an immutable revision with who, when and what changed;
 * a restore is a new revision equal to the old one (the sanitizer runs again, the status stays); deleted posts keep
 * their history 30 days and can be brought back.
 */
describe.each(testBackends())('post revisions ($name)', (backend) => {
  let database: TestDatabase;
  let now = new Date('2026-07-01T10:00:00.000Z');
  const clock = () => now;
  const tick = () => (now = new Date(now.getTime() + 60_000));
  let service: PostService;

  beforeAll(async () => {
    database = await backend.open();
    service = createPostService({ posts: createPostsRepository(database.handle.db), clock });
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('brings every post that existed before history was kept in with one revision', async () => {
    const seeded = await service.listPublished();
    expect(seeded.length).toBeGreaterThan(0);
    for (const post of seeded) {
      const { revisions, total } = await service.revisions(post.id);
      expect(total).toBe(1);
      expect(revisions[0]).toMatchObject({ number: 1, action: 'import', author: { kind: 'system' }, title: post.title, status: 'published' });
      const full = await service.revision(post.id, revisions[0]!.id);
      expect(full.post.content).toBe((await service.getById(post.id)).content);
    }
  });

  it('stores a revision for each save with author, time and changed fields, newest first, paginated', async () => {
    const post = await service.create(valid, { actor: { kind: 'admin' } });
    tick();
    const v2 = await service.update(post.id, { ...valid, title: 'Second title of a revised post' });
    tick();
    const v3 = await service.update(post.id, { ...valid, title: 'Second title of a revised post', excerpt: 'An excerpt that changed on the third save.' });
    tick();
    await service.update(post.id, { ...valid, title: 'Third title of a revised post', excerpt: v3.excerpt, content: valid.content.replace('first written', 'rewritten') });
    tick();
    await service.publish(post.id);

    const { revisions, total } = await service.revisions(post.id);
    expect(total).toBe(5);
    expect(revisions.map((r) => [r.number, r.action, r.changedFields])).toEqual([
      [5, 'publish', ['status', 'publishedAt']],
      [4, 'update', ['title', 'content']],
      [3, 'update', ['excerpt']],
      [2, 'update', ['title']],
      [1, 'create', expect.arrayContaining(['title', 'excerpt', 'content', 'status'])],
    ]);
    expect(revisions[1]).toMatchObject({ author: { kind: 'admin', label: 'Admin' }, createdAt: '2026-07-01T10:03:00.000Z', title: 'Third title of a revised post' });
    expect(v2.title).toBe('Second title of a revised post');

    const page2 = await service.revisions(post.id, { page: '2', limit: '2' });
    expect(page2.revisions.map((r) => r.number)).toEqual([3, 2]);
    await expect(service.revisions(post.id, { limit: '0' })).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('restores a version as a new revision: the post stays published, history is never rewritten, a stale version is a conflict', async () => {
    const post = (await service.listAll({ q: 'revised post' })).find((p) => p.status === 'published')!;
    const { revisions } = await service.revisions(post.id);
    const first = revisions.at(-1)!;
    const current = await service.getById(post.id);

    await expect(service.restoreRevision(post.id, first.id, { expectedUpdatedAt: '2026-01-01T00:00:00.000Z' })).rejects.toMatchObject({
      kind: 'conflict',
      message: ADMIN_MESSAGES.postConflict,
      details: { current: expect.objectContaining({ id: post.id, updatedAt: current.updatedAt }) },
    });

    tick();
    const restored = await service.restoreRevision(post.id, first.id, { expectedUpdatedAt: current.updatedAt });
    expect(restored).toMatchObject({ title: valid.title, excerpt: valid.excerpt, status: 'published', slug: post.slug, publishedAt: current.publishedAt });
    expect(restored.content).toContain('as first written');
    expect((await service.getPublished(post.slug)).title).toBe(valid.title);

    const after = await service.revisions(post.id);
    expect(after.total).toBe(6);
    expect(after.revisions[0]).toMatchObject({ number: 6, action: 'restore', restoredFrom: 1, changedFields: ['title', 'excerpt', 'content'] });
    // The old revisions are as they were.
    expect(after.revisions.slice(1).map((r) => r.id)).toEqual(revisions.map((r) => r.id));
    await expect(service.revision(post.id, 'no-such-revision')).rejects.toMatchObject({ kind: 'not_found', message: 'Revision not found' });
  });

  it('runs the sanitizer again on restore: HTML stored before a stricter sanitizer is cleaned', async () => {
    const post = await service.create({ ...valid, title: 'Restored through the sanitizer' });
    const [revision] = (await service.revisions(post.id)).revisions;
    // A revision written by an older version of the site, whose sanitizer let an event handler through.
    const unsafe = `<p onclick="alert(1)">${'Old words kept in an old revision. '.repeat(5)}</p><script>alert(2)</script>`;
    const row = await database.handle.db.selectFrom('blog_post_revisions').select('snapshot').where('id', '=', revision!.id).executeTakeFirstOrThrow();
    await database.handle.db
      .updateTable('blog_post_revisions')
      .set({ snapshot: JSON.stringify({ ...JSON.parse(row.snapshot), content: unsafe }) })
      .where('id', '=', revision!.id)
      .execute();
    tick();
    const restored = await service.restoreRevision(post.id, revision!.id, { expectedUpdatedAt: post.updatedAt });
    expect(restored.content).toContain('Old words kept in an old revision.');
    expect(restored.content).not.toMatch(/onclick|<script/);
  });

  it('keeps a deleted post 30 days: listed, its history readable, restored as a draft (a new slug if its own was taken)', async () => {
    const post = await service.create({ ...valid, title: 'Deleted by mistake today' });
    await service.publish(post.id);
    tick();
    await service.delete(post.id);
    await expect(service.getById(post.id)).rejects.toMatchObject({ kind: 'not_found' });
    const deleted = await service.listDeleted();
    expect(deleted[0]).toMatchObject({ id: post.id, title: 'Deleted by mistake today', status: 'published', purgeAt: '2026-07-31T10:07:00.000Z' });
    expect((await service.revisions(post.id)).revisions[0]).toMatchObject({ action: 'delete', author: { label: 'Admin' } });

    // Its address is taken by a new post meanwhile.
    const taker = await service.create({ ...valid, title: 'Deleted by mistake today' });
    expect(taker.slug).toBe(post.slug);
    tick();
    const back = await service.undelete(post.id);
    expect(back).toMatchObject({ id: post.id, title: 'Deleted by mistake today', status: 'draft', slug: `${post.slug}-2` });
    expect((await service.revisions(post.id)).revisions[0]).toMatchObject({ action: 'undelete', number: 4 });
    expect((await service.listDeleted()).map((p) => p.id)).not.toContain(post.id);
    await expect(service.undelete(post.id)).rejects.toMatchObject({ kind: 'not_found', message: DELETED_POST_NOT_FOUND });
  });

  it('forgets a deleted post after 30 days: not listed, not restorable, its revisions purged', async () => {
    const post = await service.create({ ...valid, title: 'Deleted for good after a month' });
    await service.delete(post.id);
    expect((await service.listDeleted()).map((p) => p.id)).toContain(post.id);
    expect(await service.purgeDeleted()).toBe(0);

    now = new Date(now.getTime() + 31 * 24 * 60 * 60 * 1000);
    expect((await service.listDeleted()).map((p) => p.id)).not.toContain(post.id);
    await expect(service.undelete(post.id)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await service.purgeDeleted()).toBeGreaterThanOrEqual(1);
    await expect(service.revisions(post.id)).rejects.toMatchObject({ kind: 'not_found' });
    // Live posts keep their history.
    const live = (await service.listAll({ q: 'revised post' }))[0]!;
    expect((await service.revisions(live.id)).total).toBe(6);
  });
});
