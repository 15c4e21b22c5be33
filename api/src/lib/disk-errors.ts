/**
 * The one place that decides whether a failure means "the disk has no room (or takes no writes)": the answer is then
 * 507 `insufficient_storage` (middleware/errors.ts), not a 500, and /api/health says the disk is full
 * (health/disk-state.ts). Node's fs errors carry `code` (ENOSPC…); libsql's SqliteError carries `code`
 * ('SQLITE_FULL', 'SQLITE_IOERR_WRITE'…) and `rawCode` (13; an extended code keeps its primary code in the low byte).
 */

export const INSUFFICIENT_STORAGE_CODE = 'insufficient_storage';
export const INSUFFICIENT_STORAGE_MESSAGE = 'The server has no room to store this right now. Please try again later.';

/** `full`: no room (disk or quota); `read_only`: the file system takes no writes at all. */
export type StorageProblem = 'full' | 'read_only';

export interface StorageFailure {
  problem: StorageProblem;
  /** The real error code, as the system or SQLite gave it (ENOSPC, SQLITE_FULL…). */
  code: string;
  /** The file that could not be written, when the error names it (Node's fs errors do). */
  path?: string;
  syscall?: string;
}

const NODE_CODES: Record<string, StorageProblem> = { ENOSPC: 'full', EDQUOT: 'full', EFBIG: 'full', EROFS: 'read_only' };
/** SQLite's primary result codes: SQLITE_FULL (13), SQLITE_READONLY (8, and its extended codes). */
const SQLITE_FULL = 13;
/** Extended SQLITE_IOERR codes a full disk produces when SQLite writes, syncs or grows a file (the WAL, its index). */
const SQLITE_IOERR_NO_ROOM = new Map<number, string>([
  [778, 'SQLITE_IOERR_WRITE'],
  [1034, 'SQLITE_IOERR_FSYNC'],
  [1546, 'SQLITE_IOERR_TRUNCATE'],
  [4874, 'SQLITE_IOERR_SHMSIZE'],
]);

function fieldOf<T>(value: unknown, name: string, type: 'string' | 'number'): T | undefined {
  const field = (value as Record<string, unknown> | null)?.[name];
  return typeof field === type ? (field as T) : undefined;
}

function classifyOne(error: unknown): StorageFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = fieldOf<string>(error, 'code', 'string');
  const rawCode = fieldOf<number>(error, 'rawCode', 'number');
  const extra = { path: fieldOf<string>(error, 'path', 'string'), syscall: fieldOf<string>(error, 'syscall', 'string') };
  const withExtra = (failure: StorageFailure): StorageFailure => ({
    ...failure,
    ...(extra.path ? { path: extra.path } : {}),
    ...(extra.syscall ? { syscall: extra.syscall } : {}),
  });
  if (code && NODE_CODES[code]) return withExtra({ problem: NODE_CODES[code], code });
  if (code === 'SQLITE_FULL' || (rawCode !== undefined && (rawCode & 0xff) === SQLITE_FULL)) return { problem: 'full', code: code ?? 'SQLITE_FULL' };
  if (code && /^SQLITE_IOERR_(?:WRITE|FSYNC|TRUNCATE|SHMSIZE)$/.test(code)) return { problem: 'full', code };
  if (rawCode !== undefined && SQLITE_IOERR_NO_ROOM.has(rawCode)) return { problem: 'full', code: SQLITE_IOERR_NO_ROOM.get(rawCode)! };
  // A driver that gives only SQLite's sentence.
  const message = fieldOf<string>(error, 'message', 'string');
  if (message && /database or disk is full/i.test(message)) return { problem: 'full', code: code ?? 'SQLITE_FULL' };
  return undefined;
}

/**
 * What disk problem `error` is (itself or one of its causes, as a wrapper keeps it), or undefined for anything else.
 * SQLITE_READONLY is left out on purpose: it also means a file opened read-only by mistake, a fault of ours.
 */
export function storageFailureOf(error: unknown): StorageFailure | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    const found = classifyOne(current);
    if (found) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
