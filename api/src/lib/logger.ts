import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config';

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

/** The one structured logger of the process; `destination` lets tests capture lines. */
export function createLogger(options: { level: LogLevel; destination?: DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'api' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { req: pino.stdSerializers.req, err: pino.stdSerializers.err },
    },
    options.destination,
  );
}
