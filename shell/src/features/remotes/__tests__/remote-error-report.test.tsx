import { act, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trackingEventSchema, type TrackingEvent } from '@site/contracts/events';
import { RemoteArea } from '../components/remote-area';
import { createRemoteLoader } from '../lib/remote-loader';
import { fakeFederation } from './fake-federation';
import { server } from '../../../../../vitest.msw';

/* A remote's failure in the browser is reported with its app and release (issue 34): what the API counts. */

const ENTRY = '/mfe/blog/assets/remoteEntry.js';
let beacon: ReturnType<typeof vi.fn<(url: string, body: Blob) => boolean>>;

/** The events beaconed, once the report has gone out (track() sends after the next paint). */
async function sent(): Promise<TrackingEvent[]> {
  await vi.waitFor(() => expect(beacon).toHaveBeenCalled());
  const bodies = await Promise.all(beacon.mock.calls.map(async ([, blob]) => JSON.parse(await blob.text()) as TrackingEvent | { events: TrackingEvent[]; token?: string }));
  // A report counts on the server only with the page-view token the page was issued (issue 51): it carries it.
  for (const b of bodies) if ('events' in b && b.events.some((e) => e.name === 'remote_error')) expect(b.token).toBe('the-page-token');
  return bodies.flatMap((b) => ('events' in b ? b.events : [b]));
}

async function renderArea(network: () => Promise<unknown>) {
  const federation = fakeFederation(network);
  await act(async () => {
    render(
      <MemoryRouter initialEntries={['/blog']}>
        <RemoteArea name="blog" entry={ENTRY} version="2.2.0-throws" load={createRemoteLoader(federation.runtime, 1000)} />
      </MemoryRouter>,
    );
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  beacon = vi.fn((_url: string, _body: Blob) => true);
  Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
  Object.defineProperty(navigator, 'doNotTrack', { value: null, configurable: true });
  server.use(http.get('/page-token.json', () => HttpResponse.json({ token: 'the-page-token' })));
});
afterEach(() => vi.restoreAllMocks());

describe("a remote's failure in the browser", () => {
  it('a crash shows "Something went wrong" and reports remote_error with the app, the release and the first line only', async () => {
    function Crashing(): never {
      throw new TypeError("Cannot read properties of undefined (reading 'title')\n    at Post (post.tsx:12:3)");
    }
    await renderArea(async () => ({ default: Crashing }));
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    const events = (await sent()).filter((e) => e.name === 'remote_error');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      path: '/',
      props: { app: 'blog', release: '2.2.0-throws', kind: 'render', message: "TypeError: Cannot read properties of undefined (reading 'title')" },
    });
    // What the API's contract accepts, as sent.
    expect(trackingEventSchema.safeParse(events[0]).success).toBe(true);
  });

  it('a code file that does not load is reported as its load failure', async () => {
    await renderArea(async () => {
      throw new TypeError('Failed to fetch dynamically imported module: /mfe/blog/assets/post-abc123.js');
    });
    expect(await screen.findByRole('heading', { name: 'This section is temporarily unavailable' })).toBeTruthy();
    const [event] = (await sent()).filter((e) => e.name === 'remote_error');
    expect(event).toMatchObject({ props: { app: 'blog', release: '2.2.0-throws', kind: 'load' } });
    expect((event!.props as { message: string }).message).toContain('Failed to fetch dynamically imported module');
  });
});
