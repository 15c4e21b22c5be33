import { z } from 'zod';

/** Every first-party tracking event the spec names (section 7). Anything else is refused. */
export const TRACKING_EVENTS = [
  'page_view',
  'scroll_depth',
  'time_on_page',
  'form_field_focus',
  'form_field_blur',
  'contact_submitted',
  'scorecard_displayed',
  'scorecard_click',
  'recommendations_view',
  'recommendation_click',
  'analysis_started',
  'analysis_completed',
  'analysis_error',
  'funnel_step',
  'local_page_click',
  'local_services_click',
  'case_study_click',
  'roi_calculated',
] as const;
export type TrackingEventName = (typeof TRACKING_EVENTS)[number];

const propValue = z.union([z.string().max(200), z.number().finite(), z.boolean(), z.null()]);

export const trackingEventSchema = z.object({
  name: z.enum(TRACKING_EVENTS),
  props: z
    .record(z.string().min(1).max(60), propValue)
    .refine((p) => Object.keys(p).length <= 20, { message: 'At most 20 properties' })
    .optional(),
  path: z.string().min(1).max(500).startsWith('/', { message: 'Path must start with /' }),
  at: z.iso.datetime({ offset: true }).optional(),
});
export type TrackingEvent = z.infer<typeof trackingEventSchema>;
export type TrackingProps = NonNullable<TrackingEvent['props']>;
