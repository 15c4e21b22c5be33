import { describe, expect, it } from 'vitest';
import { createJobRunner, type JobTimers } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import type { RetentionRepository } from '../retention-repository';
import { createRetentionService, RETENTION_PAUSE_MAX_MS } from '../retention-service';

/*
 * On SQLite a retention batch holds the event loop (the driver is synchronous). The job pauses as long as a batch took
 * between two batches, so that requests get about half of the time while it catches up (the first run after an
 * upgrade rolls up every stored day of events: five years at 100x).
 */
const handTimers: JobTimers = { set: () => undefined, clear: () => undefined };
const NOW = Date.parse('2026-11-27T12:00:00.000Z');

describe('retention between batches', () => {
  it('leaves the event loop free for as long as a batch held it (up to the pause limit)', async () => {
    const HOLD_MS = 20;
    let days = 0;
    const hold = () => {
      const until = performance.now() + HOLD_MS;
      while (performance.now() < until) {
        // Held, as a synchronous SQLite call holds it.
      }
    };
    const repository: RetentionRepository = {
      pruneDeliveries: async () => 0,
      pruneSessions: async () => 0,
      pruneAnalyses: async () => 0,
      pruneReleases: async () => 0,
      pruneReleaseBlobs: async () => 0,
      oldestRawEventDay: async () => undefined,
      rolledEventDays: async () => [],
      rollUpEventDay: async () => {
        hold();
        days++;
        return 1;
      },
      expireEventDay: async () => 0,
    };
    // One instance: the lease is always its own.
    const leases = { acquire: async () => true, release: async () => undefined };
    const jobs = createJobRunner({ clock: () => new Date(NOW), logger: createLogger({ level: 'silent' }), timers: handTimers, leases });
    const retention = createRetentionService({ repository, logger: createLogger({ level: 'silent' }), jobs, rules: { eventDays: 10 } });
    jobs.start();
    // What a request would get meanwhile: turns of a 1 ms interval (each one a chance to run).
    let turns = 0;
    const probe = setInterval(() => turns++, 1);
    const started = performance.now();
    try {
      await retention.runNow();
    } finally {
      clearInterval(probe);
      await jobs.stop();
    }
    const elapsed = performance.now() - started;
    expect(days).toBeGreaterThanOrEqual(10);
    expect(HOLD_MS).toBeLessThanOrEqual(RETENTION_PAUSE_MAX_MS);
    // Held for days × 20 ms; with a pause as long after each, the run lasts about twice that, and other work gets many
    // turns in each pause (with only a setImmediate between days it got about one per day).
    expect(elapsed).toBeGreaterThan(days * HOLD_MS * 1.5);
    expect(turns, `${turns} turns in ${days} days`).toBeGreaterThanOrEqual(days * 5);
  });
});
