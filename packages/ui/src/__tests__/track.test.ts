import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../../../vitest.setup-dom';
import { recordEvent, track } from '../track';

describe('track()', () => {
  it('sends the event as JSON with the current path through sendBeacon', async () => {
    const beacon = vi.fn((_url: string, _body: Blob) => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    track('scroll_depth', { depth: 50 });
    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, blob] = beacon.mock.calls[0]!;
    expect(url).toBe('/api/events');
    const body = JSON.parse(await blob.text());
    expect(body).toMatchObject({ name: 'scroll_depth', props: { depth: 50 }, path: window.location.pathname });
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
