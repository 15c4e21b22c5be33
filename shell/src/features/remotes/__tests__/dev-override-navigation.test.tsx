import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Link, MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { RemotesMap } from '@site/contracts/manifest';
import { DEFAULT_APP_ROUTES } from '@site/contracts/route-ownership';
import { RemoteRouter } from '../components/remote-router';
import { useRemotes } from '../hooks/use-remotes';
import { devOverrideInPage } from '../lib/dev-override';
import { RemoteEnvironmentContext } from '../lib/remote-environment';
import { createRemoteLoader } from '../lib/remote-loader';
import { fakeFederation } from './fake-federation';

/*
 * A development override (issue 52) runs a developer's build of the blog in this page. The admin is never to log in
 * next to that code: while the server's override banner is in the page, a link to the admin's pages loads the page
 * from the server (which serves the admin without the override); without it, the link stays in the page.
 */

const REMOTES: RemotesMap = {
  blog: { entry: 'http://127.0.0.1:5174/mfe/blog/assets/remoteEntry.js', version: '1.0.0', routes: ['/blog'], owns: [...DEFAULT_APP_ROUTES.blog] },
  admin: { entry: '/mfe/admin/assets/remoteEntry.js', version: '1.0.0', routes: ['/admin', '/admin/*'], owns: [...DEFAULT_APP_ROUTES.admin] },
};
const APPS: Record<string, () => ReactElement> = {
  [REMOTES.blog!.entry]: () => <h1>Blog from a laptop</h1>,
  [REMOTES.admin!.entry]: () => <h1>Admin login</h1>,
};

/** The page as the server sent it (loaded at `loadedAt`, with the override's banner or not), then the shell in it. */
async function openPage(loadedAt: string, { banner }: { banner: boolean }) {
  window.history.replaceState(null, '', loadedAt);
  if (banner) document.body.insertAdjacentHTML('afterbegin', '<aside id="dev-override" aria-label="Development override">Development override: blog</aside>');
  const federation = fakeFederation(async (url) => ({ default: APPS[url.replace(/\?.*/, '')] }));
  const load = createRemoteLoader(federation.runtime, 1000);
  await act(async () => {
    render(
      <RemoteEnvironmentContext value={{ load, devOverride: devOverrideInPage() }}>
        <MemoryRouter initialEntries={[loadedAt]}>
          <Link to="/admin?next=posts">Admin</Link>
          <Link to="/blog">Blog</Link>
          <RemoteRouter />
        </MemoryRouter>
      </RemoteEnvironmentContext>,
    );
  });
  return federation;
}

describe('with a development override on, the admin is opened from the server', () => {
  // The browser's full page load, recorded instead of made (the test's window stays where it is).
  let assign: MockInstance<Location['assign']>;
  beforeEach(() => {
    useRemotes.setState({ remotes: REMOTES, error: null });
    assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
  });
  afterEach(() => {
    document.getElementById('dev-override')?.remove();
    vi.restoreAllMocks();
  });

  it('a link to /admin is a full page load, and the admin is not loaded into this page', async () => {
    const { requested } = await openPage('/blog', { banner: true });
    expect(await screen.findByRole('heading', { name: 'Blog from a laptop' })).toBeTruthy();

    await act(() => userEvent.click(screen.getByRole('link', { name: 'Admin' })));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/admin?next=posts'));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toContain('Loading…');
    expect(screen.queryByRole('heading', { name: 'Admin login' })).toBeNull();
    expect(requested.map((url) => url.replace(/\?.*/, ''))).not.toContain(REMOTES.admin!.entry);
  });

  it('without an override, a link to /admin stays in the page', async () => {
    await openPage('/blog', { banner: false });
    await screen.findByRole('heading', { name: 'Blog from a laptop' });

    await act(() => userEvent.click(screen.getByRole('link', { name: 'Admin' })));
    expect(await screen.findByRole('heading', { name: 'Admin login' })).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
  });

  it('other pages stay in the page with an override on, and a page loaded at /admin never reloads itself', async () => {
    await openPage('/admin', { banner: true });
    expect(await screen.findByRole('heading', { name: 'Admin login' })).toBeTruthy();
    await act(() => userEvent.click(screen.getByRole('link', { name: 'Blog' })));
    expect(await screen.findByRole('heading', { name: 'Blog from a laptop' })).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
  });
});
