import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useEngagementTracking } from '../hooks/use-engagement-tracking';

const sent = () =>
  beacon.mock.calls.map(([, blob]) => blob as Blob);
let beacon: ReturnType<typeof vi.fn>;

type Sent = { name: string; props: Record<string, unknown> };
/** Every event sent, one per beacon or several in a batch (track() sends the events of one moment together). */
async function events() {
  const bodies = await Promise.all(sent().map(async (b) => JSON.parse(await b.text()) as Sent | { events: Sent[] }));
  return bodies.flatMap((body) => ('events' in body ? body.events : [body]));
}

describe('useEngagementTracking', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    beacon = vi.fn(() => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    Object.defineProperty(document.documentElement, 'scrollHeight', { value: 2000, configurable: true });
    Object.defineProperty(window, 'innerHeight', { value: 1000, configurable: true });
  });
  afterEach(() => vi.useRealTimers());

  const scrollTo = (y: number) => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    window.dispatchEvent(new Event('scroll'));
    vi.advanceTimersByTime(20);
  };

  it('sends each scroll depth and each time mark once per page view', async () => {
    renderHook(() => useEngagementTracking('home'));
    scrollTo(300);
    scrollTo(600);
    scrollTo(100);
    scrollTo(950);
    scrollTo(1000);
    vi.advanceTimersByTime(130_000);
    const got = await events();
    expect(got.filter((e) => e.name === 'scroll_depth').map((e) => e.props.depth)).toEqual([25, 50, 75, 90]);
    expect(got.filter((e) => e.name === 'time_on_page').map((e) => e.props.seconds)).toEqual([30, 60, 120]);
  });

  it('stops when the page is left', async () => {
    const { unmount } = renderHook(() => useEngagementTracking('home'));
    vi.advanceTimersByTime(31_000);
    unmount();
    vi.advanceTimersByTime(100_000);
    scrollTo(1000);
    expect((await events()).map((e) => e.name)).toEqual(['time_on_page']);
  });
});
