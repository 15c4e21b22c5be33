import type { TrackingEvent, TrackingEventName, TrackingProps } from '@site/contracts/events';
// Not @site/contracts/events: its zod schemas would load with the shell on every page.
import { MAX_REMOTE_ERROR_MESSAGE, RELEASE_LABEL, type RemoteErrorKind } from '@site/contracts/events-rules';

const ENDPOINT = '/api/events';
const HEADERS = { 'Content-Type': 'application/json' };

/** How long recordEvent() waits for the API before letting the visitor go on (the request itself goes on). */
export const RECORD_EVENT_WAIT_MS = 2000;

// A remote_error's props are checked by reportRemoteError's caller side (its own fields); the server checks every event.
const eventOf = (name: TrackingEventName, props?: TrackingProps): TrackingEvent => ({ name, props, path: window.location.pathname, at: new Date().toISOString() }) as TrackingEvent;
const eventBody = (name: TrackingEventName, props?: TrackingProps) => JSON.stringify(eventOf(name, props));

/** Events of track() waiting for the frame after the one that answers the visitor's action (see track). */
let queued: TrackingEvent[] = [];
/** At most this many events in one beacon (the API's batch limit is larger). */
const FLUSH_BATCH = 20;

/** Sends the events track() is holding now (the page is closing; a test ends). */
export function flushTrackedEvents(): void {
  flush();
}

function flush(): void {
  const events = queued;
  queued = [];
  for (let i = 0; i < events.length; i += FLUSH_BATCH) {
    const batch = events.slice(i, i + FLUSH_BATCH);
    try {
      send(batch.length === 1 ? JSON.stringify(batch[0]) : JSON.stringify({ events: batch }));
    } catch {
      // Analytics must never break the page.
    }
  }
}

let flushOnHide = false;
/** The task after the next paint (rAF runs before the paint, the task it queues after it); at once without rAF. */
function afterNextPaint(fn: () => void): void {
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') {
    fn();
    return;
  }
  requestAnimationFrame(() => setTimeout(fn, 0));
}

/**
 * False when the visitor asked not to be tracked: Do Not Track (`navigator.doNotTrack === '1'`, or `window.doNotTrack`
 * in old Safari and Edge) or Global Privacy Control (`navigator.globalPrivacyControl`). Then no event is sent at all.
 */
export function trackingAllowed(): boolean {
  if (typeof window === 'undefined') return false;
  const nav = navigator as Navigator & { globalPrivacyControl?: unknown };
  const dnt = nav.doNotTrack ?? (window as Window & { doNotTrack?: unknown }).doNotTrack;
  return dnt !== '1' && nav.globalPrivacyControl !== true;
}

/** A beacon (survives the page closing), or a keepalive POST when the browser has none or refuses it (queue full). */
function send(body: string): void {
  const blob = new Blob([body], { type: 'application/json' });
  if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(ENDPOINT, blob)) return;
  void fetch(ENDPOINT, { method: 'POST', body, keepalive: true, headers: HEADERS }).catch(() => undefined);
}

/**
 * Sends one first-party analytics event. Fire-and-forget: it never throws and never blocks the page
 * (the original site's focus/blur tracking could crash a form; ours must not).
 *
 * The event (its path and time taken now) goes out after the next paint, with any others of the same moment in one
 * beacon: a beacon costs a few milliseconds, several on a slow phone, and sent from the handler of a press they came
 * before the page's answer to it (the analysis form's Analyze sent two). A page closing first sends them on pagehide.
 */
export function track(name: TrackingEventName, props?: TrackingProps): void {
  try {
    if (!trackingAllowed()) return;
    queued.push(eventOf(name, props));
    if (!flushOnHide) {
      flushOnHide = true;
      window.addEventListener('pagehide', () => flush());
    }
    if (queued.length === 1) afterNextPaint(() => flush());
  } catch {
    // Analytics must never break the page.
  }
}

/**
 * Sends events collected earlier (the shell's page-view queue) in one request, `{ events }`, as track() sends one.
 * The caller has checked trackingAllowed() when it collected them; this checks again, and never throws.
 */
export function sendEvents(events: readonly TrackingEvent[]): void {
  try {
    if (events.length === 0 || !trackingAllowed()) return;
    send(JSON.stringify({ events }));
  } catch {
    // Analytics must never break the page.
  }
}

/**
 * Records one event and resolves once the API has answered, for a handler that records, then acts (a city
 * page's buttons: spec section 9). It never rejects and never holds the visitor longer than `waitMs`: a
 * failed or slow request lets the handler go on (a slow one still completes, as a keepalive request).
 */
export async function recordEvent(name: TrackingEventName, props?: TrackingProps, waitMs = RECORD_EVENT_WAIT_MS): Promise<void> {
  if (!trackingAllowed()) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const sent = fetch(ENDPOINT, { method: 'POST', body: eventBody(name, props), keepalive: true, headers: HEADERS });
    await Promise.race([sent, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  } catch {
    // Analytics must never stop the visitor.
  } finally {
    clearTimeout(timer);
  }
}

/** At most this many remote errors are reported per page load (a crash loop must not flood the API). */
export const MAX_REMOTE_ERROR_REPORTS = 5;
const reportedErrors = new Set<string>();

/** What failed, as the remote_error event names it: the remote's entry, one of its code files, or its render. */
export function remoteErrorKind(error: unknown): RemoteErrorKind {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'RemoteLoadError') return 'load';
  // Chromium, Firefox and Safari's words for an import() whose file did not load (a deploy removed it, the network).
  if (name === 'ChunkLoadError' || /dynamically imported module|Importing a module script failed|Loading (?:CSS )?chunk/i.test(message)) return 'chunk';
  return 'render';
}

/**
 * Reports a remote's failure in this browser (its error boundary caught it, or its code did not load), counted on the
 * server against the remote and the release the browser runs (issue 34). Sent as a tracking event, with the first line
 * of the error's message only (never its stack), once per distinct error and at most MAX_REMOTE_ERROR_REPORTS per page
 * load; nothing when the visitor asked not to be tracked. Never throws.
 */
export function reportRemoteError(app: string, release: string, error: unknown): void {
  try {
    if (!RELEASE_LABEL.test(release)) return;
    const kind = remoteErrorKind(error);
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const message = (text.split('\n', 1)[0] ?? '').slice(0, MAX_REMOTE_ERROR_MESSAGE);
    const key = `${app}\n${release}\n${kind}\n${message}`;
    if (reportedErrors.has(key) || reportedErrors.size >= MAX_REMOTE_ERROR_REPORTS) return;
    reportedErrors.add(key);
    track('remote_error', { app, release, kind, message });
  } catch {
    // Reporting must never break the page.
  }
}
