import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../lib/logger';
import { testBackends, type TestDatabase } from '../../../test-support/databases';
import { createAdminServices } from '../admin-services';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  // Intervals of 200 ms (a lease of 500 ms): long enough for a health run on a busy machine.
  it('runs each round of checks on one instance only, and another takes over when it stops', async () => {
    // Two instances' admin services on one database. Each health run makes one database round trip: count them.
    const runs = [0, 0];
    const instance = (i: number) =>
      createAdminServices({
        db: db.handle.db,
        clock: () => new Date(),
        logger: createLogger({ level: 'silent' }),
        config: { adminPassword: undefined, adminPasswordHash: undefined, smtpUrl: undefined, contactEmailTo: 'owner@example.com', mailFrom: 'site <no-reply@example.com>', dataDir: dir, siteRoot: dir, rateLimitMultiplier: 1 },
        ping: async () => {
          runs[i]! += 1;
          return true;
        },
        remotes: { snapshot: async () => ({ manifests: [], map: {}, routes: [] }) },
      });
    const a = instance(0);
    const b = instance(1);
    a.startMonitor(200);
    await sleep(30);
    b.startMonitor(200);
    await sleep(1500);
    expect(runs[0]).toBeGreaterThanOrEqual(3);
    expect(runs[1]).toBe(0);

    // A stopping instance gives its lease up: the other runs the next rounds.
    await a.stop();
    const before = runs[0];
    await sleep(1000);
    expect(runs[0]).toBe(before);
    expect(runs[1]).toBeGreaterThanOrEqual(2);
    await b.stop();
  });
});
