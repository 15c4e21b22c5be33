import { UnavailableError } from '../lib/domain-errors';

/*
 * The one place that decides whether a database failure is "the database is not answering right now" (a 503 the
 * caller may retry) rather than a fault of ours (a 500). guarded-dialect.ts turns such failures into a
 * DatabaseUnavailableError carrying the SQL that waited; middleware/errors.ts maps it (and any raw one that got past
 * the dialect, e.g. from the pg pool directly) to 503 `database_unavailable` with Retry-After.
 */

export const DATABASE_UNAVAILABLE_CODE = 'database_unavailable';
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not answering right now. Please try again in a moment.';
/** Seconds a caller is told to wait (Retry-After): about the time an instance takes to see the database back. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Why the database did not answer: `down` (unreachable, shutting down, refusing) or `busy` (a timeout: a lock, a full pool). */
export type UnavailableReason = 'down' | 'busy';

/** The database did not answer a query in time, or not at all. `query` is its SQL without parameters, when known. */
export class DatabaseUnavailableError extends UnavailableError {
  readonly reason: UnavailableReason;
  readonly query: string | undefined;
  constructor(options: { reason: UnavailableReason; query?: string; cause?: unknown }) {
    super(DATABASE_UNAVAILABLE_MESSAGE, { code: DATABASE_UNAVAILABLE_CODE, retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
    this.reason = options.reason;
    this.query = options.query;
    if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

/** PostgreSQL SQLSTATEs that mean "not now" (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const PG_BUSY_CODES = new Set([
  '57014', // query_canceled: statement_timeout (or a cancel)
  '55P03', // lock_not_available: lock_timeout
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
  '25P03', // idle_in_transaction_session_timeout
  '40P01', // deadlock_detected: the retry succeeds
]);
const PG_DOWN_CODES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, recovery)
  '57P05', // idle_session_timeout
  '58000', // system_error
  '58030', // io_error
]);
/** Node's socket errors on the way to the database. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
/** Messages of pg and pg-pool (they carry no code). */
const PG_BUSY_MESSAGES = [/^timeout exceeded when trying to connect/i, /^Query read timeout/i];
const PG_DOWN_MESSAGES = [
  /^Connection terminated/i,
  /not queryable/i, // "Client has encountered a connection error and is not queryable"
  /^Client was closed and is not queryable/i,
  /^Cannot use a pool after calling end/i,
];

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether `error` means the database is not answering now, and why; undefined for anything else (a bug, bad SQL, a
 * constraint). Socket errors (ECONNREFUSED…) count only when the caller knows the database raised them
 * (`fromDatabase`, the dialect's wrapper): elsewhere they may be a provider's or a webhook receiver's.
 */
export function databaseUnavailableReason(error: unknown, options: { fromDatabase?: boolean } = {}): UnavailableReason | undefined {
  if (error instanceof DatabaseUnavailableError) return error.reason;
  if (typeof error !== 'object' || error === null) return undefined;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String((error as { message?: unknown }).message ?? '');
  if (code) {
    if (PG_BUSY_CODES.has(code)) return 'busy';
    if (PG_DOWN_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || (options.fromDatabase && SOCKET_CODES.has(code))) return 'down';
    // SQLite: another writer held the file past busy_timeout (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED…).
    if (/^SQLITE_(?:BUSY|LOCKED)/.test(code)) return 'busy';
  }
  if (PG_BUSY_MESSAGES.some((pattern) => pattern.test(message))) return 'busy';
  if (PG_DOWN_MESSAGES.some((pattern) => pattern.test(message))) return 'down';
  // Errors that wrap the one that counts (AggregateError from a dual-stack connect, `cause` chains).
  if (error instanceof AggregateError && error.errors.length > 0) return databaseUnavailableReason(error.errors[0], options);
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error ? databaseUnavailableReason(cause, options) : undefined;
}

export function isDatabaseUnavailable(error: unknown, options: { fromDatabase?: boolean } = {}): boolean {
  return databaseUnavailableReason(error, options) !== undefined;
}

/** `error`, raised by the database's driver, as a DatabaseUnavailableError when it is one (kept as the cause), else undefined. */
export function asDatabaseUnavailable(error: unknown, query?: string): DatabaseUnavailableError | undefined {
  if (error instanceof DatabaseUnavailableError) return error.query || !query ? error : new DatabaseUnavailableError({ reason: error.reason, query, cause: error.cause });
  const reason = databaseUnavailableReason(error, { fromDatabase: true });
  return reason ? new DatabaseUnavailableError({ reason, ...(query ? { query } : {}), cause: error }) : undefined;
}
