import { afterEach, describe, expect, it, vi } from 'vitest';
import { track } from '../track';

describe('track()', () => {
  afterEach(() => vi.unstubAllGlobals());

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

  it('falls back to fetch with keepalive when the beacon is refused', () => {
    Object.defineProperty(navigator, 'sendBeacon', { value: () => false, configurable: true });
    const fetchMock = vi.fn(() => Promise.resolve(new Response(null, { status: 202 })));
    vi.stubGlobal('fetch', fetchMock);
    track('time_on_page', { seconds: 30 });
    expect(fetchMock).toHaveBeenCalledWith('/api/events', expect.objectContaining({ method: 'POST', keepalive: true }));
  });

  it('never throws, whatever the transport does', () => {
    Object.defineProperty(navigator, 'sendBeacon', {
      value: () => {
        throw new Error('boom');
      },
      configurable: true,
    });
    vi.stubGlobal('fetch', () => Promise.reject(new Error('offline')));
    expect(() => track('form_field_focus', { field: 'email' })).not.toThrow();
  });
});
