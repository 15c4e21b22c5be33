import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEDULE_MESSAGES } from '@site/contracts/post-schedule';
import { createPostsRepository } from '../posts-repository';
import { createJobRunner } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { postEntries, renderRss } from '../feeds';
import { createPostService, type PostService } from '../post-service';
import { createPostScheduler } from '../post-scheduler';

const valid = {
  title: 'Scheduled automation notes',
  excerpt: 'Notes written ahead and published on a schedule.',
  content: `<h2>Ahead</h2><p>${'Written ahead of time, published on time. '.repeat(8)}</p>`,
  author: 'Dana Lee',
  category: 'AI Automation',
  metaDescription: 'Notes written ahead of time and published by the server at the scheduled time.',
  keywords: ['schedule'],
};

/*
 * Scheduled publishing (issue 23) on each database: the schedule's validation, invisibility before its time, publishing
 * at the time exactly once however many instances find the post due together, and a time that passed while no server
 * ran. The clock is the test's: time moves when the test says so.
 */
describe.each(testBackends())('scheduled publishing ($name)', (backend) => {
  let database: TestDatabase;
  let now = new Date('2026-06-01T16:00:00.000Z');
  const clock = () => now;
  const tags: string[][] = [];
  const logLines: Array<{ msg: string; postId?: string; scheduledFor?: string }> = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void logLines.push(JSON.parse(line)) } });
  let service: PostService;
  /** The same database seen by other instances: each its own connection and service. */
  let others: PostService[];

  beforeAll(async () => {
    database = await backend.open();
    service = createPostService({ posts: createPostsRepository(database.handle.db), clock, logger, onContentChange: (t) => tags.push(t) });
    others = [];
    for (let i = 0; i < 3; i++) {
      const handle = await database.another();
      others.push(createPostService({ posts: createPostsRepository(handle.db), clock, logger }));
    }
  });
  afterAll(async () => {
    await database.dispose();
  });

  const publicEverywhere = async (slug: string) => {
    const listed = (await service.listPublished()).some((p) => p.slug === slug);
    const paged = (await service.pagePublished({ limit: 50 })).posts.some((p) => p.slug === slug);
    const searched = (await service.listPublished({ q: 'Scheduled automation' })).some((p) => p.slug === slug);
    const single = await service.getPublished(slug).then(
      () => true,
      () => false,
    );
    const rss = renderRss(await service.feed(50), { publicOrigin: 'https://site.test', title: 'Blog', description: 'Posts' }).includes(`/blog/${slug}`);
    const parts = await service.sitemapParts(10_000);
    const inSitemap = await Promise.all(parts.map(async (part) => postEntries(await service.sitemapPart(part.first, 10_000))));
    const sitemap = inSitemap.flat().some((e) => e.path.endsWith(`/blog/${slug}`));
    return { listed, paged, searched, single, rss, sitemap };
  };
  const nowhere = { listed: false, paged: false, searched: false, single: false, rss: false, sitemap: false };
  const everywhere = { listed: true, paged: true, searched: true, single: true, rss: true, sitemap: true };

  it('refuses a publishAt that is not ISO 8601 with an offset, in the past, or more than a year ahead, with messages that say so', async () => {
    const post = await service.create(valid);
    const cases: Array<[string, string]> = [
      ['2026-06-02 09:00', SCHEDULE_MESSAGES.format],
      ['2026-06-02T09:00:00', SCHEDULE_MESSAGES.format],
      ['2026-02-30T09:00:00-08:00', SCHEDULE_MESSAGES.format],
      ['tomorrow', SCHEDULE_MESSAGES.format],
      ['2026-06-01T08:59:00-07:00', SCHEDULE_MESSAGES.past],
      ['2027-06-02T09:00:00-07:00', SCHEDULE_MESSAGES.tooFar],
    ];
    for (const [publishAt, message] of cases) {
      await expect(service.schedule(post.id, publishAt), publishAt).rejects.toMatchObject({
        kind: 'invalid',
        message: expect.stringContaining(`Validation failed: ${message}`),
      });
    }
    // The past one names both times in the business's zone.
    await expect(service.schedule(post.id, '2026-06-01T08:59:00-07:00')).rejects.toMatchObject({
      message: 'Validation failed: publishAt must be in the future (got Mon, Jun 1, 2026, 8:59 AM PDT, now is Mon, Jun 1, 2026, 9:00 AM PDT)',
    });
    expect((await service.getById(post.id)).status).toBe('draft');
    await service.delete(post.id);
  });

  it('keeps a scheduled post out of every public list, feed and count until its time, then publishes it at that time', async () => {
    const post = await service.create({ ...valid, category: 'Industry Insights' });
    const scheduled = await service.schedule(post.id, '2026-06-01T09:30:00-07:00');
    expect(scheduled).toMatchObject({ status: 'scheduled', publishAt: '2026-06-01T16:30:00.000Z', publishedAt: null });
    expect(await publicEverywhere(post.slug)).toEqual(nowhere);
    const insights = (await service.listCategories()).find((c) => c.slug === 'industry-insights');
    expect(insights?.postCount).toBe(1);
    expect((await service.pageAll({ status: 'scheduled' })).posts.map((p) => p.id)).toEqual([post.id]);
    expect((await service.pageAll()).counts.scheduled).toBe(1);

    // A minute before: nothing happens.
    now = new Date('2026-06-01T16:29:00.000Z');
    expect(await service.publishDue()).toEqual([]);
    expect(await publicEverywhere(post.slug)).toEqual(nowhere);

    now = new Date('2026-06-01T16:30:02.000Z');
    tags.length = 0;
    const done = await service.publishDue();
    expect(done.map((p) => p.id)).toEqual([post.id]);
    expect(done[0]).toMatchObject({ status: 'published', publishedAt: '2026-06-01T16:30:00.000Z', publishAt: null });
    expect(await publicEverywhere(post.slug)).toEqual(everywhere);
    expect((await service.listCategories()).find((c) => c.slug === 'industry-insights')?.postCount).toBe(2);
    // The render cache was told: the post, the index and its category.
    expect(tags).toEqual([expect.arrayContaining([`post:${post.slug}`, 'posts:index', 'category:industry-insights'])]);
  });

  it('publishes a due post once when four instances look at the same moment, many times over', async () => {
    now = new Date('2026-06-02T16:00:00.000Z');
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const post = await service.create({ ...valid, title: `Race ${i} scheduled notes` });
      await service.schedule(post.id, `2026-06-02T16:0${1 + (i % 3)}:00Z`);
      ids.push(post.id);
    }
    now = new Date('2026-06-02T16:05:00.000Z');
    logLines.length = 0;
    const results = await Promise.all([service, ...others].flatMap((instance) => [instance.publishDue(), instance.publishDue()]));
    const published = results.flat().map((p) => p.id);
    expect(published.sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const history = await service.revisions(id);
      expect(history.revisions.filter((r) => r.action === 'publish'), id).toHaveLength(1);
      expect(history.revisions[0]).toMatchObject({ action: 'publish', author: { kind: 'schedule', label: 'Scheduled publishing' } });
    }
    expect(logLines.filter((l) => l.msg === 'post.published').map((l) => l.postId).sort()).toEqual([...ids].sort());
  });

  it('publishes at start a post whose time passed while no server ran, with publishedAt its scheduled time', async () => {
    now = new Date('2026-06-03T10:00:00.000Z');
    const post = await service.create({ ...valid, title: 'Published while the server was down' });
    await service.schedule(post.id, '2026-06-03T10:01:00Z');
    // "Down" for an hour: the next process starts its scheduler, which looks at once.
    now = new Date('2026-06-03T11:00:00.000Z');
    const jobs = createJobRunner({ clock, logger: createLogger({ level: 'silent' }) });
    const scheduler = createPostScheduler({ posts: others[0]!, logger: createLogger({ level: 'silent' }), jobs, pollMs: 60_000 });
    jobs.start();
    await scheduler.check();
    await jobs.stop();
    expect(await service.getById(post.id)).toMatchObject({ status: 'published', publishedAt: '2026-06-03T10:01:00.000Z' });
  });

  it('unschedules back to draft, publishes a scheduled post now, and moves a schedule', async () => {
    now = new Date('2026-06-04T10:00:00.000Z');
    const a = await service.create({ ...valid, title: 'Unscheduled again later' });
    await service.schedule(a.id, '2026-06-05T10:00:00Z');
    expect(await service.unschedule(a.id)).toMatchObject({ status: 'draft', publishAt: null });
    await expect(service.unschedule(a.id)).rejects.toMatchObject({ kind: 'conflict', message: SCHEDULE_MESSAGES.notScheduled });

    const b = await service.create({ ...valid, title: 'Published now instead' });
    await service.schedule(b.id, '2026-06-05T10:00:00Z');
    const moved = await service.schedule(b.id, '2026-06-06T10:00:00Z');
    expect(moved.publishAt).toBe('2026-06-06T10:00:00.000Z');
    expect(await service.publish(b.id)).toMatchObject({ status: 'published', publishedAt: '2026-06-04T10:00:00.000Z', publishAt: null });
    await expect(service.schedule(b.id, '2026-06-07T10:00:00Z')).rejects.toMatchObject({ kind: 'conflict', message: SCHEDULE_MESSAGES.onlyDraftsOrScheduled });
    // Nothing is left for the scheduler: a published post is not published again at its old time.
    now = new Date('2026-06-07T10:00:00.000Z');
    expect((await service.publishDue()).map((p) => p.id)).not.toContain(b.id);
  });
});
