import type { Context, Next } from 'koa';
import { CONTACT_FAILED_MESSAGE, contactRequestSchema, type ContactErrorResponse, type ContactResponse } from '@site/contracts/contact';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { jsonBody } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { defineRoutes } from './route-module';

export const CONTACT_RATE_LIMIT = { windowMs: 10 * 60_000, max: 5 } as const;
/** Invalid attempts have a budget of their own, so typos never use up the 5 messages and a bot is still stopped. */
export const CONTACT_INVALID_RATE_LIMIT = { windowMs: 10 * 60_000, max: 30 } as const;

/** The contact endpoint as the router matches it (case-insensitive, a trailing slash allowed). */
const CONTACT_PATH = /^\/api\/contact\/?$/i;

/**
 * Every failed answer of the contact endpoint keeps the spec's contract (section 7: `{ success, message }`, and the
 * form shows `message`): `success: false` and `message` are added beside the error envelope, with the envelope's own
 * sentence, or the spec's 'Failed to send message. Please try again.' where the server can say nothing more (5xx).
 * Mounted outside the error handler, so it sees the answer whatever refused the request: the body size check before
 * routing (413), the parser (400, 415), the limits (429), validation (400) or a fault (5xx).
 */
export function contactFailureAnswer() {
  return async function addContactFailureFields(ctx: Context, next: Next) {
    await next();
    if (ctx.status < 400 || !CONTACT_PATH.test(ctx.path)) return;
    const envelope = errorEnvelopeSchema.safeParse(ctx.body);
    if (!envelope.success) return;
    const error = envelope.data.error.code === 'internal_error' ? { ...envelope.data.error, message: CONTACT_FAILED_MESSAGE } : envelope.data.error;
    ctx.body = { success: false, message: error.message, error } satisfies ContactErrorResponse;
  };
}

/**
 * `POST /api/contact`: the contact form. Stored first, then answered `{ success: true, message }`; the owner's mail
 * follows. Failures are the one error envelope plus `{ success: false, message }` (contactFailureAnswer).
 */
export const contactRoutes = defineRoutes(
  { config: ['bodyLimit', 'rateLimitMultiplier'], services: ['contact'], context: ['rateLimits', 'logger'] },
  (router, { config, services, rateLimits, logger }) => {
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
  },
);
