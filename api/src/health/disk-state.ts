import { statfs } from 'node:fs/promises';
import type { Clock } from '../lib/clock';
import type { StorageFailure } from '../lib/disk-errors';

/** What /api/health says of the disk under DATA_DIR. `reason`, `code` and `path` are for the admin view. */
export interface DiskHealth {
  status: 'ok' | 'full';
  /** Why it is `full`, in a sentence. */
  reason?: string;
  /** The last write that failed for want of room: its error code (ENOSPC, SQLITE_FULL…), file and time. */
  lastFailure?: { code: string; path?: string; at: string };
  /** Free bytes on DATA_DIR's file system, when it could be read. */
  freeBytes?: number;
}

export interface DiskState {
  /** Told of every write that failed for a disk reason (the error middleware, background work). Never throws. */
  failed(failure: StorageFailure): void;
  /** The disk now: a free-space check of DATA_DIR (one statfs call) and the last failed write. Never throws. */
  check(): Promise<DiskHealth>;
}

/**
 * A write that failed for want of room marks the disk full for `holdMs` (60 s by default) after the last such failure,
 * whatever the free space says: a quota, or SQLite's own page limit, is not seen by statfs. After that, free space
 * decides: under `minFreeBytes` (DISK_MIN_FREE) the disk is full before a write fails; over it, it is ok again.
 */
export function createDiskState(deps: {
  dir: string;
  minFreeBytes: number;
  clock: Clock;
  holdMs?: number;
  /** Free bytes of the file system holding `dir` (statfs by default). */
  freeBytes?: (dir: string) => Promise<number>;
}): DiskState {
  const holdMs = deps.holdMs ?? 60_000;
  const freeBytes = deps.freeBytes ?? (async (dir: string) => {
    const info = await statfs(dir);
    return info.bavail * info.bsize;
  });
  let last: { failure: StorageFailure; at: Date } | undefined;
  const mb = (bytes: number) => `${Math.floor(bytes / 1024 / 1024)} MB`;
  return {
    failed(failure) {
      last = { failure, at: deps.clock() };
    },
    async check() {
      const free = await freeBytes(deps.dir).catch(() => undefined);
      const now = deps.clock().getTime();
      if (last && now - last.at.getTime() >= holdMs && (free === undefined || free >= deps.minFreeBytes)) last = undefined;
      const lastFailure = last && {
        code: last.failure.code,
        ...(last.failure.path ? { path: last.failure.path } : {}),
        at: last.at.toISOString(),
      };
      const known = free === undefined ? {} : { freeBytes: free };
      if (lastFailure) {
        const what = last!.failure.problem === 'read_only' ? 'the file system takes no writes' : 'no room left';
        return { status: 'full', reason: `A write failed at ${lastFailure.at}: ${what} (${lastFailure.code}).`, lastFailure, ...known };
      }
      if (free !== undefined && free < deps.minFreeBytes) {
        return { status: 'full', reason: `${mb(free)} free on the data disk, under DISK_MIN_FREE (${mb(deps.minFreeBytes)}).`, ...known };
      }
      return { status: 'ok', ...known };
    },
  };
}
