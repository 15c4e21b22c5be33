import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RemoteArea } from '../components/remote-area';
import { createRemoteLoader } from '../lib/remote-loader';
import { fakeFederation, never } from './fake-federation';

const ENTRY = '/mfe/blog/assets/remoteEntry.js';

function BlogApp() {
  return <h1>AI Automation Blog</h1>;
}

/**
 * The shell around one remote's area: a link outside the area, as the header has. Rendered inside an awaited
 * act(), as React 19 asks of components that suspend on a promise (`use`).
 */
async function renderArea(network: (url: string) => Promise<unknown>, timeoutMs = 1000) {
  const federation = fakeFederation(network);
  const load = createRemoteLoader(federation.runtime, timeoutMs);
  await act(async () => {
    render(
    <MemoryRouter initialEntries={['/blog']}>
      <nav>
        <Link to="/blog/category/case-studies">Case Studies</Link>
      </nav>
      <RemoteArea name="blog" entry={ENTRY} load={load} />
    </MemoryRouter>,
    );
  });
  return federation;
}

/** Clicks Retry; the new attempt suspends, so the click runs in an awaited act() as well. */
const retry = () => act(() => userEvent.click(screen.getByRole('button', { name: 'Retry' })));

describe("a remote's area", () => {
  // The boundary logs what it caught; the tests look at the screen instead.
  beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => vi.restoreAllMocks());

  it('shows a loading state, then the remote', async () => {
    let answer: ((mod: unknown) => void) | undefined;
    await renderArea(() => new Promise((resolve) => (answer = resolve)));
    expect(screen.getByRole('status').textContent).toContain('Loading…');
    await vi.waitFor(() => expect(answer).toBeDefined());
    expect(screen.getByRole('status')).toBeTruthy();
    answer!({ default: BlogApp });
    expect(await screen.findByRole('heading', { name: 'AI Automation Blog' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('a remote that is down shows "temporarily unavailable" with Retry, and Retry loads it once it is back', async () => {
    let up = false;
    const { requested } = await renderArea(async () => {
      if (!up) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: BlogApp };
    });
    const alert = await screen.findByRole('alert');
    expect(screen.getByRole('heading', { name: 'This section is temporarily unavailable' })).toBeTruthy();
    expect(alert.textContent).toContain('The rest of the site still works');
    // The rest of the page stays usable.
    expect(screen.getByRole('link', { name: 'Case Studies' })).toBeTruthy();

    await retry();
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(requested).toHaveLength(2);

    up = true;
    await retry();
    expect(await screen.findByRole('heading', { name: 'AI Automation Blog' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(requested).toEqual([ENTRY, `${ENTRY}?retry=1`, `${ENTRY}?retry=2`]);
  });

  it('a remote that never answers is shown as unavailable after the timeout', async () => {
    // The test's clock: a busy machine cannot run out the timeout before the loading state is looked at.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await renderArea(never, 8000);
      expect(screen.getByRole('status').textContent).toContain('Loading…');
      await act(() => vi.advanceTimersByTimeAsync(7999));
      expect(screen.getByRole('status').textContent).toContain('Loading…');
      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(screen.getByRole('heading', { name: 'This section is temporarily unavailable' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a remote that loaded but crashes while rendering shows the crash screen, not "unavailable"; Try Again renders it again', async () => {
    let crash = true;
    function Crashing() {
      if (crash) throw new Error('Cannot read properties of undefined');
      return <BlogApp />;
    }
    const { requested } = await renderArea(async () => ({ default: Crashing }));
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.queryByText('This section is temporarily unavailable')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();

    crash = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'AI Automation Blog' })).toBeTruthy();
    // The code was fine: trying again re-renders without downloading the remote again.
    expect(requested).toEqual([ENTRY]);
  });

  it('a crash on one page clears when the visitor navigates to another', async () => {
    function CrashesOnBlog() {
      const { pathname } = useLocation();
      if (pathname === '/blog') throw new Error('render crash');
      return <h1>Case Studies</h1>;
    }
    await renderArea(async () => ({ default: CrashesOnBlog }));
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    await userEvent.click(screen.getByRole('link', { name: 'Case Studies' }));
    expect(await screen.findByRole('heading', { name: 'Case Studies' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
