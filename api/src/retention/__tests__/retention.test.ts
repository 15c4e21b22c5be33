import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner, type JobTimers } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { createLeasesRepository } from '../../db/leases-repository';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createRetentionRepository } from '../retention-repository';
import { createRetentionService, RETENTION_BATCH } from '../retention-service';
import { createFunnelRepository } from '../../events/funnel-repository';
import { createFunnelService } from '../../events/funnel-service';
import { createAnalysesRepository } from '../../analysis/analyses-repository';
import { createAnalysisService } from '../../analysis/analysis-service';

/*
 * Retention keeps what it promises and deletes the rest: finished outgoing webhook deliveries (with their attempts)
 * after 30 days, a delivery still being retried whatever its age, admin sessions past 24 hours of age or inactivity.
 * It deletes in batches (more rows than one batch are all gone after one run) and runs on one instance of many.
 */

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
/** Timers that never fire by themselves: the test kicks the job. */
const handTimers: JobTimers = { set: () => undefined, clear: () => undefined };

for (const backend of testBackends()) {
  describe(`retention (${backend.name})`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await backend.open();
    });
    afterAll(async () => {
      await database?.dispose();
    });

    const runner = (instance: string, results: string[] = []) =>
      createJobRunner({
        clock: () => new Date(NOW),
        logger: createLogger({ level: 'silent' }),
        leases: createLeasesRepository(database.handle.db),
        instance,
        timers: handTimers,
        observe: (kind, result) => results.push(`${kind}:${result}`),
      });

    it('deletes finished deliveries past 30 days with their attempts, keeps the rest, and expired sessions', async () => {
      const db = database.handle.db;
      await db
        .insertInto('outgoing_webhook_endpoints')
        .values({ id: 'e1', url: 'http://127.0.0.1:9/hook', description: '', events: '["lead.created"]', enabled: 1, secret: 's', disabled_reason: null, failing_since: null, created_at: iso(NOW - 90 * DAY), updated_at: iso(NOW - 90 * DAY) })
        .execute();
      const delivery = (id: string, ageDays: number, status: 'pending' | 'delivered' | 'failed') => ({
        id,
        endpoint_id: 'e1',
        event_id: `ev-${id}`,
        event_type: 'lead.created',
        payload: '{}',
        created_at: iso(NOW - ageDays * DAY),
        status,
        attempts: 1,
        next_attempt_at: status === 'pending' ? iso(NOW + 60_000) : null,
        last_attempt_at: iso(NOW - ageDays * DAY),
        response_status: 200,
        latency_ms: 5,
        response_excerpt: null,
        delivered_at: status === 'delivered' ? iso(NOW - ageDays * DAY) : null,
        redelivery_of: null,
        request_id: null,
      });
      // More old finished deliveries than one batch, so the run must loop; and the ones it must keep.
      const old = Array.from({ length: RETENTION_BATCH + 20 }, (_, i) => delivery(`old-${i}`, 31 + (i % 5), i % 2 ? 'failed' : 'delivered'));
      const kept = [delivery('recent', 29, 'delivered'), delivery('retrying', 45, 'pending')];
      for (let i = 0; i < old.length; i += 100) await db.insertInto('outgoing_webhook_deliveries').values(old.slice(i, i + 100)).execute();
      await db.insertInto('outgoing_webhook_deliveries').values(kept).execute();
      const attempt = (deliveryId: string) => ({ delivery_id: deliveryId, attempt: 1, at: iso(NOW - 31 * DAY), outcome: 'delivered' as const, response_status: 200, latency_ms: 5, response_excerpt: null });
      await db.insertInto('outgoing_webhook_attempts').values([attempt('old-0'), attempt('old-1'), attempt('recent'), attempt('retrying')]).execute();
      const session = (id: string, createdAgoMs: number, seenAgoMs: number) => ({ id_hash: id, created_at: iso(NOW - createdAgoMs), last_seen_at: iso(NOW - seenAgoMs), active_section: 'posts' });
      await db
        .insertInto('admin_sessions')
        .values([session('live', 2 * 60 * 60_000, 60_000), session('too-old', DAY + 60_000, 60_000), session('idle', 3 * 60 * 60_000, DAY + 60_000)])
        .execute();

      const jobs = runner('a');
      const retention = createRetentionService({ repository: createRetentionRepository(db), logger: createLogger({ level: 'silent' }), jobs });
      jobs.start();
      try {
        expect(await retention.runNow()).toBe(old.length + 2);
      } finally {
        await jobs.stop();
      }

      const deliveries = await db.selectFrom('outgoing_webhook_deliveries').select('id').orderBy('id').execute();
      expect(deliveries.map((d) => d.id)).toEqual(['recent', 'retrying']);
      const attempts = await db.selectFrom('outgoing_webhook_attempts').select('delivery_id').orderBy('delivery_id').execute();
      expect(attempts.map((a) => a.delivery_id)).toEqual(['recent', 'retrying']);
      const sessions = await db.selectFrom('admin_sessions').select('id_hash').execute();
      expect(sessions.map((s) => s.id_hash)).toEqual(['live']);
    });

    it('rolls raw tracking events up into daily counts: the dashboard shows the same figures before and after', async () => {
      const db = database.handle.db;
      const referrers = ['{"referrer":"search"}', '{"referrer":"social"}', null];
      const names = ['page_view', 'analysis_started', 'analysis_completed', 'analysis_error', 'contact_submitted'];
      const events = Array.from({ length: 1_200 }, (_, i) => {
        const name = names[i % names.length]!;
        // Over the last 40 days, a few at odd times of the day, several per day and name.
        const at = iso(NOW - (i % 40) * DAY - ((i * 7919) % DAY));
        return { id: `ev-${i}`, name, path: name === 'page_view' ? `/page-${i % 13}` : '/free-analysis', props: name === 'page_view' ? referrers[i % 3]! : '{"x":1}', at, received_at: at };
      });
      for (let i = 0; i < events.length; i += 200) await db.insertInto('events').values(events.slice(i, i + 200)).execute();
      const funnel = createFunnelService({ funnel: createFunnelRepository(db), clock: () => new Date(NOW) });
      const before = await funnel.summary();

      const jobs = runner('rollup');
      const retention = createRetentionService({ repository: createRetentionRepository(db), logger: createLogger({ level: 'silent' }), jobs, rules: { eventDays: 10 } });
      jobs.start();
      try {
        expect(await retention.runNow()).toBeGreaterThan(0);
      } finally {
        await jobs.stop();
      }

      const firstKept = iso(NOW - 10 * DAY).slice(0, 10);
      const today = iso(NOW).slice(0, 10);
      const raw = await db.selectFrom('events').select('at').orderBy('at').execute();
      expect(raw.length).toBeGreaterThan(0);
      expect(raw[0]!.at.slice(0, 10) >= firstKept).toBe(true);
      // Raw events past the retention are gone; every complete day (those kept raw too) is rolled up, today is not.
      expect(raw.length).toBe(events.filter((e) => e.at >= firstKept).length);
      const daily = await db.selectFrom('event_daily').select(['day', 'name', 'path', 'props', 'count']).execute();
      expect(daily.length).toBeGreaterThan(0);
      expect(daily.filter((d) => d.name !== 'page_view').every((d) => d.path === '' && d.props === '')).toBe(true);
      expect(daily.reduce((n, d) => n + Number(d.count), 0)).toBe(events.filter((e) => e.at < today).length);
      // The 7- and 30-day windows, their daily series, top pages and referrers: the same.
      expect(await funnel.summary()).toEqual(before);
    });

    it('keeps an analysis a year, and longer while its permalink is opened; opening is noted at most once a day', async () => {
      const db = database.handle.db;
      const analysis = (id: string, ageDays: number, openedDaysAgo: number | null) => ({
        id,
        cache_key: `website|https://${id}.example|`,
        mode: 'website' as const,
        created_at: iso(NOW - ageDays * DAY),
        report: '{}',
        business_key: `website|https://${id}.example|`,
        opened_at: openedDaysAgo === null ? null : iso(NOW - openedDaysAgo * DAY),
      });
      await db
        .insertInto('analyses')
        .values([analysis('old', 400, null), analysis('old-opened-long-ago', 400, 200), analysis('old-opened-lately', 400, 10), analysis('young', 300, null)])
        .execute();
      const jobs = runner('analyses');
      const retention = createRetentionService({ repository: createRetentionRepository(db), logger: createLogger({ level: 'silent' }), jobs });
      jobs.start();
      try {
        await retention.runNow();
      } finally {
        await jobs.stop();
      }
      const left = await db.selectFrom('analyses').select('id').where('id', 'in', ['old', 'old-opened-long-ago', 'old-opened-lately', 'young']).orderBy('id').execute();
      expect(left.map((r) => r.id)).toEqual(['old-opened-lately', 'young']);

      // Opening the permalink notes the time, once a day at most.
      const repo = createAnalysesRepository(db);
      let clock = NOW;
      const writes: string[] = [];
      const written: Array<Promise<void>> = [];
      const service = createAnalysisService({
        engine: {} as never,
        repository: {
          ...repo,
          markOpened: (id, at) => {
            writes.push(id);
            const write = repo.markOpened(id, at);
            written.push(write);
            return write;
          },
        },
        clock: () => new Date(clock),
      });
      await service.getAnalysis('young');
      await Promise.all(written);
      await service.getAnalysis('young');
      clock += DAY + 1;
      await service.getAnalysis('young');
      await Promise.all(written);
      expect(writes).toEqual(['young', 'young']);
      expect((await repo.findById('young'))?.openedAt?.toISOString()).toBe(iso(clock));
    });

    it('runs on one instance of many: the holder of its lease', async () => {
      const db = database.handle.db;
      const [seenA, seenB]: string[][] = [[], []];
      const [a, b] = [runner('instance-a', seenA), runner('instance-b', seenB)];
      const log = createLogger({ level: 'silent' });
      const first = createRetentionService({ repository: createRetentionRepository(db), logger: log, jobs: a });
      const second = createRetentionService({ repository: createRetentionRepository(db), logger: log, jobs: b });
      a.start();
      await first.runNow();
      b.start();
      try {
        await second.runNow();
        expect(seenA).toContain('retention:ok');
        expect(seenB).not.toContain('retention:ok');
        expect(seenB).toContain('retention:not_leader');
      } finally {
        await a.stop();
        await b.stop();
      }
    });
  });
}
