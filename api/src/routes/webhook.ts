import { jsonBody } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { SIGNATURE_HEADER } from '../services/webhook-service';
import { defineRoutes } from './route-module';

/**
 * `POST /api/webhook`: creates a post from an external workflow (n8n). Authenticated with an HMAC-SHA256
 * signature over the raw body (see README, "Publishing posts from n8n"); 503 while WEBHOOK_SECRET is unset.
 */
export const webhookRoutes = defineRoutes(
  { config: ['bodyLimit', 'rateLimitMultiplier'], services: ['webhook'], context: ['rateLimits'] },
  (router, { config, services, rateLimits }) => {
    router.post(
      '/api/webhook',
      rateLimit({ windowMs: 60_000, max: 30, keyPrefix: 'webhook', store: rateLimits, multiplier: config.rateLimitMultiplier, message: 'Too many webhook deliveries. Please retry later.' }),
      jsonBody({ limit: config.bodyLimit }),
      async (ctx) => {
        const idempotencyKey = ctx.get('Idempotency-Key').trim().slice(0, 200) || undefined;
        const { result, replayed } = await services.webhook.receive({
          rawBody: (ctx.request as { rawBody?: string }).rawBody ?? '',
          body: ctx.request.body,
          signature: ctx.get(SIGNATURE_HEADER) || undefined,
          idempotencyKey,
        });
        if (replayed) ctx.set('Idempotent-Replayed', 'true');
        ctx.status = 201;
        ctx.body = result;
      },
    );
  },
);
