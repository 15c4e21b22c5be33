import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeasesRepository } from '../../db/leases-repository';
import { createJobRunner, type Job } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createAdminServices } from '../admin-services';

describe.each(testBackends())('scheduled health checks on several instances ($name)', (backend) => {
  let db: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    db = await backend.open();
    dir = await mkdtemp(path.join(tmpdir(), 'monitor-lease-'));
  });
  afterAll(async () => {
    await db.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  // The test's clock: time moves when the test says so. Each instance's monitor job runs when the test kicks it, as its
  // poll would every 200 ms (a lease of 500 ms).
  it('runs each round of checks on one instance only, and another takes over when it stops or its lease lapses', async () => {
    let now = Date.parse('2026-06-01T10:00:00.000Z');
    const clock = () => new Date(now);
    const logger = createLogger({ level: 'silent' });
    // Instances' admin services on one database. Each health run makes one database round trip: count them.
    const runs = [0, 0, 0];
    const instance = async (i: number) => {
      const handle = i === 0 ? db.handle : await db.another();
      const admin = createAdminServices({
        db: handle.db,
        clock,
        logger,
        config: { adminPassword: undefined, adminPasswordHash: undefined, smtpUrl: undefined, contactEmailTo: 'owner@example.com', mailFrom: 'site <no-reply@example.com>', dataDir: dir, siteRoot: dir, rateLimitMultiplier: 1 },
        ping: async () => {
          runs[i]! += 1;
          return true;
        },
        remotes: { snapshot: async () => ({ manifests: [], map: {}, routes: [] }) },
      });
      const runner = createJobRunner({ clock, logger, leases: createLeasesRepository(handle.db), instance: `instance-${i}` });
      const job: Job = runner.add(admin.monitorJob(200));
      return { runner, job };
    };
    const [a, b, c] = [await instance(0), await instance(1), await instance(2)];

    // Three rounds: both instances look each time; only the first one to take the lease runs the checks.
    for (let round = 0; round < 3; round++) {
      expect(await a.job.kick()).toEqual({});
      expect(await b.job.kick()).toBeUndefined();
      now += 200;
    }
    expect(runs).toEqual([3, 0, 0]);

    // A stopping instance gives its lease up: the other runs the next rounds at once.
    await a.runner.stop();
    expect(await a.job.kick()).toBeUndefined();
    await b.job.kick();
    now += 200;
    await b.job.kick();
    await c.job.kick();
    expect(runs).toEqual([3, 2, 0]);

    // An instance that dies keeps its lease until it lapses (2.5 polls): then a third takes over.
    now += 400;
    await c.job.kick();
    expect(runs).toEqual([3, 2, 0]);
    now += 101;
    await c.job.kick();
    expect(runs).toEqual([3, 2, 1]);
    await Promise.all([b.runner.stop(), c.runner.stop()]);
  });
});
