import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config';
import { currentScope } from './request-context';

export type { Logger };

/** Header values that must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-webhook-signature"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["x-webhook-signature"]',
  'headers["set-cookie"]',
];

/** Child loggers that already carry their request's id as a binding (middleware/request-id.ts). */
const REQUEST_LOGGERS = new WeakSet<Logger>();

/** A child logger bound to one request's id; the id is not added a second time by the mixin. */
export function requestLogger(logger: Logger, requestId: string): Logger {
  const child = logger.child({ requestId });
  REQUEST_LOGGERS.add(child);
  return child;
}

/**
 * The one structured logger of the process; `destination` lets tests capture lines. A line logged while a request
 * is being answered (or by work that request started: the mail and webhook deliveries it queued) carries the
 * request's `requestId` and the `traceId` of its W3C trace (lib/request-context.ts), whichever logger wrote it.
 */
export function createLogger(options: { level: LogLevel; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'api' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { req: pino.stdSerializers.req, err: pino.stdSerializers.err },
      mixin(_object, _level, logger) {
        const scope = currentScope();
        if (!scope) return {};
        const traceId = scope.trace?.traceId;
        // The trace id is read here, not bound: with tracing on, the request's span sets it after the logger was made.
        if (REQUEST_LOGGERS.has(logger as Logger)) return traceId ? { traceId } : {};
        return traceId ? { requestId: scope.requestId, traceId } : { requestId: scope.requestId };
      },
    },
    options.destination,
  );
}
