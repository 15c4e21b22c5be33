import type { Context, Next } from 'koa';
import { z } from 'zod';
import { describeIssues, fieldIssues, type ErrorEnvelope } from '@site/contracts/error';
import { asDatabaseUnavailable, DatabaseUnavailableError, databaseUnavailableReason } from '../db/db-errors';
import { DomainError, RateLimitedError, UnavailableError, type DomainErrorKind } from '../lib/domain-errors';
import { INSUFFICIENT_STORAGE_CODE, INSUFFICIENT_STORAGE_MESSAGE, storageFailureOf, type StorageFailure } from '../lib/disk-errors';
import type { Logger } from '../lib/logger';
import { logOf } from './request-id';

/** Answers of a feature left unconfigured (README: what happens when ADMIN_PASSWORD or WEBHOOK_SECRET is unset). */
const NOT_CONFIGURED = new Set(['admin_not_configured', 'webhook_disabled']);

const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again later.';
/** While the database is away every request fails the same way: the owner is alerted once in this long, not per request. */
const DATABASE_ALERT_EVERY_MS = 5 * 60_000;

const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** The one place a domain failure becomes an HTTP status. */
export const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  refused: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
};

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  message?: string;
  headers?: Record<string, string>;
}

/**
 * Whether an error at `path` is answered with the JSON envelope: the API and the site's JSON documents (/page-token.json,
 * /remotes.json). Pages and files (a feed, a sitemap, /metrics) answer its message as text/plain. The API description
 * describes each error answer by the same rule.
 */
export function answersWithEnvelope(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path.endsWith('.json');
}

/**
 * The one error handler, at the head of the chain. Everything thrown below becomes the JSON envelope
 * `{ error: { code, message, details? } }` (plain text outside `/api`); a 500 never carries a stack.
 */
export function errors(options: {
  logger: Logger;
  /** Told about every 5xx answer (the admin's error alerts); must not throw. Knows nothing of who listens. */
  onServerError?: (info: { method: string; path: string; status: number; error: unknown }) => void;
  /** Told of every write that failed for want of room (the 507s): /api/health then says the disk is full. Must not throw. */
  onStorageFailure?: (failure: StorageFailure) => void;
}) {
  let lastDatabaseAlert = -Infinity;
  return async function errorHandler(ctx: Context, next: Next) {
    try {
      await next();
    } catch (thrown) {
      const { status, envelope, headers } = toEnvelope(thrown);
      // The real error (ENOSPC, SQLITE_FULL…) goes in the log line as `disk`, whatever wrapped it.
      const disk = status === 507 ? storageFailureOf(thrown) : undefined;
      if (disk) options.onStorageFailure?.(disk);
      const unavailable = status === 503 ? databaseFailure(thrown) : undefined;
      if (unavailable) {
        // A state of the database, not a bug: one warning per request naming the query that waited, and one alert per outage.
        logOf(ctx, options.logger).warn(
          { method: ctx.method, url: ctx.url, reason: unavailable.reason, query: unavailable.query, cause: causeOf(unavailable) },
          unavailable.reason === 'busy' ? 'database did not answer in time' : 'database unreachable',
        );
        const now = Date.now();
        if (now - lastDatabaseAlert >= DATABASE_ALERT_EVERY_MS) {
          lastDatabaseAlert = now;
          try {
            options.onServerError?.({ method: ctx.method, path: ctx.path, status, error: thrown });
          } catch (hookError) {
            logOf(ctx, options.logger).error({ err: hookError }, 'the server-error hook failed');
          }
        }
      } else if (status === 503 && thrown instanceof DomainError && NOT_CONFIGURED.has(thrown.code)) {
        // A feature the operator has not set up (no admin password, no webhook secret): a setting, not a failure.
        logOf(ctx, options.logger).warn({ method: ctx.method, url: ctx.url, code: thrown.code }, thrown.message);
      } else if (status >= 500) {
        logOf(ctx, options.logger).error({ err: thrown, method: ctx.method, url: ctx.url, ...(disk ? { disk } : {}) }, disk ? 'request failed: no room to store' : 'request failed');
        try {
          options.onServerError?.({ method: ctx.method, path: ctx.path, status, error: thrown });
        } catch (hookError) {
          logOf(ctx, options.logger).error({ err: hookError }, 'the server-error hook failed');
        }
      }
      if (ctx.headerSent || !ctx.writable) return;

      ctx.status = status;
      for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
      // A half-built answer (e.g. a static file's caching headers) must not be reused for the error.
      ctx.remove('Content-Disposition');
      ctx.remove('ETag');
      ctx.remove('Last-Modified');
      ctx.set('Cache-Control', 'no-store');
      if (answersWithEnvelope(ctx.path)) {
        ctx.type = 'application/json; charset=utf-8';
        ctx.body = envelope;
      } else {
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = envelope.error.message;
      }
    }
  };
}

/** Maps anything thrown to a status and envelope. Exported for tests and non-Koa callers. */
export function toEnvelope(thrown: unknown): { status: number; envelope: ErrorEnvelope; headers: Record<string, string> } {
  if (thrown instanceof DomainError) {
    return {
      status: STATUS_BY_KIND[thrown.kind],
      envelope: envelopeOf(thrown.code, thrown.message, thrown.details),
      headers:
        thrown instanceof RateLimitedError || (thrown instanceof UnavailableError && thrown.retryAfterSeconds !== undefined)
          ? { 'Retry-After': String(thrown.retryAfterSeconds) }
          : {},
    };
  }
  if (isZodError(thrown)) {
    const issues = fieldIssues(thrown);
    return { status: 400, envelope: envelopeOf('validation_failed', describeIssues(issues), issues), headers: {} };
  }
  // No room on the disk (or a read-only one): the server's state, not a bug, and not the database being away.
  if (storageFailureOf(thrown)) return { status: 507, envelope: envelopeOf(INSUFFICIENT_STORAGE_CODE, INSUFFICIENT_STORAGE_MESSAGE), headers: {} };
  // A database failure that did not come through the dialect (the pg pool used directly, a driver's own error).
  const database = asDatabaseUnavailable(databaseUnavailableReason(thrown) ? thrown : undefined);
  if (database) return toEnvelope(database);
  const err = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as HttpLikeError;
  const status = err.status ?? err.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Errors from the body parser (co-body / raw-body) and from koa's ctx.throw.
    if (thrown instanceof SyntaxError || err.type === 'entity.parse.failed') {
      return { status: 400, envelope: envelopeOf('invalid_json', 'The request body is not valid JSON.'), headers: {} };
    }
    if (status === 413) {
      return {
        status,
        envelope: envelopeOf('payload_too_large', 'The request body is larger than this endpoint accepts.'),
        headers: {},
      };
    }
    const code = CODE_BY_STATUS[status] ?? 'bad_request';
    const message = err.expose !== false && err.message ? err.message : 'The request could not be processed.';
    return { status, envelope: envelopeOf(code, message), headers: { ...(err.headers ?? {}) } };
  }
  return { status: 500, envelope: envelopeOf('internal_error', INTERNAL_MESSAGE), headers: {} };
}

function databaseFailure(thrown: unknown): DatabaseUnavailableError | undefined {
  return thrown instanceof DatabaseUnavailableError ? thrown : asDatabaseUnavailable(databaseUnavailableReason(thrown) ? thrown : undefined);
}

/** What the driver said (e.g. `canceling statement due to statement timeout`, `57014`), for the log line. */
function causeOf(error: DatabaseUnavailableError): { message?: string; code?: string } | undefined {
  const cause = error.cause as { message?: unknown; code?: unknown } | undefined;
  if (!cause) return undefined;
  return { ...(typeof cause.message === 'string' ? { message: cause.message } : {}), ...(typeof cause.code === 'string' ? { code: cause.code } : {}) };
}

function envelopeOf(code: string, message: string, details?: unknown): ErrorEnvelope {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

function isZodError(value: unknown): value is z.ZodError {
  return (
    value instanceof z.ZodError ||
    (value instanceof Error && value.name === 'ZodError' && Array.isArray((value as { issues?: unknown }).issues))
  );
}
