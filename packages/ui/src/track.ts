import type { TrackingEventName, TrackingProps } from '@site/contracts/events';

const ENDPOINT = '/api/events';

/**
 * Sends one first-party analytics event. Fire-and-forget: it never throws and never blocks the page
 * (the original site's focus/blur tracking could crash a form; ours must not).
 */
export function track(name: TrackingEventName, props?: TrackingProps): void {
  try {
    if (typeof window === 'undefined') return;
    const body = JSON.stringify({ name, props, path: window.location.pathname, at: new Date().toISOString() });
    const blob = new Blob([body], { type: 'application/json' });
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(ENDPOINT, blob)) return;
    void fetch(ENDPOINT, {
      method: 'POST',
      body,
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
    }).catch(() => undefined);
  } catch {
    // Analytics must never break the page.
  }
}
