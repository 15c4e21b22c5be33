import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner, type JobTimers } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { createLeasesRepository } from '../../db/leases-repository';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { readBlobs, sha256 } from '../../site/releases/releases-repository';
import { createRetentionRepository } from '../retention-repository';
import { createRetentionService, RELEASE_BATCH } from '../retention-service';

/*
 * Old shared releases are pruned (issue 32's retention): of each remote, what is neither its pointer, nor among the last
 * 10 versions of its rollback stack, nor created in the last 30 days goes, then every stored file no release left
 * references; a remote without a pointer keeps all. The shared release store is PostgreSQL's (on SQLite one instance
 * keeps releases in its folder and these tables stay empty), so this runs with TEST_DATABASE_URL only.
 */

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const handTimers: JobTimers = { set: () => undefined, clear: () => undefined };
const postgres = testBackends().find((b) => b.name === 'postgres');

describe.skipIf(!postgres)('shared release retention (postgres; skipped without TEST_DATABASE_URL: the release store is PostgreSQL only)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await postgres!.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** A file's bytes and its blob row. */
  const file = (text: string) => {
    const bytes = Buffer.from(text);
    return { hash: sha256(bytes), row: { hash: sha256(bytes), size: bytes.length, content: bytes.toString('base64') } };
  };

  it('keeps each remote’s pointer, its stack’s last 10 and the last 30 days, and the files they use; prunes the rest in batches', async () => {
    const db = database.handle.db;
    const shared = file('shared runtime, in every release');
    const orphan = file('a file no release references');
    const blobs = new Map<string, { hash: string; size: number; content: string }>([[shared.hash, shared.row], [orphan.hash, orphan.row]]);
    const releases: Array<{ remote: string; version: string; digest: string; manifest: string; files: string; created_at: string }> = [];
    const release = (remote: string, version: string, ageDays: number) => {
      const own = file(`${remote} ${version}: its own chunk`);
      blobs.set(own.hash, own.row);
      releases.push({ remote, version, digest: `d-${remote}-${version}`, manifest: '{}', files: JSON.stringify({ 'remoteEntry.js': own.hash, 'assets/runtime.js': shared.hash }), created_at: iso(NOW - ageDays * DAY) });
      return own.hash;
    };
    // blog: 1.0.0 … 1.0.14, 100 to 86 days old, and 1.0.15 five days old. Rolled back to 1.0.1; its stack ends with
    // 1.0.4 … 1.0.13.
    const blogOwn = Array.from({ length: 15 }, (_, i) => release('blog', `1.0.${i}`, 100 - i));
    blogOwn.push(release('blog', '1.0.15', 5));
    // analysis: more releases to prune than one batch (70 old, serving the newest, all in its stack).
    const analysisVersions = Array.from({ length: 70 }, (_, i) => `2.0.${i}`);
    for (const [i, v] of analysisVersions.entries()) release('analysis', v, 200 - i);
    // marketing: old releases but no pointer (nothing says what is served): all kept.
    release('marketing', '0.1.0', 400);
    release('marketing', '0.2.0', 300);
    const rows = [...blobs.values()];
    for (let i = 0; i < rows.length; i += 50) await db.insertInto('release_blobs').values(rows.slice(i, i + 50)).execute();
    for (let i = 0; i < releases.length; i += 50) await db.insertInto('releases').values(releases.slice(i, i + 50)).execute();
    const blogStack = Array.from({ length: 14 }, (_, i) => `1.0.${i}`);
    await db
      .insertInto('release_pointers')
      .values([
        { remote: 'blog', version: '1.0.1', since: iso(NOW - DAY), stack: JSON.stringify(blogStack), log: '[]' },
        { remote: 'analysis', version: '2.0.69', since: iso(NOW - DAY), stack: JSON.stringify(analysisVersions), log: '[]' },
      ])
      .execute();

    const jobs = createJobRunner({
      clock: () => new Date(NOW),
      logger: createLogger({ level: 'silent' }),
      leases: createLeasesRepository(db),
      instance: 'a',
      timers: handTimers,
    });
    const retention = createRetentionService({ repository: createRetentionRepository(db), logger: createLogger({ level: 'silent' }), jobs });
    jobs.start();
    let removed: number;
    try {
      removed = await retention.runNow();
    } finally {
      await jobs.stop();
    }

    const left = await db.selectFrom('releases').select(['remote', 'version']).orderBy('remote').orderBy('created_at').execute();
    const versionsOf = (remote: string) => left.filter((r) => r.remote === remote).map((r) => r.version);
    expect(versionsOf('blog')).toEqual(['1.0.1', '1.0.4', '1.0.5', '1.0.6', '1.0.7', '1.0.8', '1.0.9', '1.0.10', '1.0.11', '1.0.12', '1.0.13', '1.0.15']);
    expect(versionsOf('analysis')).toEqual(analysisVersions.slice(-10));
    expect(versionsOf('marketing')).toEqual(['0.1.0', '0.2.0']);
    // 4 of blog's and 60 of analysis' (more than one batch of RELEASE_BATCH), then their 64 own files and the orphan.
    expect(60).toBeGreaterThan(RELEASE_BATCH);
    expect(removed).toBe(4 + 60 + 64 + 1);

    // Every file a kept release names is there (and checks against its hash); no other is.
    const kept = await db.selectFrom('releases').select('files').execute();
    const wanted = new Set(kept.flatMap((r) => Object.values(JSON.parse(r.files) as Record<string, string>)));
    expect((await readBlobs(db, [...wanted])).size).toBe(wanted.size);
    const stored = (await db.selectFrom('release_blobs').select('hash').execute()).map((r) => r.hash);
    expect(new Set(stored)).toEqual(wanted);
    expect(stored).not.toContain(orphan.hash);
    expect(stored).not.toContain(blogOwn[14]);
    expect(stored).toContain(blogOwn[15]);
  });
});
