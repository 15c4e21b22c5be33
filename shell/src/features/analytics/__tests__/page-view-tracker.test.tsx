// @vitest-environment jsdom
// jsdom, not the projects' happy-dom: happy-dom's Request has no keepalive (the beacon fallback) and its pageshow from the back/forward cache differs.
import { act, render } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { StrictMode, useEffect, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes, useNavigate, type NavigateFunction } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TrackingEvent } from '@site/contracts/events';
import { NotFound, useNotFoundSignal } from '@site/ui';
import { server } from '../../../../../vitest.msw';
import { usePageViews } from '../hooks/use-page-views';
import { createPageViewTracker, PAGE_VIEW_BATCH, PAGE_VIEW_FLUSH_MS, type PageViewTracker } from '../lib/page-view-tracker';
import { referrerClass } from '../lib/referrer-class';

type Beacon = ReturnType<typeof vi.fn<(url: string, body: Blob) => boolean>>;

let beacon: Beacon;
let tracker: PageViewTracker;
let navigate: NavigateFunction;

function setNavigator(name: string, value: unknown) {
  Object.defineProperty(navigator, name, { value, configurable: true });
}
function setDocument(name: string, value: unknown) {
  Object.defineProperty(document, name, { value, configurable: true });
}

/** Every page_view the beacon carried, in order, as [path, referrer class]. */
async function beaconViews(): Promise<[string, unknown][]> {
  const batches = await Promise.all(beacon.mock.calls.map(async ([url, blob]) => {
    expect(url).toBe('/api/events');
    expect(blob.type).toBe('application/json');
    return (JSON.parse(await blob.text()) as { events: TrackingEvent[] }).events;
  }));
  return batches.flat().map((e) => [e.path, (e.props as { referrer?: string } | undefined)?.referrer]);
}

function Site() {
  usePageViews(tracker);
  const routerNavigate = useNavigate();
  useEffect(() => {
    navigate = routerNavigate;
  }, [routerNavigate]);
  return null;
}

const site = (path = '/') => (
  <StrictMode>
    <MemoryRouter initialEntries={[path]}>
      <Site />
    </MemoryRouter>
  </StrictMode>
);

const leave = () => act(() => void window.dispatchEvent(new Event('pagehide')));

beforeEach(() => {
  beacon = vi.fn((_url: string, _body: Blob) => true);
  setNavigator('sendBeacon', beacon);
  setNavigator('doNotTrack', null);
  setNavigator('globalPrivacyControl', undefined);
  setDocument('referrer', '');
  setDocument('prerendering', false);
  tracker = createPageViewTracker();
});

afterEach(() => {
  tracker.dispose();
  vi.useRealTimers();
});

describe('page views', () => {
  it('counts the first page once under StrictMode, and each client-side route change, sent on pagehide in one beacon', async () => {
    render(site('/local-services'));
    await act(() => navigate('/case-studies/danville-restaurant-automation'));
    await act(() => navigate('/blog'));
    expect(beacon).not.toHaveBeenCalled();
    leave();
    expect(beacon).toHaveBeenCalledTimes(1);
    expect(await beaconViews()).toEqual([
      ['/local-services', 'direct'],
      ['/case-studies/danville-restaurant-automation', 'internal'],
      ['/blog', 'internal'],
    ]);
  });

  it('counts a server-rendered page once when it hydrates', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(site('/blog'));
    document.body.append(container);
    const root = await act(async () => hydrateRoot(container, site('/blog')));
    leave();
    expect(await beaconViews()).toEqual([['/blog', 'direct']]);
    act(() => root.unmount());
    container.remove();
  });

  it('keeps counting where it was when the shell remounts (an error boundary reset): the same page is not a new view', async () => {
    const first = render(site('/roi-calculator'));
    first.unmount();
    render(site('/roi-calculator'));
    leave();
    expect(await beaconViews()).toEqual([['/roi-calculator', 'direct']]);
  });

  it('counts Back and Forward to another page, but not a #section link, a query change or the same path again', async () => {
    render(site('/'));
    await act(() => navigate('/blog'));
    await act(() => navigate('/blog?q=chatbots', { replace: true }));
    await act(() => navigate('/blog#latest'));
    await act(() => navigate('/blog'));
    await act(() => navigate(-1));
    await act(() => navigate(-1));
    await act(() => navigate(-1));
    await act(() => navigate(3));
    leave();
    expect(await beaconViews()).toEqual([
      ['/', 'direct'],
      ['/blog', 'internal'],
      ['/', 'internal'],
      ['/blog', 'internal'],
    ]);
  });

  it("does not count the owner's admin pages", async () => {
    render(site('/admin/dashboard'));
    await act(() => navigate('/admin/posts'));
    await act(() => navigate('/'));
    leave();
    expect(await beaconViews()).toEqual([['/', 'internal']]);
  });

  it('counts a page brought back from the back/forward cache', async () => {
    render(site('/roi-calculator'));
    leave();
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false }));
    leave();
    expect(await beaconViews()).toEqual([
      ['/roi-calculator', 'direct'],
      ['/roi-calculator', 'internal'],
    ]);
  });

  it.each([
    ['Do Not Track', () => setNavigator('doNotTrack', '1')],
    ['Global Privacy Control', () => setNavigator('globalPrivacyControl', true)],
  ])('sends nothing at all when the browser asks for %s', async (_name, optOut) => {
    optOut();
    // Any request would fail the test (MSW answers only what a test declares).
    render(site('/'));
    await act(() => navigate('/blog'));
    leave();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacon).not.toHaveBeenCalled();
  });

  it('waits while the page is prerendered, and counts it once the visitor opens it', async () => {
    setDocument('prerendering', true);
    render(site('/free-analysis'));
    leave();
    expect(beacon).not.toHaveBeenCalled();
    setDocument('prerendering', false);
    document.dispatchEvent(new Event('prerenderingchange'));
    leave();
    expect(await beaconViews()).toEqual([['/free-analysis', 'direct']]);
  });

  it('classes the referrer of the first page, never sending the address', async () => {
    setDocument('referrer', 'https://www.google.co.uk/search?q=ada+lovelace+danville');
    render(site('/'));
    leave();
    const [, blob] = beacon.mock.calls[0]!;
    const text = await blob.text();
    expect(text).not.toContain('google');
    expect(text).not.toContain('ada');
    expect(await beaconViews()).toEqual([['/', 'search']]);
  });
});

describe('pages that were not found', () => {
  /** A report page whose data answers 404 a moment after it opens (as /free-analysis/report/<unknown id> does). */
  function LateReport({ answer }: { answer: Promise<'found' | 'not_found'> }) {
    const [state, setState] = useState<'loading' | 'found' | 'not_found'>('loading');
    useEffect(() => void answer.then(setState), [answer]);
    useNotFoundSignal(state === 'not_found');
    return <p>{state}</p>;
  }

  const routed = (path: string, answer: Promise<'found' | 'not_found'>) => (
    <StrictMode>
      <MemoryRouter initialEntries={[path]}>
        <Site />
        <Routes>
          <Route path="/blog" element={<p>Blog</p>} />
          <Route path="/report/:id" element={<LateReport answer={answer} />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </MemoryRouter>
    </StrictMode>
  );

  it('counts neither an unknown path nor a report whose data answered 404, only the pages that were there', async () => {
    let answer!: (value: 'found' | 'not_found') => void;
    const report = new Promise<'found' | 'not_found'>((resolve) => (answer = resolve));
    render(routed('/no-such-page', report));
    await act(() => navigate('/blog'));
    await act(() => navigate('/report/garbage'));
    await act(async () => answer('not_found'));
    await act(() => navigate('/blog'));
    leave();
    expect(await beaconViews()).toEqual([
      ['/blog', 'internal'],
      ['/blog', 'internal'],
    ]);
  });

  it('counts a report that was found', async () => {
    render(routed('/report/abc', Promise.resolve('found')));
    await act(async () => undefined);
    leave();
    expect(await beaconViews()).toEqual([['/report/abc', 'direct']]);
  });
});

describe('page view batches', () => {
  it(`sends at once when ${PAGE_VIEW_BATCH} views are queued`, async () => {
    render(site('/p/0'));
    for (let i = 1; i < PAGE_VIEW_BATCH; i++) await act(() => navigate(`/p/${i}`));
    expect(beacon).toHaveBeenCalledTimes(1);
    expect(await beaconViews()).toHaveLength(PAGE_VIEW_BATCH);
    await act(() => navigate('/p/next'));
    leave();
    expect(beacon).toHaveBeenCalledTimes(2);
  });

  it(`sends what is queued ${PAGE_VIEW_FLUSH_MS / 1000} s after the first view, and when the tab is hidden`, async () => {
    vi.useFakeTimers();
    render(site('/'));
    await act(() => navigate('/blog'));
    vi.advanceTimersByTime(PAGE_VIEW_FLUSH_MS - 1);
    expect(beacon).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(beacon).toHaveBeenCalledTimes(1);

    await act(() => navigate('/roi-calculator'));
    setDocument('visibilityState', 'visible');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacon).toHaveBeenCalledTimes(1);
    setDocument('visibilityState', 'hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(beacon).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(PAGE_VIEW_FLUSH_MS * 2);
    expect(beacon).toHaveBeenCalledTimes(2);
    setDocument('visibilityState', 'visible');
    expect(await beaconViews()).toEqual([
      ['/', 'direct'],
      ['/blog', 'internal'],
      ['/roi-calculator', 'internal'],
    ]);
  });

  it('falls back to a keepalive POST of the same batch when the beacon is refused', async () => {
    setNavigator('sendBeacon', () => false);
    const received = new Promise<Request>((resolve) =>
      server.use(
        http.post('/api/events', ({ request }) => {
          resolve(request);
          return HttpResponse.json({ accepted: true, recorded: 2 }, { status: 202 });
        }),
      ),
    );
    render(site('/'));
    await act(() => navigate('/blog'));
    leave();
    const request = await received;
    expect(request.keepalive).toBe(true);
    expect(request.headers.get('content-type')).toBe('application/json');
    const body = (await request.json()) as { events: TrackingEvent[] };
    expect(body.events.map((e) => [e.name, e.path, e.props])).toEqual([
      ['page_view', '/', { referrer: 'direct' }],
      ['page_view', '/blog', { referrer: 'internal' }],
    ]);
  });
});

describe('referrerClass', () => {
  const own = 'https://eastbay.example';
  it.each([
    ['', 'direct'],
    ['https://eastbay.example/blog/some-post', 'internal'],
    ['https://www.google.com/', 'search'],
    ['https://www.google.co.uk/', 'search'],
    ['https://www.bing.com/search?q=x', 'search'],
    ['https://duckduckgo.com/', 'search'],
    ['https://search.yahoo.co.jp/', 'search'],
    ['https://search.brave.com/', 'search'],
    ['android-app://com.google.android.googlequicksearchbox/', 'search'],
    ['https://l.facebook.com/', 'social'],
    ['https://www.linkedin.com/', 'social'],
    ['https://t.co/abc', 'social'],
    ['https://nextdoor.com/p/xyz', 'social'],
    ['https://www.pinterest.fr/', 'social'],
    ['android-app://com.linkedin.android/', 'social'],
    ['https://www.yelp.com/biz/x', 'other'],
    ['https://eastbay.example.evil.test/', 'other'],
    ['https://notgoogle.com/', 'other'],
    ['http://eastbay.example/', 'other'],
    ['not a url', 'other'],
  ])('%s is %s', (referrer, expected) => {
    expect(referrerClass(referrer, own)).toBe(expected);
  });
});

describe('views of a remote’s release', () => {
  it('a move inside the site to a remote’s page is also a remote_view of its release, sent with the page’s token; the first page is the server’s to count', async () => {
    // The page-view token the server issues for this page load (issue 51): asked for as the first remote_view is queued.
    const asked = vi.fn();
    server.use(
      http.get('/page-token.json', () => {
        asked();
        return HttpResponse.json({ token: 'the-page-token' });
      }),
    );
    const blog = { app: 'blog' as const, release: '2.1.0' };
    tracker.navigated('/blog', blog);
    expect(asked).not.toHaveBeenCalled();
    tracker.navigated('/', { app: 'marketing', release: '1.0.0' });
    tracker.navigated('/blog/a-post', blog);
    tracker.navigated('/admin/posts', { app: 'admin', release: '3.0.0' });
    await vi.waitFor(() => expect(asked).toHaveBeenCalledTimes(1));
    tracker.flush();
    await vi.waitFor(() => expect(beacon).toHaveBeenCalled());
    const bodies = await Promise.all(beacon.mock.calls.map(async ([, blob]) => JSON.parse(await blob.text()) as { events: TrackingEvent[]; token?: string }));
    expect(bodies.map((b) => b.token)).toEqual(['the-page-token']);
    const events = bodies.flatMap((b) => b.events);
    expect(events.filter((e) => e.name === 'remote_view').map((e) => [e.path, e.props])).toEqual([
      ['/', { app: 'marketing', release: '1.0.0' }],
      ['/blog/a-post', { app: 'blog', release: '2.1.0' }],
    ]);
  });
});
