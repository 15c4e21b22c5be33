/*
 * The tracking events' names and limits without zod, for the shell, which loads on every page: importing the schemas
 * there would bring zod into every first visit (and build them before the shell has set zod's CSP-safe mode).
 * ./events re-exports all of it beside the schemas.
 */

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
  // Not in the spec's list: a page of a remote shown after a move inside the site, and a remote's failure in the browser,
  // counted against the remote's release (issue 34), never stored as events.
  'remote_view',
  'remote_error',
] as const;
export type TrackingEventName = (typeof TRACKING_EVENTS)[number];

/**
 * Where a page view came from, as the browser classes `document.referrer` (the referring address itself is never
 * sent): no referrer, this site, a search engine, a social network, anything else.
 */
export const REFERRER_CLASSES = ['direct', 'internal', 'search', 'social', 'other'] as const;
export type ReferrerClass = (typeof REFERRER_CLASSES)[number];

/** Longest `path` an event may carry. */
export const MAX_TRACKED_PATH = 500;

/** Most events one request may carry (the browser sends page views in batches of up to 10). */
export const MAX_TRACKING_BATCH = 20;

/** What a `remote_error` event says failed: a crash its error boundary caught, a code file of it, its remoteEntry.js. */
export const REMOTE_ERROR_KINDS = ['render', 'chunk', 'load'] as const;
export type RemoteErrorKind = (typeof REMOTE_ERROR_KINDS)[number];
/** The longest error message a `remote_error` event carries (its first line, cut). */
export const MAX_REMOTE_ERROR_MESSAGE = 200;
/** A release version as an event names it (the release folder names of the server, at most 64 characters). */
export const RELEASE_LABEL = /^[A-Za-z0-9][\w.+-]{0,63}$/;
