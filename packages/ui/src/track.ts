import type { TrackingEventName, TrackingProps } from '@site/contracts/events';

const ENDPOINT = '/api/events';
const HEADERS = { 'Content-Type': 'application/json' };

/** How long recordEvent() waits for the API before letting the visitor go on (the request itself goes on). */
export const RECORD_EVENT_WAIT_MS = 2000;

const eventBody = (name: TrackingEventName, props?: TrackingProps) =>
  JSON.stringify({ name, props, path: window.location.pathname, at: new Date().toISOString() });

/**
 * Sends one first-party analytics event. Fire-and-forget: it never throws and never blocks the page
 * (the original site's focus/blur tracking could crash a form; ours must not).
 */
export function track(name: TrackingEventName, props?: TrackingProps): void {
  try {
    if (typeof window === 'undefined') return;
    const body = eventBody(name, props);
    const blob = new Blob([body], { type: 'application/json' });
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(ENDPOINT, blob)) return;
    void fetch(ENDPOINT, { method: 'POST', body, keepalive: true, headers: HEADERS }).catch(() => undefined);
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
  if (typeof window === 'undefined') return;
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
