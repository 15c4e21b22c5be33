import { contactRequestSchema, type ContactResponse } from '@site/contracts/contact';
import { jsonBody } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import type { RouteModule } from './route-module';

export const CONTACT_RATE_LIMIT = { windowMs: 10 * 60_000, max: 5 } as const;
/** Invalid attempts have a budget of their own, so typos never use up the 5 messages and a bot is still stopped. */
export const CONTACT_INVALID_RATE_LIMIT = { windowMs: 10 * 60_000, max: 30 } as const;

/**
 * `POST /api/contact`: the contact form. Stored first, then answered `{ success: true, message }`; the owner's mail
 * follows. Failures are the one error envelope (the form shows `error.message`).
 */
export const contactRoutes: RouteModule = (router, { config, services, rateLimits, logger }) => {
  router.post(
    '/api/contact',
    rateLimit({
      ...CONTACT_INVALID_RATE_LIMIT,
      keyPrefix: 'contact-invalid',
      count: 'failed',
      store: rateLimits,
      multiplier: config.rateLimitMultiplier,
      message: 'Too many attempts that could not be sent from your connection. Please wait a few minutes, or call or email us directly.',
    }),
    rateLimit({
      ...CONTACT_RATE_LIMIT,
      keyPrefix: 'contact',
      count: 'accepted',
      store: rateLimits,
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
