import { trackingEventSchema } from '@site/contracts/events';
import { jsonBody } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import type { RouteModule } from './route-module';

/** `POST /api/events`: first-party analytics, sent with `navigator.sendBeacon` or fetch. */
export const eventsRoutes: RouteModule = (router, { config, services, rateLimits }) => {
  router.post(
    '/api/events',
    // Generous: a page view, scroll depth and a few clicks per page, from many pages a minute.
    rateLimit({ windowMs: 60_000, max: 120, keyPrefix: 'events', store: rateLimits, multiplier: config.rateLimitMultiplier }),
    // sendBeacon with a string body sends text/plain.
    jsonBody({ limit: config.bodyLimit, acceptTextPlain: true }),
    async (ctx) => {
      const event = trackingEventSchema.parse(ctx.request.body);
      await services.events.record(event);
      ctx.status = 202;
      ctx.body = { accepted: true };
    },
  );
};
