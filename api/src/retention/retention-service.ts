import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN_SESSION_IDLE_MS, ADMIN_SESSION_MAX_AGE_MS } from '@site/contracts/admin';
import type { Job, JobRunner } from '../lib/job-runner';
import type { Logger } from '../lib/logger';
import type { RetentionRepository } from './retention-repository';
import type { ReleaseCountsRepository } from '../release-errors/release-counts-repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows removed per transaction: short enough that no writer waits long behind one. */
export const RETENTION_BATCH = 500;
/** Shared releases and their files removed per transaction (a file may be megabytes). */
export const RELEASE_BATCH = 50;

export interface RetentionRules {
  /** Finished outgoing webhook deliveries and their attempts are kept this many days (RETENTION_DELIVERY_DAYS, 30). */
  deliveryDays: number;
  /** Raw tracking events are kept this many days, then rolled up into daily aggregates (RETENTION_EVENT_DAYS, 90). */
  eventDays: number;
  /** Stored analyses are kept this many days (RETENTION_ANALYSIS_DAYS, 365), longer when their permalink was opened. */
  analysisDays: number;
  /** Shared releases (PostgreSQL) created this many days ago or less are kept, whatever else (RETENTION_RELEASE_DAYS, 30). */
  releaseDays: number;
  /** Besides its pointer, each remote keeps the last this many versions of its rollback stack (RETENTION_RELEASE_KEEP, 10). */
  releaseKeep: number;
  /** The per-minute page views and errors of each release are kept this many days (RETENTION_RELEASE_COUNT_DAYS, 14). */
  releaseCountDays: number;
}

export const DEFAULT_RETENTION: RetentionRules = { deliveryDays: 30, eventDays: 90, analysisDays: 365, releaseDays: 30, releaseKeep: 10, releaseCountDays: 14 };
/**
 * A UTC day is rolled up this long after it ends: a browser's `at` is kept up to 10 minutes in the past
 * (events/event-service.ts, CLIENT_TIME_PAST_MS), so no event can fall in the day after that. Until then the funnel reads
 * the day's raw events.
 */
export const ROLLUP_GRACE_MS = 15 * 60_000;
/** An analysis whose permalink was opened within this many days is kept, whatever its age. */
export const ANALYSIS_OPENED_KEEP_DAYS = 90;

/** The longest pause between two batches (see breather). */
export const RETENTION_PAUSE_MAX_MS = 50;

/**
 * Between two batches the job waits as long as the batch took, up to RETENTION_PAUSE_MAX_MS: on SQLite a batch holds
 * the event loop (the driver is synchronous), so a request needing several turns of it waited a batch at each turn.
 * The pause gives requests at least half of the time.
 */
async function breather(startedAt: number): Promise<void> {
  await sleep(Math.min(RETENTION_PAUSE_MAX_MS, Math.max(1, performance.now() - startedAt)));
}

export interface RetentionService {
  /** Runs the pruning now (tests, and an owner who wants it at once); resolves with how many rows went. */
  runNow(): Promise<number>;
}

/**
 * Retention: what the site stores for a while only is deleted when its time is over, by one job kind (`retention`)
 * of the background runner, on one instance of many (its lease), hourly, in batches of RETENTION_BATCH within the run's
 * time budget (what is left waits for the next run). What it deletes: finished outgoing webhook deliveries and their
 * attempts after `deliveryDays` (a delivery still being retried stays), admin sessions past their 24 hours of age or
 * inactivity (they no longer open anything); tracking events: every complete UTC day is rolled up into daily counts
 * (event_daily, event_days_rolled) soon after it ends, which the funnel reads instead of the day's raw events, and raw
 * events older than `eventDays` are deleted a whole UTC day per transaction, so the dashboard's counts stay the same
 * for any window; stored
 * analyses after `analysisDays`, unless their permalink was opened in the last ANALYSIS_OPENED_KEEP_DAYS; shared releases
 * (PostgreSQL's release store) that are neither a remote's pointer, nor among the last `releaseKeep` of its rollback
 * stack, nor created in the last `releaseDays`, then the stored files no release left references; the per-minute page
 * views and errors of each release (release_counts) after `releaseCountDays`.
 */
export function createRetentionService(deps: {
  repository: RetentionRepository;
  logger: Logger;
  jobs: Pick<JobRunner, 'add'>;
  rules?: Partial<RetentionRules>;
  pollMs?: number;
  /** The per-minute counts of each release (release-errors/). */
  releaseCounts?: Pick<ReleaseCountsRepository, 'prune'>;
}): RetentionService {
  const rules: RetentionRules = {
    deliveryDays: deps.rules?.deliveryDays ?? DEFAULT_RETENTION.deliveryDays,
    eventDays: deps.rules?.eventDays ?? DEFAULT_RETENTION.eventDays,
    analysisDays: deps.rules?.analysisDays ?? DEFAULT_RETENTION.analysisDays,
    releaseDays: deps.rules?.releaseDays ?? DEFAULT_RETENTION.releaseDays,
    releaseKeep: deps.rules?.releaseKeep ?? DEFAULT_RETENTION.releaseKeep,
    releaseCountDays: deps.rules?.releaseCountDays ?? DEFAULT_RETENTION.releaseCountDays,
  };
  const job: Job = deps.jobs.add({
    name: 'retention',
    pollMs: deps.pollMs ?? 60 * 60_000,
    // Renewed by the runner while held (a long prune too): a killed holder's run resumes on another instance within 45 s.
    lease: { ttlMs: 30_000 },
    async run(run) {
      const now = run.now().getTime();
      const iso = (ms: number) => new Date(ms).toISOString();
      let done = 0;
      // Each step: what it removes, one batch of it, and the batch's size (fewer removed: nothing left for now).
      const steps: Array<[string, () => Promise<number>, number]> = [
        ['outgoing webhook deliveries', () => deps.repository.pruneDeliveries(iso(now - rules.deliveryDays * DAY_MS), RETENTION_BATCH), RETENTION_BATCH],
        ['admin sessions', () => deps.repository.pruneSessions(iso(now - ADMIN_SESSION_MAX_AGE_MS), iso(now - ADMIN_SESSION_IDLE_MS), RETENTION_BATCH), RETENTION_BATCH],
        ['analyses', () => deps.repository.pruneAnalyses(iso(now - rules.analysisDays * DAY_MS), iso(now - ANALYSIS_OPENED_KEEP_DAYS * DAY_MS), RETENTION_BATCH), RETENTION_BATCH],
        // Releases first, then the files only they referenced. A release row holds a manifest and a file list, and a
        // file may be megabytes: smaller batches.
        ['shared releases', () => deps.repository.pruneReleases(iso(now - rules.releaseDays * DAY_MS), rules.releaseKeep, RELEASE_BATCH), RELEASE_BATCH],
        ['shared release files', () => deps.repository.pruneReleaseBlobs(RELEASE_BATCH), RELEASE_BATCH],
        ...(deps.releaseCounts
          ? [['release error counts', () => deps.releaseCounts!.prune(iso(now - rules.releaseCountDays * DAY_MS), RETENTION_BATCH), RETENTION_BATCH] as [string, () => Promise<number>, number]]
          : []),
      ];
      // Tracking events. Every complete UTC day is rolled up into daily aggregates (the funnel reads them, and raw events
      // of today only), newest first so that the dashboard's days come first; a day is complete ROLLUP_GRACE_MS after
      // it ends, when no browser's `at` can still fall in it. Then whole days past the retention are deleted, oldest
      // first, each rolled up first if it was not yet. One day per transaction.
      const utcDay = (ms: number) => iso(Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), new Date(ms).getUTCDate())).slice(0, 10);
      const firstKeptDay = iso(Date.parse(utcDay(now)) - rules.eventDays * DAY_MS).slice(0, 10);
      const lastCompleteDay = iso(Date.parse(utcDay(now - ROLLUP_GRACE_MS)) - DAY_MS).slice(0, 10);
      const rolledAt = iso(now);
      let read = 0;
      const listed = new Set(await deps.repository.rolledEventDays(firstKeptDay, lastCompleteDay));
      for (let day = lastCompleteDay; day >= firstKeptDay; day = iso(Date.parse(day) - DAY_MS).slice(0, 10)) {
        if (run.signal.aborted) break;
        if (listed.has(day)) continue;
        const started = performance.now();
        read += await deps.repository.rollUpEventDay(day, rolledAt);
        await breather(started);
      }
      if (read > 0) deps.logger.info({ read, what: 'tracking events' }, 'retention: rolled complete days up into daily counts');
      let rolled = 0;
      for (;;) {
        if (run.signal.aborted) break;
        const day = await deps.repository.oldestRawEventDay(firstKeptDay);
        if (!day) break;
        const started = performance.now();
        const n = await deps.repository.expireEventDay(day, rolledAt);
        // A day that yields nothing would be found again: stop, and say so (an `at` out of the ISO form).
        if (n === 0) {
          deps.logger.warn({ day }, 'retention: a day of tracking events could not be rolled up');
          break;
        }
        rolled += n;
        await breather(started);
      }
      if (rolled > 0) deps.logger.info({ removed: rolled, what: 'tracking events' }, 'retention: removed raw events past their days (rolled up)');
      done += rolled;
      for (const [what, step, batch] of steps) {
        let removed = 0;
        for (;;) {
          if (run.signal.aborted) break;
          const started = performance.now();
          const n = await step();
          removed += n;
          if (n < batch) break;
          await breather(started);
        }
        if (removed > 0) deps.logger.info({ removed, what }, 'retention: removed what its time was over');
        done += removed;
      }
      return { done };
    },
  });
  return {
    async runNow() {
      return (await job.kick())?.done ?? 0;
    },
  };
}
