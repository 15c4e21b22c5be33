import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import { toEnvelope } from '../../middleware/errors';
import { storageFailureOf } from '../disk-errors';
import { createDiskState } from '../../health/disk-state';

/** A genuine SQLITE_FULL: SQLite's own page limit reached by an insert (libsql's SqliteError, as the app gets it). */
async function sqliteFull(): Promise<unknown> {
  const dir = await mkdtemp(path.join(tmpdir(), 'disk-errors-'));
  const db = new Database(path.join(dir, 'full.db'));
  try {
    db.exec('create table t (x text)');
    db.exec('pragma max_page_count = 3');
    const insert = db.prepare('insert into t values (?)');
    for (let i = 0; i < 10; i++) insert.run('x'.repeat(4000));
    return undefined;
  } catch (error) {
    return error;
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('storageFailureOf: what counts as "no room to store"', () => {
  it('a write to a full device (ENOSPC from /dev/full) names the code and the call', async () => {
    const error = await writeFile('/dev/full', 'x').catch((e: unknown) => e);
    expect(storageFailureOf(error)).toEqual({ problem: 'full', code: 'ENOSPC', syscall: 'write' });
  });

  it("SQLite's own SQLITE_FULL, as libsql throws it", async () => {
    const error = await sqliteFull();
    expect(error).toMatchObject({ code: 'SQLITE_FULL', rawCode: 13 });
    expect(storageFailureOf(error)).toEqual({ problem: 'full', code: 'SQLITE_FULL' });
  });

  it('quotas, read-only file systems, SQLite I/O errors of a full disk, and any of them as a cause', () => {
    expect(storageFailureOf(Object.assign(new Error('quota'), { code: 'EDQUOT' }))).toMatchObject({ problem: 'full', code: 'EDQUOT' });
    expect(storageFailureOf(Object.assign(new Error('ro'), { code: 'EROFS' }))).toMatchObject({ problem: 'read_only', code: 'EROFS' });
    expect(storageFailureOf(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE', rawCode: 778 }))).toMatchObject({ code: 'SQLITE_IOERR_WRITE' });
    expect(storageFailureOf(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR', rawCode: 1034 }))).toMatchObject({ code: 'SQLITE_IOERR_FSYNC' });
    const wrapped = new Error('could not store the upload', { cause: Object.assign(new Error('no space'), { code: 'ENOSPC' }) });
    expect(storageFailureOf(wrapped)).toMatchObject({ problem: 'full', code: 'ENOSPC' });
  });

  it('leaves every other failure alone', () => {
    for (const error of [
      new Error('boom'),
      Object.assign(new Error('missing'), { code: 'ENOENT' }),
      Object.assign(new Error('denied'), { code: 'EACCES' }),
      Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT_UNIQUE', rawCode: 2067 }),
      Object.assign(new Error('a read failed'), { code: 'SQLITE_IOERR_READ', rawCode: 266 }),
      Object.assign(new Error('busy'), { code: 'SQLITE_BUSY', rawCode: 5 }),
      'ENOSPC',
      null,
    ]) {
      expect(storageFailureOf(error)).toBeUndefined();
    }
  });

  it('is answered 507 insufficient_storage with a sentence for people', async () => {
    expect(toEnvelope(await sqliteFull())).toEqual({
      status: 507,
      envelope: { error: { code: 'insufficient_storage', message: 'The server has no room to store this right now. Please try again later.' } },
      headers: {},
    });
  });
});

describe('the disk state /api/health reads', () => {
  const failure = { problem: 'full' as const, code: 'ENOSPC', path: '/data/media/.x.tmp' };

  it('is full after a failed write for the hold time, then free space decides', async () => {
    let now = new Date('2026-01-01T10:00:00Z');
    let free = 10 * 1024 ** 3;
    const disk = createDiskState({ dir: '/data', minFreeBytes: 50 * 1024 ** 2, clock: () => now, holdMs: 60_000, freeBytes: async () => free });
    expect(await disk.check()).toEqual({ status: 'ok', freeBytes: free });

    disk.failed(failure);
    now = new Date(now.getTime() + 59_000);
    expect(await disk.check()).toMatchObject({ status: 'full', lastFailure: { code: 'ENOSPC', path: failure.path, at: '2026-01-01T10:00:00.000Z' } });
    expect((await disk.check()).reason).toContain('ENOSPC');

    now = new Date(now.getTime() + 2_000);
    expect((await disk.check()).status).toBe('ok');

    free = 10 * 1024 ** 2;
    expect(await disk.check()).toMatchObject({ status: 'full', reason: '10 MB free on the data disk, under DISK_MIN_FREE (50 MB).' });
  });

  it('stays full past the hold time while free space is still under the minimum', async () => {
    let now = new Date('2026-01-01T10:00:00Z');
    const disk = createDiskState({ dir: '/data', minFreeBytes: 1000, clock: () => now, holdMs: 1000, freeBytes: async () => 10 });
    disk.failed(failure);
    now = new Date(now.getTime() + 5000);
    expect(await disk.check()).toMatchObject({ status: 'full', lastFailure: { code: 'ENOSPC' } });
  });

  it('reads the real free space of a folder (statfs)', async () => {
    const disk = createDiskState({ dir: tmpdir(), minFreeBytes: 0, clock: () => new Date() });
    const state = await disk.check();
    expect(state.status).toBe('ok');
    expect(state.freeBytes).toBeGreaterThan(0);
  });
});
