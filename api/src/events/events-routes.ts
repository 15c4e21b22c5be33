import { trackingAcceptedSchema, trackingBatchSchema, trackingEventSchema, trackingRequestSchema, type TrackingAccepted, type TrackingEvent } from '@site/contracts/events';
import type { Context } from 'koa';
import type { EventSource } from './event-service';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';

/** A body with an `events` field is a batch (the page-view queue, with its page-view token); anything else is read as one event. */
function parseEvents(body: unknown): { events: TrackingEvent[]; token?: string | undefined } {
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'events' in body) return trackingBatchSchema.parse(body);
  return { events: [trackingEventSchema.parse(body)] };
}

function sourceOf(ctx: Context, token: string | undefined): EventSource {
  return {
    address: ctx.ip,
    ...(token ? { pageToken: token } : {}),
    userAgent: ctx.get('User-Agent'),
    // Chromium sends Sec-Purpose (`prefetch`, `prefetch;prerender`), older browsers Purpose.
    purpose: ctx.get('Sec-Purpose') || ctx.get('Purpose'),
    optedOut: ctx.get('DNT').trim() === '1' || ctx.get('Sec-GPC').trim() === '1',
  };
}

/** `POST /api/events`: first-party analytics, one event or a batch, sent with `navigator.sendBeacon` or fetch. */
export const eventsRoutes = defineEndpoints({ config: ['bodyLimit', 'publicOrigin', 'rateLimitMultiplier'], services: ['events'], context: ['rateLimits'] }, (endpoint) => [
  endpoint({
    method: 'post',
    path: '/api/events',
    tag: 'Analytics',
    summary:
      'Record a first-party tracking event, or a batch `{ events: [...] }` of up to 20 (fetch or navigator.sendBeacon; text/plain holding JSON is accepted). Events from crawlers, prefetches and browsers sending DNT or Sec-GPC are accepted and not stored',
    // Generous: a page view, scroll depth and a few clicks per page, from many pages a minute (a batch is one request).
    rateLimits: [{ windowMs: 60_000, max: 120, keyPrefix: 'events' }],
    // sendBeacon with a string body sends text/plain. Read as a batch or one event, so a bad field is named in its place.
    body: { schema: trackingRequestSchema, acceptTextPlain: true, parse: parseEvents, example: { events: [{ name: 'page_view', path: '/blog', props: { referrer: 'search' } }] } },
    // Only this site's pages may add to its funnel: a beacon from another site's page (text/plain needs no CORS
    // preflight) would count real browsers' visits that never happened. sendBeacon and fetch both send Origin on a POST.
    // Checked after the body, so a malformed body is told what is wrong (400) before where it came from is checked (403).
    sameOrigin: 'after-input',
    responses: {
      202: { description: 'Accepted; `recorded` says how many were stored.', body: { schema: trackingAcceptedSchema, example: { accepted: true, recorded: 1 } } },
      400: errorResponse('Unknown event or a bad field.', error('validation_failed', 'path: Path must start with /', [{ path: 'path', message: 'Path must start with /' }])),
    },
    handle: async ({ body }, { services }, ctx) => {
      const recorded = await services.events.record(body.events, sourceOf(ctx, body.token));
      return { accepted: true, recorded } satisfies TrackingAccepted;
    },
  }),
]);
