import { z } from 'zod';
import { MAX_TRACKED_PATH, MAX_TRACKING_BATCH, REFERRER_CLASSES, TRACKING_EVENTS } from './events-rules';

export * from './events-rules';

export const TRACKING_MESSAGES = {
  pathOnly: 'Path must be the path alone, without a query string or #fragment',
  pageViewProps: `A page_view carries one property, referrer: one of ${REFERRER_CLASSES.join(', ')}`,
  batchEmpty: 'Send at least one event',
  batchTooLarge: `Send at most ${MAX_TRACKING_BATCH} events in one request`,
} as const;

const propValue = z.union([z.string().max(200), z.number().finite(), z.boolean(), z.null()]);

export const trackingEventSchema = z
  .object({
    name: z.enum(TRACKING_EVENTS),
    props: z
      .record(z.string().min(1).max(60), propValue)
      .refine((p) => Object.keys(p).length <= 20, { message: 'At most 20 properties' })
      .optional(),
    // The path alone: a query string or fragment can hold what a visitor typed (an e-mail in ?email=…).
    path: z
      .string()
      .min(1)
      .max(MAX_TRACKED_PATH)
      .startsWith('/', { message: 'Path must start with /' })
      .refine((p) => !p.includes('?') && !p.includes('#'), { message: TRACKING_MESSAGES.pathOnly }),
    at: z.iso.datetime({ offset: true }).optional(),
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
export type TrackingEvent = z.infer<typeof trackingEventSchema>;
export type TrackingProps = NonNullable<TrackingEvent['props']>;

/** Several events in one request: what the browser's page-view queue sends on leaving the page. */
export const trackingBatchSchema = z.object({
  events: z.array(trackingEventSchema).min(1, { message: TRACKING_MESSAGES.batchEmpty }).max(MAX_TRACKING_BATCH, { message: TRACKING_MESSAGES.batchTooLarge }),
});
export type TrackingBatch = z.infer<typeof trackingBatchSchema>;

/** `POST /api/events` takes one event or a batch; a body with an `events` field is a batch. */
export const trackingRequestSchema = z.union([trackingBatchSchema, trackingEventSchema]);

/**
 * The answer: `recorded` is how many were stored. Events from a crawler, a prefetch or prerender, or a browser that
 * asks not to be tracked (DNT, GPC) are accepted and not stored.
 */
export const trackingAcceptedSchema = z.object({ accepted: z.literal(true), recorded: z.number().int().min(0) });
export type TrackingAccepted = z.infer<typeof trackingAcceptedSchema>;
