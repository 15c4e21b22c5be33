// @vitest-environment jsdom
// jsdom, not the projects' happy-dom: happy-dom's Request has no keepalive, the property the beacon fallback is tested by.
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '../../../../vitest.msw';
import { recordEvent, sendEvents, track } from '../track';

describe('track()', () => {
  it('sends the event as JSON with the current path through sendBeacon', async () => {
    const beacon = vi.fn((_url: string, _body: Blob) => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    track('scroll_depth', { depth: 50 });
    // Not from the caller's handler: after the next paint.
    expect(beacon).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(beacon).toHaveBeenCalledTimes(1));
    const [url, blob] = beacon.mock.calls[0]!;
    expect(url).toBe('/api/events');
    const body = JSON.parse(await blob.text());
    expect(body).toMatchObject({ name: 'scroll_depth', props: { depth: 50 }, path: window.location.pathname });
  });

  it('sends the events of one moment in one beacon, in order, and at once when the page is hidden', async () => {
    const beacon = vi.fn((_url: string, _body: Blob) => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    track('analysis_started', { mode: 'smb' });
    track('funnel_step', { funnel: 'analysis', step: 'analysis_started', mode: 'smb' });
    await vi.waitFor(() => expect(beacon).toHaveBeenCalledTimes(1));
    const { events } = JSON.parse(await beacon.mock.calls[0]![1].text());
    expect(events.map((e: { name: string }) => e.name)).toEqual(['analysis_started', 'funnel_step']);

    track('time_on_page', { seconds: 5 });
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(2);
    expect(JSON.parse(await beacon.mock.calls[1]![1].text())).toMatchObject({ name: 'time_on_page' });
    // Nothing is sent twice when the timer comes.
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 10)));
    expect(beacon).toHaveBeenCalledTimes(2);
  });

  it('falls back to a keepalive POST when the beacon is refused', async () => {
    Object.defineProperty(navigator, 'sendBeacon', { value: () => false, configurable: true });
    const received = new Promise<Request>((resolve) =>
      server.use(
        http.post('/api/events', ({ request }) => {
          resolve(request);
          return new HttpResponse(null, { status: 202 });
        }),
      ),
    );
    track('time_on_page', { seconds: 30 });
    const request = await received;
    expect(request.keepalive).toBe(true);
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(await request.json()).toMatchObject({ name: 'time_on_page', props: { seconds: 30 } });
  });

  it('never throws, whatever the transport does', async () => {
    Object.defineProperty(navigator, 'sendBeacon', {
      value: () => {
        throw new Error('boom');
      },
      configurable: true,
    });
    expect(() => track('form_field_focus', { field: 'email' })).not.toThrow();
    Object.defineProperty(navigator, 'sendBeacon', { value: () => false, configurable: true });
    let calls = 0;
    server.use(
      http.post('/api/events', () => {
        calls++;
        return HttpResponse.error();
      }),
    );
    expect(() => track('form_field_focus', { field: 'email' })).not.toThrow();
    // The failed request is swallowed (an unhandled rejection would fail the run).
    await vi.waitFor(() => expect(calls).toBe(1));
    await new Promise((r) => setTimeout(r, 10));
  });
});

describe('Do Not Track and Global Privacy Control', () => {
  afterEach(() => {
    Object.defineProperty(navigator, 'doNotTrack', { value: null, configurable: true });
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: undefined, configurable: true });
  });

  it.each([
    ['doNotTrack', '1'],
    ['globalPrivacyControl', true],
  ])('with navigator.%s = %s nothing is sent: no beacon, no request', async (name, value) => {
    Object.defineProperty(navigator, name, { value, configurable: true });
    const beacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    track('scroll_depth', { depth: 50 });
    sendEvents([{ name: 'page_view', path: '/', props: { referrer: 'direct' } }]);
    // Any request would fail the test (MSW answers only what a test declares); this one resolves at once.
    await recordEvent('local_page_click', { page: 'danville_local_page', action: 'ai_automation' }, 10_000);
    expect(beacon).not.toHaveBeenCalled();
  });
});

describe('sendEvents()', () => {
  it('sends a batch as { events } in one beacon', async () => {
    const beacon = vi.fn((_url: string, _body: Blob) => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    const events = [
      { name: 'page_view' as const, path: '/', props: { referrer: 'direct' } },
      { name: 'page_view' as const, path: '/blog', props: { referrer: 'internal' } },
    ];
    sendEvents(events);
    sendEvents([]);
    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, blob] = beacon.mock.calls[0]!;
    expect(url).toBe('/api/events');
    expect(blob.type).toBe('application/json');
    expect(JSON.parse(await blob.text())).toEqual({ events });
  });
});

describe('recordEvent()', () => {
  it('resolves once the API has the event, not before', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const received: unknown[] = [];
    server.use(
      http.post('/api/events', async ({ request }) => {
        received.push(await request.json());
        await answered;
        return new HttpResponse(null, { status: 202 });
      }),
    );
    let done = false;
    const recorded = recordEvent('local_page_click', { page: 'danville_local_page', action: 'ai_automation' }).then(() => (done = true));
    await vi.waitFor(() => expect(received).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    answer();
    await recorded;
    expect(received[0]).toMatchObject({ name: 'local_page_click', props: { page: 'danville_local_page', action: 'ai_automation' } });
  });

  it('resolves when the request fails', async () => {
    server.use(http.post('/api/events', () => HttpResponse.error()));
    await expect(recordEvent('local_page_click', { page: 'x', action: 'y' })).resolves.toBeUndefined();
  });

  it('stops waiting after waitMs when the API does not answer', async () => {
    server.use(http.post('/api/events', () => new Promise<Response>(() => undefined)));
    const started = Date.now();
    await recordEvent('local_page_click', { page: 'x', action: 'y' }, 50);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
