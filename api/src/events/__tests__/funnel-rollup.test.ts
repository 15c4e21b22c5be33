import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner, type JobTimers } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { createLeasesRepository } from '../../db/leases-repository';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createRetentionRepository } from '../../retention/retention-repository';
import { createRetentionService } from '../../retention/retention-service';
import { createFunnelRepository } from '../funnel-repository';
import { createFunnelService } from '../funnel-service';

/*
 * The funnel reads daily aggregates for the complete days the retention job rolled up and raw events for the rest
 * (today, a day not rolled up yet). Whatever is rolled up, the owner sees the same figures as from raw events alone:
 * totals, days, top pages, referrer classes; a day rolled up twice changes nothing; an event stored today shows at once.
 */

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const TODAY = Date.parse('2026-11-27T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const handTimers: JobTimers = { set: () => undefined, clear: () => undefined };
const REFERRERS = ['{"referrer":"search"}', '{"referrer":"social"}', '{"referrer":"direct"}', '{"referrer":"internal"}', '{"referrer":"other"}', null];
const NAMES = ['page_view', 'page_view', 'page_view', 'analysis_started', 'analysis_completed', 'analysis_error', 'contact_submitted', 'scroll_depth'];

for (const backend of testBackends()) {
  describe(`funnel from rolled-up days and raw events (${backend.name})`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await backend.open();
    });
    afterAll(async () => {
      await database?.dispose();
    });

    let seq = 0;
    const event = (at: number, name: string, path: string, props: string | null) => ({ id: `ev-${(seq += 1)}`, name, path, props, at: iso(at), received_at: iso(at) });
    const insert = async (rows: ReturnType<typeof event>[]) => {
      for (let i = 0; i < rows.length; i += 200) await database.handle.db.insertInto('events').values(rows.slice(i, i + 200)).execute();
    };
    const summary = () => createFunnelService({ funnel: createFunnelRepository(database.handle.db), clock: () => new Date(NOW) }).summary();
    const dailyRows = () => database.handle.db.selectFrom('event_daily').select(['day', 'name', 'path', 'props', 'count']).orderBy('day').orderBy('name').orderBy('path').orderBy('props').execute();
    const rawCount = async () => Number((await database.handle.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

    it('gives the same figures with every complete day rolled up, some, a day twice, and with today read raw', async () => {
      const db = database.handle.db;
      // 36 days up to now, several events a day at odd times, paths that tie, a browser's `at` a little ahead.
      await insert(
        Array.from({ length: 1_500 }, (_, i) => {
          const name = NAMES[i % NAMES.length]!;
          const at = NOW - (i % 36) * DAY - ((i * 7919) % (DAY / 2));
          return event(at, name, name === 'page_view' ? `/page-${(i * 31) % 17}` : '/free-analysis', name === 'page_view' ? REFERRERS[i % REFERRERS.length]! : '{"x":1}');
        }).concat([event(NOW + 60_000, 'page_view', '/ahead', '{"referrer":"direct"}')]),
      );
      const total = await rawCount();
      const fromRaw = await summary();
      expect(fromRaw.windows[1]!.pageViews).toBeGreaterThan(0);

      // Some days rolled up, with holes between them.
      const repository = createRetentionRepository(db);
      for (const ago of [3, 4, 9, 20, 29]) expect(await repository.rollUpEventDay(iso(TODAY - ago * DAY).slice(0, 10), iso(NOW))).toBeGreaterThan(0);
      expect(await summary()).toEqual(fromRaw);

      // The job: every complete day, the raw events kept (90 days).
      const jobs = createJobRunner({ clock: () => new Date(NOW), logger: createLogger({ level: 'silent' }), leases: createLeasesRepository(db), instance: 'a', timers: handTimers });
      const retention = createRetentionService({ repository, logger: createLogger({ level: 'silent' }), jobs });
      jobs.start();
      try {
        await retention.runNow();
      } finally {
        await jobs.stop();
      }
      const listed = (await db.selectFrom('event_days_rolled').select('day').orderBy('day').execute()).map((d) => d.day);
      expect(listed).toEqual(Array.from({ length: 35 }, (_, i) => iso(TODAY - (35 - i) * DAY).slice(0, 10)));
      expect(await rawCount()).toBe(total);
      const rolled = await dailyRows();
      expect(rolled.reduce((n, r) => n + Number(r.count), 0)).toBe(Number((await db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).where('at', '<', iso(TODAY)).executeTakeFirstOrThrow()).n));
      const service = createFunnelService({ funnel: createFunnelRepository(db), clock: () => new Date(NOW) });
      expect(await service.summary()).toEqual(fromRaw);

      // A day rolled up twice: the same rows, the same figures.
      expect(await repository.rollUpEventDay(iso(TODAY - 5 * DAY).slice(0, 10), iso(NOW + 1))).toBeGreaterThan(0);
      expect(await dailyRows()).toEqual(rolled);
      expect(await service.summary()).toEqual(fromRaw);

      // Today's events show at once (the same service, its rolled-up part kept): a new path takes the top. The contact
      // step is the leads stored, not the browser's contact_submitted events: a stored lead counts, an event does not.
      await insert(Array.from({ length: 100 }, () => event(NOW - 60_000, 'page_view', '/new-today', '{"referrer":"social"}')).concat([event(NOW - 60_000, 'contact_submitted', '/contact', null)]));
      await db
        .insertInto('contact_messages')
        .values({ id: 'lead-today', created_at: iso(NOW - 60_000), ip_hash: 'h', user_agent: null, name: 'Ada', email: 'ada@example.com', company: null, subject: null, message: 'Hello', mail_status: 'disabled', mail_attempts: 0, mail_next_attempt_at: null, mail_last_error: null, mail_sent_at: null })
        .execute();
      const after = await service.summary();
      for (const [i, before] of fromRaw.windows.entries()) {
        const now = after.windows[i]!;
        expect(now.pageViews).toBe(before.pageViews + 100);
        expect(now.contactSubmits).toBe(before.contactSubmits + 1);
        expect(now.referrers.social).toBe(before.referrers.social + 100);
        expect(now.topPages[0]).toEqual({ path: '/new-today', views: 100 });
        expect(now.topPages.slice(1)).toEqual(before.topPages.slice(0, 9));
        expect(now.daily.at(-1)!.pageViews).toBe(before.daily.at(-1)!.pageViews + 100);
        expect(now.daily.at(-1)!.contactSubmits).toBe(before.daily.at(-1)!.contactSubmits + 1);
      }
      expect(after).toEqual(await summary());
    });

    it('deletes raw events only past the retention, and the figures stay', async () => {
      const db = database.handle.db;
      const before = await summary();
      const jobs = createJobRunner({ clock: () => new Date(NOW), logger: createLogger({ level: 'silent' }), leases: createLeasesRepository(db), instance: 'b', timers: handTimers });
      const retention = createRetentionService({ repository: createRetentionRepository(db), logger: createLogger({ level: 'silent' }), jobs, rules: { eventDays: 7 } });
      jobs.start();
      try {
        await retention.runNow();
      } finally {
        await jobs.stop();
      }
      const oldest = await db.selectFrom('events').select('at').orderBy('at').limit(1).executeTakeFirstOrThrow();
      expect(oldest.at >= iso(TODAY - 7 * DAY)).toBe(true);
      expect(await summary()).toEqual(before);
    });
  });
}
