import type { Context, Next } from 'koa';
import { contactRequestSchema, type ContactResponse } from '@site/contracts/contact';
import { jsonBody } from '../middleware/json-body';
import { toEnvelope } from '../middleware/errors';
import { rateLimit } from '../middleware/rate-limit';
import type { RouteModule } from './route-module';

export const CONTACT_RATE_LIMIT = { windowMs: 10 * 60_000, max: 5 } as const;

/**
 * Client errors of this endpoint answer in the contact contract's shape, `{ success: false, message }`,
 * alongside the usual error envelope, so the form can show the server's message. 5xx go to the
 * global handler (logged, no detail leaked).
 */
async function contactErrors(ctx: Context, next: Next) {
  try {
    await next();
  } catch (thrown) {
    const { status, envelope, headers } = toEnvelope(thrown);
    if (status >= 500) throw thrown;
    ctx.status = status;
    for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
    ctx.set('Cache-Control', 'no-store');
    const message =
      envelope.error.code === 'validation_failed' ? `Please check these fields: ${envelope.error.message}` : envelope.error.message;
    ctx.body = { success: false, message, error: envelope.error };
  }
}

/** `POST /api/contact`: the contact form. Stored first, then answered; the owner's mail follows. */
export const contactRoutes: RouteModule = (router, { config, services, clock, logger }) => {
  router.post(
    '/api/contact',
    contactErrors,
    rateLimit({
      ...CONTACT_RATE_LIMIT,
      keyPrefix: 'contact',
      clock,
      multiplier: config.rateLimitMultiplier,
      message: 'Too many messages from your connection. Please wait a few minutes, or call or email us directly.',
    }),
    jsonBody({ limit: config.bodyLimit }),
    async (ctx) => {
      const input = contactRequestSchema.parse(ctx.request.body ?? {});
      const outcome = await services.contact.submit(input, { ip: ctx.ip, userAgent: ctx.get('user-agent') || undefined });
      const firstName = input.name.split(/\s+/)[0];
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 200;
      // A bot that filled the honeypot sees the same answer as a person: nothing tells it it was dropped.
      ctx.body = {
        success: true,
        message: `Thanks, ${firstName}! Your message has arrived. We'll get back to you within one business day.`,
      } satisfies ContactResponse;
      if (outcome.kind === 'dropped') logger.info({ ip: ctx.ip }, 'contact honeypot filled; message dropped');
    },
  );
};
