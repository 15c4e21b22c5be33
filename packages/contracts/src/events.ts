import { z } from 'zod';
import { MAX_TRACKED_PATH, MAX_TRACKING_BATCH, REFERRER_CLASSES, TRACKING_EVENTS } from './events-rules';
import { remoteErrorPropsSchema, remoteViewPropsSchema } from './release-errors';

export * from './events-rules';

export const TRACKING_MESSAGES = {
  pathOnly: 'Path must be the path alone, without a query string or #fragment',
  pageViewProps: `A page_view carries one property, referrer: one of ${REFERRER_CLASSES.join(', ')}`,
  batchEmpty: 'Send at least one event',
  batchTooLarge: `Send at most ${MAX_TRACKING_BATCH} events in one request`,
} as const;

const propValue = z.union([z.string().max(200), z.number().finite(), z.boolean(), z.null()]);
const trackingProps = z
  .record(z.string().min(1).max(60), propValue)
  .refine((p) => Object.keys(p).length <= 20, { message: 'At most 20 properties' });

/** The path alone: a query string or fragment can hold what a visitor typed (an e-mail in ?email=…). */
export const trackedPathSchema = z
  .string()
  .min(1)
  .max(MAX_TRACKED_PATH)
  .startsWith('/', { message: 'Path must start with /' })
  .refine((p) => !p.includes('?') && !p.includes('#'), { message: TRACKING_MESSAGES.pathOnly });

const eventFields = {
  path: trackedPathSchema,
  at: z.iso.datetime({ offset: true }).optional(),
};

/** The events of the spec (section 7): a few properties of their own. */
const siteEventSchema = z
  .object({
    name: z.enum(TRACKING_EVENTS).exclude(['remote_view', 'remote_error']),
    props: trackingProps.optional(),
    ...eventFields,
  })
  .superRefine((event, ctx) => {
    // A page view's only property is its referrer class, so no referring URL or other detail is ever stored with it.
    if (event.name !== 'page_view' || !event.props) return;
    for (const [key, value] of Object.entries(event.props)) {
      if (key !== 'referrer' || !(REFERRER_CLASSES as readonly unknown[]).includes(value)) {
        ctx.addIssue({ code: 'custom', path: ['props', key], message: TRACKING_MESSAGES.pageViewProps });
      }
    }
  });

/*
 * A remote's view or failure (issue 34) carries exactly its app and release (a failure: its kind and the message's
 * first line): no stack, nothing else of the page. Counted against the release, never stored as an event.
 */
const remoteViewEventSchema = z.object({ name: z.literal('remote_view'), props: remoteViewPropsSchema, ...eventFields });
const remoteErrorEventSchema = z.object({ name: z.literal('remote_error'), props: remoteErrorPropsSchema, ...eventFields });

export const trackingEventSchema = z.discriminatedUnion('name', [siteEventSchema, remoteViewEventSchema, remoteErrorEventSchema]);
export type TrackingEvent = z.infer<typeof trackingEventSchema>;
/** The properties of a site event (not a remote's view or failure, whose props are their own). */
export type TrackingProps = z.infer<typeof trackingProps>;

/** Several events in one request: what the browser's page-view queue sends on leaving the page. */
export const trackingBatchSchema = z.object({
  events: z.array(trackingEventSchema).min(1, { message: TRACKING_MESSAGES.batchEmpty }).max(MAX_TRACKING_BATCH, { message: TRACKING_MESSAGES.batchTooLarge }),
  /**
   * The page-view token of the page that sent the batch (`GET /page-token.json`, issue 51). A `remote_view` or
   * `remote_error` counts against its release only with a valid one naming that release, a few per token; the other
   * events need none.
   */
  token: z.string().max(1000).optional(),
});
export type TrackingBatch = z.infer<typeof trackingBatchSchema>;

/** `POST /api/events` takes one event or a batch; a body with an `events` field is a batch. */
export const trackingRequestSchema = z.union([trackingBatchSchema, trackingEventSchema]);

/**
 * The answer: `recorded` is how many were stored (a `remote_view` or `remote_error`: counted against its release, which
 * must be one the server serves or served lately; one of another release is accepted and not counted). Events from a crawler, a prefetch or prerender, or a browser that
 * asks not to be tracked (DNT, GPC) are accepted and not stored.
 */
export const trackingAcceptedSchema = z.object({ accepted: z.literal(true), recorded: z.number().int().min(0) });
export type TrackingAccepted = z.infer<typeof trackingAcceptedSchema>;

/** Where a page gets its page-view token (issue 51): the shell asks once per page load, never from a cache. */
export const PAGE_TOKEN_PATH = '/page-token.json';

/**
 * `GET /page-token.json`: a signed page-view token, valid 30 minutes, naming the release of each app this browser gets
 * (its canary side, its preview) and its canary bucket. Opaque to the page: it is sent back with the release reports.
 */
export const pageTokenSchema = z.object({ token: z.string().min(1) });
export type PageToken = z.infer<typeof pageTokenSchema>;
