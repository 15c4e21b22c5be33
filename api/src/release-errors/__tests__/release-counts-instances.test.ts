import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createAdminStateRepository } from '../../admin/admin-state-repository';
import { createLogger } from '../../lib/logger';
import { createReleaseCountsRepository } from '../release-counts-repository';
import { createReleaseErrorsService, type ReleaseErrorsService } from '../release-errors-service';

/*
 * Two instances count the same release in the same minutes: every read (either instance's) is the sum of both, on
 * SQLite (one process's database, shared) and on PostgreSQL (TEST_DATABASE_URL: two connections, as two servers).
 */
describe.each(testBackends())('release counts of two instances add up ($name)', (backend) => {
  let database: TestDatabase;
  let a: ReleaseErrorsService;
  let b: ReleaseErrorsService;
  let now = Date.parse('2026-06-01T10:00:30.000Z');
  const raised: string[] = [];

  beforeAll(async () => {
    database = await backend.open();
    const other = await database.another();
    const make = (db: typeof database.handle.db) =>
      createReleaseErrorsService({
        repository: createReleaseCountsRepository(db),
        clock: () => new Date(now),
        logger: createLogger({ level: 'silent' }),
        servedReleases: async () => [{ app: 'blog', release: '1.0.0' }],
        alerts: {
          raise: async (alert) => {
            raised.push(alert.title);
            return undefined;
          },
          acknowledge: async () => {
            throw new Error('not raised');
          },
        },
        state: createAdminStateRepository(db),
        // One reporter is enough here: what adds up is under test (the rule on reporters has its own test below).
        rules: { minPageViews: 100, rate: 0.02, minReporters: 1 },
      });
    a = make(database.handle.db);
    b = make(other.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('sums page views, render errors and client errors across instances and minutes', async () => {
    for (let i = 0; i < 60; i++) a.pageView('blog', '1.0.0');
    for (let i = 0; i < 40; i++) b.pageView('blog', '1.0.0');
    a.renderError('blog', '1.0.0');
    await b.fromBrowser([{ name: 'remote_error', props: { app: 'blog', release: '1.0.0', kind: 'chunk', message: 'Failed to fetch dynamically imported module' } }], { reporter: 'reporter-0' });
    // Both flush the same minute, concurrently: the upsert adds, nothing is lost.
    await Promise.all([a.flush(), b.flush()]);
    now += 60_000;
    b.renderError('blog', '1.0.0');
    for (let i = 0; i < 3; i++) a.pageView('blog', '1.0.0');
    // Each instance adds its counts every few seconds (its release-counts job); a read adds the reader's own at once.
    await b.flush();

    for (const reader of [a, b]) {
      const [served] = await reader.served();
      expect(served).toEqual({ app: 'blog', release: '1.0.0', window: { pageViews: 103, renderErrors: 2, clientErrors: 1, clientReporters: 1, rate: 3 / 103 }, failing: true });
    }
    const row = (await a.summary()).releases.find((r) => r.release === '1.0.0');
    expect(row).toMatchObject({ day: { pageViews: 103, renderErrors: 2, clientErrors: 1 }, lastError: 'Failed to fetch dynamically imported module' });
    // The check runs on one instance (the job's lease) and raises one alert for the sum.
    await a.check();
    expect(raised).toEqual(['Release 1.0.0 of blog is failing']);
  });

  it('keeps one row per release and minute, whatever the traffic', async () => {
    for (let i = 0; i < 500; i++) (i % 2 ? a : b).pageView('blog', '1.0.0');
    await Promise.all([a.flush(), b.flush()]);
    const rows = await database.handle.db.selectFrom('release_counts').select(['bucket']).where('release', '=', '1.0.0').execute();
    expect(rows.map((r) => r.bucket).sort()).toEqual(['2026-06-01T10:00:00.000Z', '2026-06-01T10:01:00.000Z']);
  });

  it('counts each reporter of browser errors once across instances and minutes, within the window; retention removes them', async () => {
    const error = { name: 'remote_error' as const, props: { app: 'blog' as const, release: '1.0.0', kind: 'render' as const } };
    const reporters = async () => (await a.countsSince([{ app: 'blog', release: '1.0.0' }], now - 15 * 60_000))[0]!.clientReporters;
    // Runs last: it moves the clock. The same visitor on both instances, in two minutes; two others on one each.
    await a.fromBrowser([error], { reporter: 'same-visitor' });
    await b.fromBrowser([error], { reporter: 'same-visitor' });
    await a.fromBrowser([error], { reporter: 'visitor-a' });
    await Promise.all([a.flush(), b.flush()]);
    now += 60_000;
    await b.fromBrowser([error, error], { reporter: 'same-visitor' });
    await b.fromBrowser([error], { reporter: 'visitor-b' });
    await b.flush();
    // Those three, and the first test's reporter.
    expect(await reporters()).toBe(4);
    expect((await a.countsSince([{ app: 'blog', release: '1.0.0' }], now - 15 * 60_000))[0]).toMatchObject({ clientErrors: 1 + 6, clientReporters: 4 });
    // A report without a reporter (none named) counts as an error and as no visitor.
    await a.fromBrowser([error]);
    expect(await reporters()).toBe(4);
    // A window from the second minute on: only the visitors seen in it (`same-visitor`, last seen then, and `visitor-b`).
    expect((await a.countsSince([{ app: 'blog', release: '1.0.0' }], now))[0]!.clientReporters).toBe(2);
    // The retention job's prune takes reporters last seen before its cut with the minutes' rows.
    const repository = createReleaseCountsRepository(database.handle.db);
    await repository.prune(new Date(now + 60 * 60_000).toISOString(), 1000);
    expect(await database.handle.db.selectFrom('release_reporters').select('reporter').execute()).toEqual([]);
  });
});
