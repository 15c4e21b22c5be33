import { trackingBatchSchema, trackingEventSchema, type TrackingAccepted } from '@site/contracts/events';
import type { Context } from 'koa';
import { jsonBody } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { sameOrigin } from '../middleware/same-origin';
import type { EventSource } from '../services/event-service';
import { defineRoutes } from './route-module';

/** A body with an `events` field is a batch (the page-view queue); anything else is read as one event. */
function parseEvents(body: unknown) {
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'events' in body) return trackingBatchSchema.parse(body).events;
  return [trackingEventSchema.parse(body)];
}

function sourceOf(ctx: Context): EventSource {
  return {
    userAgent: ctx.get('User-Agent'),
    // Chromium sends Sec-Purpose (`prefetch`, `prefetch;prerender`), older browsers Purpose.
    purpose: ctx.get('Sec-Purpose') || ctx.get('Purpose'),
    optedOut: ctx.get('DNT').trim() === '1' || ctx.get('Sec-GPC').trim() === '1',
  };
}

/** `POST /api/events`: first-party analytics, one event or a batch, sent with `navigator.sendBeacon` or fetch. */
export const eventsRoutes = defineRoutes(
  { config: ['bodyLimit', 'publicOrigin', 'rateLimitMultiplier'], services: ['events'], context: ['rateLimits'] },
  (router, { config, services, rateLimits }) => {
    // Only this site's pages may add to its funnel: a beacon from another site's page (text/plain needs no CORS
    // preflight) would count real browsers' visits that never happened. sendBeacon and fetch both send Origin on a POST.
    const csrf = sameOrigin({ publicOrigin: config.publicOrigin });
    router.post(
      '/api/events',
      // Generous: a page view, scroll depth and a few clicks per page, from many pages a minute (a batch is one request).
      rateLimit({ windowMs: 60_000, max: 120, keyPrefix: 'events', store: rateLimits, multiplier: config.rateLimitMultiplier }),
      // sendBeacon with a string body sends text/plain.
      jsonBody({ limit: config.bodyLimit, acceptTextPlain: true }),
      async (ctx) => {
        // Validated first, so a malformed body is told what is wrong (400) before where it came from is checked (403).
        const events = parseEvents(ctx.request.body);
        await csrf(ctx, async () => {
          const recorded = await services.events.record(events, sourceOf(ctx));
          ctx.status = 202;
          ctx.body = { accepted: true, recorded } satisfies TrackingAccepted;
        });
      },
    );
  },
);
