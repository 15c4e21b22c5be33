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

function flush(closing = true): void {
  const events = queued;
  queued = [];
  for (let i = 0; i < events.length; i += FLUSH_BATCH) {
    const batch = events.slice(i, i + FLUSH_BATCH);
    try {
      sendBatch(batch, closing);
    } catch {
      // Analytics must never break the page.
    }
  }
}

/*
 * The page-view token (issue 51): a report of a remote's view or failure (`remote_view`, `remote_error`) counts against
 * its release only with the token the server issued for this page load (`GET /page-token.json`, never cached), so a
 * script cannot count made-up reports. Asked for once, when the page first has such a report to make; other events
 * need none and never wait for it.
 */
const PAGE_TOKEN_PATH = '/page-token.json';
/** A token lasts 30 minutes on the server: a page open longer asks for a new one. */
const PAGE_TOKEN_REFRESH_MS = 25 * 60_000;
/** How long a report waits for the token before it goes without (then it is accepted and not counted). */
const PAGE_TOKEN_WAIT_MS = 3000;
let pageToken: { value: string; at: number } | undefined;
let tokenRequest: Promise<string | undefined> | undefined;

const isReleaseEvent = (event: TrackingEvent) => event.name === 'remote_view' || event.name === 'remote_error';
const currentToken = () => (pageToken && Date.now() - pageToken.at < PAGE_TOKEN_REFRESH_MS ? pageToken.value : undefined);

/** Asks the server for this page load's page-view token, once (again when it is old or the last ask failed). Never rejects. */
export function preparePageToken(): Promise<string | undefined> {
  const fresh = currentToken();
  if (fresh) return Promise.resolve(fresh);
  tokenRequest ??= fetch(PAGE_TOKEN_PATH, { credentials: 'same-origin', cache: 'no-store' })
    .then(async (response) => {
      const body = response.ok ? ((await response.json()) as { token?: unknown }) : undefined;
      if (typeof body?.token !== 'string') return undefined;
      pageToken = { value: body.token, at: Date.now() };
      return body.token;
    })
    .catch(() => undefined)
    .finally(() => {
      tokenRequest = undefined;
    });
  return tokenRequest;
}

/**
 * Sends a batch: one event alone as itself, several as `{ events }`; with release reports, `{ events, token }`. While
 * the page is closing (`closing`) nothing waits: a report without its token is sent all the same (and not counted).
 */
function sendBatch(events: readonly TrackingEvent[], closing: boolean): void {
  if (!events.some(isReleaseEvent)) {
    send(events.length === 1 ? JSON.stringify(events[0]) : JSON.stringify({ events }));
    return;
  }
  const token = currentToken();
  if (token || closing) {
    send(JSON.stringify(token ? { events, token } : { events }));
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), PAGE_TOKEN_WAIT_MS);
  });
  void Promise.race([preparePageToken(), waited]).then((got) => {
    clearTimeout(timer);
    try {
      send(JSON.stringify(got ? { events, token: got } : { events }));
    } catch {
      // Analytics must never break the page.
    }
  });
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
    if (queued.length === 1) afterNextPaint(() => flush(document.visibilityState === 'hidden'));
  } catch {
    // Analytics must never break the page.
  }
}

/**
 * Sends events collected earlier (the shell's page-view queue) in one request, `{ events }`, as track() sends one.
 * The caller has checked trackingAllowed() when it collected them; this checks again, and never throws.
 */
export function sendEvents(events: readonly TrackingEvent[], closing = typeof document !== 'undefined' && document.visibilityState === 'hidden'): void {
  try {
    if (events.length === 0 || !trackingAllowed()) return;
    if (events.some(isReleaseEvent)) sendBatch(events, closing);
    else send(JSON.stringify({ events }));
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
    // Its token is asked for now: the report waits for it (or the page closing sends it without).
    void preparePageToken();
    track('remote_error', { app, release, kind, message });
  } catch {
    // Reporting must never break the page.
  }
}
