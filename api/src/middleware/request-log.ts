import type { Context, Next } from 'koa';
import type { Logger } from '../lib/logger';
import { logOf } from './request-id';

/**
 * One structured line per request, written when the answer is final (after the error handler).
 * Sensitive headers are redacted by the logger's configuration; the line carries the request's id (request-id.ts).
 */
export function requestLog(options: { logger: Logger }) {
  return async function logRequest(ctx: Context, next: Next) {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const responseTime = Number(process.hrtime.bigint() - started) / 1e6;
      const status = ctx.status;
      const level = status >= 500 ? 'error' : 'info';
      logOf(ctx, options.logger)[level](
        {
          req: ctx.req,
          res: { statusCode: status, headers: ctx.response.headers },
          responseTime: Math.round(responseTime * 10) / 10,
          ip: ctx.ip,
        },
        'request completed',
      );
    }
  };
}
