import {
  PAGE_TOKEN_PATH,
  pageTokenSchema,
  trackingAcceptedSchema,
  trackingBatchSchema,
  trackingEventSchema,
  trackingRequestSchema,
  type PageToken,
  type TrackingAccepted,
  type TrackingEvent,
} from '@site/contracts/events';
import type { Context } from 'koa';
import type { EventSource } from './event-service';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';
import { NotFoundError } from '../lib/domain-errors';

/**
 * Page-view tokens a minute per address (IPv6 per /64): a browser asks once per page load, so a person never comes near
 * it, and an office behind one address has room; a script collecting tokens to spend on reports is slowed to this.
 */
export const PAGE_TOKEN_LIMIT = { windowMs: 60_000, max: 120, keyPrefix: 'page-token', message: 'Too many page-view tokens asked for from this address. Please wait a moment.' };

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
export const eventsRoutes = defineEndpoints({ config: ['bodyLimit', 'publicOrigin', 'rateLimitMultiplier'], services: ['events'], context: ['rateLimits', 'pageTokens'] }, (endpoint) => [
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
  endpoint({
    method: 'get',
    path: PAGE_TOKEN_PATH,
    tag: 'Analytics',
    summary: "This page load's page-view token: what its `remote_view` and `remote_error` reports to POST /api/events carry to count against a release",
    description:
      'Signed by the site, valid 30 minutes, naming the release of each app this browser gets (its canary side, its preview) and its canary bucket; ' +
      'while a canary runs, a browser without a valid `site_bucket` cookie is given one (signed: a value the site did not sign is ignored). ' +
      'A release report counts only with a valid token, only against a release the token names, at most 1 error and 5 moves inside the site per token ' +
      'and 20 reports a minute per address; browser errors decide health, the errors alert and a canary rollback only once at least 5 distinct visitors (RELEASE_ERROR_MIN_REPORTERS) reported them. ' +
      'Never cached (`no-store`): each page load asks for its own.',
    rateLimits: [PAGE_TOKEN_LIMIT],
    cacheControl: 'no-store',
    responses: {
      200: { description: 'A token for this page load.', body: { schema: pageTokenSchema, example: { token: 'eyJyIjp7ImJsb2ciOiIyLjEuMCJ9LCJiIjpudWxsLCJ0IjoxNzgwMzA4MDAwMDAwLCJuIjoiQUFBQUFBQUFBQUFBQUFBQSJ9.dGhlLXNpZ25hdHVyZS1vZi10aGUtdG9rZW4tZXhhbXBsZQ' } } },
      404: errorResponse('This server issues no page-view tokens.', error('not_found', 'Page-view tokens are not issued here.')),
    },
    handle: async (_input, { pageTokens }, ctx) => {
      if (!pageTokens) throw new NotFoundError('Page-view tokens are not issued here.');
      return { token: await pageTokens.issue(ctx) } satisfies PageToken;
    },
  }),
]);
