import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { samples } from '../../test-support/media-fixtures';
import { createJobRunner, type JobTimers } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { createMediaRepository } from '../media-repository';
import { createMediaService, MEDIA_CLAIM_MS } from '../media-service';
import { createFileMediaStore } from '../media-store';

/** No timer fires by itself: the test runs the job by hand. */
const handTimers: JobTimers = { set: () => 0, clear() {} };

/*
 * Issue 50: an image whose instance was killed while making its variants stayed unservable for the claim's
 * 10 minutes. The claim is now short (renewed by a live holder) and names its holder: another instance takes the
 * image over as soon as the lease has passed, and a stale holder cannot renew a claim that is no longer its own.
 */
describe.each(testBackends().map((b) => [b.name, b] as const))('the media-variants lease (%s)', (_name, backend) => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await backend.open();
    dir = await mkdtemp(path.join(tmpdir(), 'media-lease-'));
  });
  afterAll(async () => {
    await database.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes over an image a killed instance held once its lease (at most 60 s) has passed, and not before', async () => {
    expect(MEDIA_CLAIM_MS).toBeLessThanOrEqual(60_000);
    let now = Date.parse('2026-06-01T10:00:00.000Z');
    const clock = () => new Date(now);
    const logger = createLogger({ level: 'silent' });
    const jobs = createJobRunner({ clock, logger, timers: handTimers });
    const store = createFileMediaStore(dir);
    const repository = createMediaRepository(database.handle.db);
    const media = createMediaService({ repository, store, clock, logger, jobs });
    const hash = randomBytes(12).toString('hex');
    await store.put(`${hash}-source`, await samples.gif());
    const id = randomUUID();
    await repository.insert({ id, hash, filename: 'a.gif', alt: '', format: 'gif', width: 300, height: 200, bytes: 1, variants: [], createdAt: clock().toISOString(), state: 'processing', attempts: 0 });

    // The killed instance's claim, as its job wrote it: the lease its holder would have renewed.
    const lease = (at: number) => new Date(at + MEDIA_CLAIM_MS).toISOString();
    expect(await repository.claim(id, clock().toISOString(), lease(now), 'killed-holder')).toBe(true);
    // A live holder renews its own claim; a holder whose claim was taken cannot.
    expect(await repository.renewClaim(id, 'killed-holder', lease(now))).toBe(true);
    expect(await repository.renewClaim(id, 'another-holder', lease(now + 10_000))).toBe(false);

    now += MEDIA_CLAIM_MS - 1000;
    expect(await media.processWaiting()).toBe(0);
    expect((await media.get(id)).state).toBe('processing');
    now += 1000;
    expect(await media.processWaiting()).toBe(1);
    expect(await media.get(id)).toMatchObject({ state: 'ready', variants: expect.arrayContaining([expect.objectContaining({ format: 'gif' })]) });
    // The killed holder, were it to come back, no longer holds the image.
    expect(await repository.renewClaim(id, 'killed-holder', lease(now))).toBe(false);
    await jobs.stop();
  });
});
