import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLACEHOLDER_IMAGE } from '@site/contracts/posts';
import { createPostsRepository } from '../posts-repository';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createPostService, type PostService } from '../post-service';

const valid = {
  title: 'Automating Appointment Reminders',
  excerpt: 'How reminders cut no-shows for a local salon.',
  content: `<h2>Why</h2><p>${'Reminder text that is long enough. '.repeat(10)}</p>`,
  author: 'Dana Lee',
  category: 'How-To Guides',
  metaDescription: 'A practical guide to automated appointment reminders for small businesses.',
  keywords: ['reminders', 'no-shows'],
};

const ALL_MESSAGES =
  'Validation failed: Title must be at least 5 characters long, Excerpt must be at least 20 characters long, ' +
  'Content must be at least 100 characters long, Author name must be at least 2 characters long, ' +
  'Category must be at least 2 characters long, Meta description must be at least 50 characters long';

describe.each(testBackends())('post service ($name)', (backend) => {
  let database: TestDatabase;
  let service: PostService;
  let now = new Date('2026-03-01T10:00:00.000Z');
  const clock = () => now;

  beforeAll(async () => {
    database = await backend.open();
    service = createPostService({ posts: createPostsRepository(database.handle.db), clock });
  });
  afterAll(async () => {
    await database.dispose();
  });

  const counts = async () => Object.fromEntries((await service.listCategories()).map((c) => [c.name, c.postCount]));

  it('seeds three published January 2024 posts with the spec views, and three categories with one post each', async () => {
    const posts = await service.listPublished();
    expect(posts.map((p) => [p.category, p.views])).toEqual([
      ['AI Automation', 1250],
      ['Case Studies', 890],
      ['Industry Insights', 1100],
    ]);
    for (const p of posts) {
      expect(p.publishedAt!.startsWith('2024-01')).toBe(true);
      expect(p.featuredImage).toBe(PLACEHOLDER_IMAGE);
      expect(p.ogImage).toBe(PLACEHOLDER_IMAGE);
      expect(p.readTime).toBeGreaterThanOrEqual(2);
    }
    const full = await service.getPublished(posts[0]!.slug);
    expect(full.content).toContain('<h2>');
    expect(full.content).toContain('<ul>');
    expect(await counts()).toEqual({ 'AI Automation': 1, 'Case Studies': 1, 'Industry Insights': 1 });
  });

  it('answers the exact validation sentence after trimming', async () => {
    await expect(
      service.create({ title: ' abcd ', excerpt: ' x ', content: ' y ', author: ' a ', category: ' b ', metaDescription: ' c ' }),
    ).rejects.toMatchObject({ kind: 'invalid', code: 'validation_failed', message: ALL_MESSAGES });
    await expect(service.create({})).rejects.toMatchObject({ message: ALL_MESSAGES });
    await expect(service.create({ ...valid, title: '    Hi     ' })).rejects.toMatchObject({
      message: 'Validation failed: Title must be at least 5 characters long',
    });
    // Content that sanitizes to almost nothing is too short.
    await expect(service.create({ ...valid, content: `<script>${'x'.repeat(200)}</script><p>hi</p>` })).rejects.toMatchObject({
      message: 'Validation failed: Content must be at least 100 characters long',
    });
  });

  it('creates drafts with a slug, read time and source local; clashes get -2, -3', async () => {
    const a = await service.create({ ...valid, status: 'published' });
    const b = await service.create(valid);
    const c = await service.create(valid);
    expect([a.slug, b.slug, c.slug]).toEqual([
      'automating-appointment-reminders',
      'automating-appointment-reminders-2',
      'automating-appointment-reminders-3',
    ]);
    expect(a).toMatchObject({ status: 'draft', source: 'local', publishedAt: null, views: 0, readTime: 1, keywords: ['reminders', 'no-shows'] });
    const long = await service.create({ ...valid, title: 'A long article here', content: `<p>${'word '.repeat(401)}</p>` });
    expect(long.readTime).toBe(3);
    // Drafts are not public.
    await expect(service.getPublished(a.slug)).rejects.toMatchObject({ kind: 'not_found', message: 'Post not found' });
    expect((await service.listPublished()).some((p) => p.slug === a.slug)).toBe(false);
  });

  it('lets an import carry its status', async () => {
    const p = await service.create({ ...valid, title: 'Imported from n8n', status: 'published' }, { source: 'n8n', allowStatus: true });
    expect(p).toMatchObject({ status: 'published', source: 'n8n', publishedAt: now.toISOString() });
    expect((await service.getPublished(p.slug)).id).toBe(p.id);
  });

  it('sanitizes HTML on create and update', async () => {
    const p = await service.create({ ...valid, title: 'Sanitized post', content: `${valid.content}<img src=x onerror=alert(1)><script>alert(1)</script><a href="javascript:alert(1)">x</a>` });
    expect(p.content).not.toMatch(/script|onerror|javascript:/i);
    const u = await service.update(p.id, { ...valid, title: 'Sanitized post', content: `${valid.content}<iframe src="https://evil.example"></iframe><svg onload=alert(1)>` });
    expect(u.content).not.toMatch(/iframe|svg|onload/i);
  });

  it('moves one count when a post changes category; derived counts never drift; drafts are not counted', async () => {
    const before = await counts();
    const p = await service.create({ ...valid, title: 'Category mover', category: 'Case Studies' });
    // A draft is nobody's to read yet: no count, and a category of drafts only is not listed.
    const draftOnly = await service.create({ ...valid, title: 'Draft in a new category', category: 'Drafts Only' });
    expect(await counts()).toEqual(before);
    await service.delete(draftOnly.id);
    await service.publish(p.id);
    expect((await counts())['Case Studies']).toBe(before['Case Studies']! + 1);
    await service.update(p.id, { ...valid, title: 'Category mover', category: 'Industry Insights' });
    const after = await counts();
    expect(after['Case Studies']).toBe(before['Case Studies']);
    expect(after['Industry Insights']).toBe(before['Industry Insights']! + 1);
    await service.delete(p.id);
    expect((await counts())['Industry Insights']).toBe(before['Industry Insights']);
  });

  it('publishes drafts only: status, updatedAt, publishedAt filled only when missing', async () => {
    const draft = await service.create({ ...valid, title: 'To be published' });
    now = new Date('2026-03-02T08:00:00.000Z');
    const published = await service.publish(draft.id);
    expect(published).toMatchObject({ status: 'published', updatedAt: now.toISOString(), publishedAt: now.toISOString() });
    await expect(service.publish(draft.id)).rejects.toMatchObject({ kind: 'conflict', message: 'Only drafts and scheduled posts can be published' });
    // Back to draft (an import may carry a status), then published again: the first publication date stays.
    await service.update(draft.id, { ...valid, title: 'To be published', status: 'draft' });
    now = new Date('2026-03-03T08:00:00.000Z');
    const again = await service.publish(draft.id);
    expect(again).toMatchObject({ updatedAt: now.toISOString(), publishedAt: '2026-03-02T08:00:00.000Z' });
  });

  it('refuses an update whose expectedUpdatedAt is stale, storing nothing', async () => {
    const p = await service.create({ ...valid, title: 'Edited in two tabs' });
    now = new Date('2026-03-04T08:00:00.000Z');
    const first = await service.update(p.id, { ...valid, title: 'First tab wins' }, { expectedUpdatedAt: p.updatedAt });
    await expect(service.update(p.id, { ...valid, title: 'Second tab loses' }, { expectedUpdatedAt: p.updatedAt })).rejects.toMatchObject({
      kind: 'conflict',
      details: { current: { title: 'First tab wins', updatedAt: first.updatedAt } },
    });
    expect((await service.getById(p.id)).title).toBe('First tab wins');
  });

  it("answers 'Post not found' for an unknown id on update, delete and publish", async () => {
    const id = '00000000-0000-0000-0000-000000000000';
    await expect(service.update(id, valid)).rejects.toMatchObject({ kind: 'not_found', message: 'Post not found' });
    await expect(service.delete(id)).rejects.toMatchObject({ kind: 'not_found', message: 'Post not found' });
    await expect(service.publish(id)).rejects.toMatchObject({ kind: 'not_found', message: 'Post not found' });
  });

  it('resolves ogImage: its own, then the featured image, then the placeholder', async () => {
    const own = await service.create({ ...valid, title: 'Own og image', featuredImage: 'https://img.example/f.png', ogImage: 'https://img.example/o.png' });
    const featured = await service.create({ ...valid, title: 'Featured only', featuredImage: 'https://img.example/f.png' });
    const none = await service.create({ ...valid, title: 'No images at all' });
    expect([own.ogImage, featured.ogImage, none.ogImage]).toEqual(['https://img.example/o.png', 'https://img.example/f.png', PLACEHOLDER_IMAGE]);
  });

  it('searches title, excerpt and category, filters by category slug, newest first', async () => {
    expect((await service.listPublished({ q: 'RESTAURANT' })).map((p) => p.category)).toEqual(['Case Studies']);
    expect((await service.listPublished({ q: 'industry insights' })).map((p) => p.category)).toEqual(['Industry Insights']);
    expect((await service.listPublished({ q: '100%_' }))).toEqual([]);
    expect((await service.listPublished({ category: 'ai-automation' })).map((p) => p.category)).toEqual(['AI Automation']);
    const all = await service.listPublished();
    const dates = all.map((p) => p.publishedAt!);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('pages the published posts with an opaque cursor: the pages join up to the full list, ties included', async () => {
    // Three posts published in the same instant: only the tie-breakers order them.
    const tied = new Date('2026-03-05T09:00:00.000Z');
    const saved = now;
    now = tied;
    for (const title of ['Tie one for paging', 'Tie two for paging', 'Tie three for paging']) {
      await service.create({ ...valid, title, category: 'Paging Tests', status: 'published' }, { allowStatus: true });
    }
    now = saved;
    const all = await service.listPublished();
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await service.pagePublished({ limit: 2, cursor });
      expect(page.total).toBe(all.length);
      expect(page.posts.length).toBeLessThanOrEqual(2);
      seen.push(...page.posts.map((p) => p.slug));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 50);
    expect(seen).toEqual(all.map((p) => p.slug));
    expect(pages).toBe(Math.ceil(all.length / 2));

    // Filters apply to the page and to total; a category is found by name or by slug.
    const byName = await service.pagePublished({ category: 'Paging Tests', limit: 2 });
    const bySlug = await service.pagePublished({ category: 'paging-tests', limit: 2 });
    expect(byName).toEqual(bySlug);
    expect(byName.total).toBe(3);
    expect(byName.posts.map((p) => p.title)).toEqual(all.filter((p) => p.category === 'Paging Tests').slice(0, 2).map((p) => p.title));
    const rest = await service.pagePublished({ category: 'Paging Tests', limit: 2, cursor: byName.nextCursor! });
    expect(rest.posts).toHaveLength(1);
    expect(rest.nextCursor).toBeNull();
    const searched = await service.pagePublished({ q: 'TIE TWO' });
    expect([searched.total, searched.posts.map((p) => p.title)]).toEqual([1, ['Tie two for paging']]);
    expect((await service.pagePublished({})).posts).toHaveLength(Math.min(12, all.length));
  });

  it('refuses a bad page size or a cursor it did not issue as invalid input', async () => {
    await expect(service.pagePublished({ limit: 51 })).rejects.toMatchObject({ kind: 'invalid', code: 'validation_failed' });
    await expect(service.pagePublished({ limit: 0 })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(service.pagePublished({ limit: 'ten' })).rejects.toMatchObject({ kind: 'invalid' });
    for (const cursor of ['not-a-cursor', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('[1,2,3]').toString('base64url')]) {
      await expect(service.pagePublished({ cursor })).rejects.toMatchObject({ kind: 'invalid', code: 'invalid_cursor' });
    }
  });

  it('pages every post for the admin by page number in SQL: pages join up to the full list, counts per status ignore the filter', async () => {
    // One archived post (no form sets that status), so every count is exercised.
    const repository = createPostsRepository(database.handle.db);
    const archived = await service.create({ ...valid, title: 'Archived for the admin list' });
    const stored = (await repository.findById(archived.id))!;
    expect(await repository.update({ ...stored, status: 'archived' })).toBe(true);

    const all = await service.listAll();
    const expectedCounts = { draft: 0, scheduled: 0, published: 0, archived: 0 };
    for (const p of all) expectedCounts[p.status]++;
    expect(expectedCounts.archived).toBe(1);

    const seen: string[] = [];
    const pages: string[][] = [];
    let answer = await service.pageAll({ limit: 3 });
    expect(answer.prevCursor).toBeNull();
    for (;;) {
      expect({ total: answer.total, limit: answer.limit, counts: answer.counts }).toEqual({ total: all.length, limit: 3, counts: expectedCounts });
      expect(answer.posts.length).toBe(Math.min(3, all.length - seen.length));
      for (const p of answer.posts) expect(p).not.toHaveProperty('content');
      seen.push(...answer.posts.map((p) => p.id));
      pages.push(answer.posts.map((p) => p.id));
      if (!answer.nextCursor) break;
      answer = await service.pageAll({ limit: 3, cursor: answer.nextCursor });
    }
    // The same order as the full list (newest first, ties broken alike), nothing skipped or repeated.
    expect(seen).toEqual(all.map((p) => p.id));
    // And back, newer page by newer page, to the newest (which has no prevCursor).
    const back: string[][] = [pages[pages.length - 1]!];
    while (answer.prevCursor) {
      answer = await service.pageAll({ limit: 3, cursor: answer.prevCursor });
      back.unshift(answer.posts.map((p) => p.id));
    }
    expect(back).toEqual(pages);

    // Search and status filter the page and total, never the counts; defaults are the newest 50.
    const firstDrafts = await service.pageAll({ status: 'draft', limit: 2 });
    const drafts = await service.pageAll({ status: 'draft', limit: 2, cursor: firstDrafts.nextCursor ?? undefined });
    const allDrafts = await service.listAll({ status: 'draft' });
    expect([drafts.total, drafts.posts.map((p) => p.id), drafts.counts]).toEqual([allDrafts.length, allDrafts.slice(2, 4).map((p) => p.id), expectedCounts]);
    const searched = await service.pageAll({ q: 'ARCHIVED FOR THE ADMIN' });
    expect([searched.total, searched.posts.map((p) => p.status), searched.limit, searched.nextCursor]).toEqual([1, ['archived'], 50, null]);
    expect((await service.pageAll({ q: '100%_' })).total).toBe(0);

    await expect(service.pageAll({ limit: 101 })).rejects.toMatchObject({ kind: 'invalid', code: 'validation_failed' });
    await expect(service.pageAll({ cursor: 'bm9wZQ' })).rejects.toMatchObject({ kind: 'invalid', code: 'invalid_cursor' });
    await expect(service.pageAll({ q: 'archived', cursor: firstDrafts.nextCursor ?? 'x' })).rejects.toMatchObject({ code: 'invalid_cursor' });
    await service.delete(archived.id);
  });

  it('counts views of published posts only', async () => {
    const [first] = await service.listPublished({ category: 'case-studies' });
    expect(await service.addView(first!.slug)).toBe(first!.views + 1);
    const draft = await service.create({ ...valid, title: 'Unseen draft' });
    await expect(service.addView(draft.slug)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
