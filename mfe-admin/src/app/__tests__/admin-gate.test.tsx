import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@site/contracts/admin';
import { server } from '../../../../vitest.msw';
import { envelope, loggedIn, loggedOut, makePost, renderAdmin, servePostList, serveSession } from './admin-test-kit';

describe('Admin Access gate', () => {
  it("asks for the required password; a wrong one says 'Incorrect password' and clears the field", async () => {
    serveSession(loggedOut);
    const attempts: string[] = [];
    server.use(
      http.post('/api/admin/login', async ({ request }) => {
        attempts.push(((await request.json()) as { password: string }).password);
        return envelope(401, 'invalid_password', 'Incorrect password');
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Access' })).toBeTruthy();
    const field = screen.getByLabelText(/Password/) as HTMLInputElement;
    expect(field.required).toBe(true);
    expect(field.type).toBe('password');

    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(ADMIN_MESSAGES.passwordRequired)).toBeTruthy();
    expect(attempts).toEqual([]);

    await user.type(field, 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Incorrect password')).toBeTruthy();
    expect(field.value).toBe('');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(attempts).toEqual(['wrong-password']);
  });

  it('opens the panel after a correct password, at the URL asked for, and saves the section in the session', async () => {
    const session = serveSession(loggedOut);
    servePostList([makePost()]);
    server.use(
      http.post('/api/admin/login', () => {
        session.setSession(loggedIn);
        return HttpResponse.json(loggedIn);
      }),
    );
    const user = userEvent.setup({ delay: null });
    const { location } = renderAdmin('/admin/posts');
    await user.type(await screen.findByLabelText(/Password/), 'the-right-one');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Blog Posts' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Admin' });
    for (const name of ['Dashboard', 'Alert Management', 'Blog Posts', 'Create Post', 'Home']) expect(within(nav).getByRole('link', { name })).toBeTruthy();
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Blog Posts' }).getAttribute('aria-current')).toBe('page');
    await waitFor(() => expect(session.saved).toEqual(['posts']));
    expect(location()).toBe('/admin/posts');
  });

  it('/admin opens the section saved in the session', async () => {
    serveSession({ ...loggedIn, activeSection: 'posts' });
    servePostList([]);
    const { location } = renderAdmin('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Blog Posts' })).toBeTruthy();
    expect(location()).toBe('/admin/posts');
  });

  it('after 5 failures the 429 says when to try again and the button waits', async () => {
    serveSession(loggedOut);
    server.use(
      http.post('/api/admin/login', () =>
        HttpResponse.json({ error: { code: 'rate_limited', message: ADMIN_MESSAGES.tooManyAttempts } }, { status: 429, headers: { 'Retry-After': '600' } }),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin');
    await user.type(await screen.findByLabelText(/Password/), 'guess');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(ADMIN_MESSAGES.tooManyAttempts)).toBeTruthy();
    expect(screen.getByText('Try again in 10 minutes.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Sign In' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('without a configured password it says how to set one and nothing can be sent', async () => {
    serveSession({ ...loggedOut, passwordConfigured: false });
    renderAdmin('/admin');
    expect(await screen.findByText(ADMIN_MESSAGES.notConfigured)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Sign In' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('a 401 from any admin call (session expired) returns to the home page', async () => {
    serveSession(loggedIn);
    server.use(http.get('/api/admin/posts', () => envelope(401, 'unauthorized', ADMIN_MESSAGES.sessionRequired)));
    const { location } = renderAdmin('/admin/posts');
    await waitFor(() => expect(location()).toBe('/'));
    expect(await screen.findByText('Your admin session has ended. Please log in again.')).toBeTruthy();
  });

  it('Logout ends the session on the server and returns to the home page', async () => {
    serveSession(loggedIn);
    servePostList([]);
    let loggedOutOnServer = false;
    server.use(
      http.post('/api/admin/logout', () => {
        loggedOutOnServer = true;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    const { location } = renderAdmin('/admin/posts');
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(location()).toBe('/'));
    expect(loggedOutOnServer).toBe(true);
  });
});
