import { render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ReleaseErrors } from '@site/contracts/release-errors';
import { server } from '../../../../../vitest.msw';
import { AdminQueryProvider, createAdminQueryClient } from '../../../lib/query-client';
import { ReleaseErrorsPanel } from '../components/release-errors-panel';

/* The dashboard's errors per release: what the owner reads of each remote's release, from GET /api/admin/release-errors. */

const HOSTILE = '<img src=x onerror="window.__pwned=1"> TypeError: post.title is undefined';

const answer: ReleaseErrors = {
  windowMinutes: 15,
  threshold: { rate: 0.02, minPageViews: 20 },
  releases: [
    {
      app: 'blog',
      release: '2.2.0-throws',
      served: true,
      window: { pageViews: 40, renderErrors: 30, clientErrors: 12, rate: 1.05 },
      day: { pageViews: 1250, renderErrors: 30, clientErrors: 14, rate: 44 / 1250 },
      failing: true,
      lastError: HOSTILE,
    },
    {
      app: 'blog',
      release: '2.1.0',
      served: false,
      window: { pageViews: 0, renderErrors: 0, clientErrors: 0, rate: null },
      day: { pageViews: 3400, renderErrors: 1, clientErrors: 16, rate: 17 / 3400 },
      failing: false,
      lastError: null,
    },
  ],
};

function renderPanel() {
  return render(
    <AdminQueryProvider client={createAdminQueryClient()}>
      <ReleaseErrorsPanel />
    </AdminQueryProvider>,
  );
}

describe('Errors per release panel', () => {
  it('shows per release the page views, render errors, client errors and rate, and which are failing', async () => {
    server.use(http.get('/api/admin/release-errors', () => HttpResponse.json(answer)));
    renderPanel();
    const panel = await screen.findByRole('region', { name: 'Errors per release' });
    expect(await within(panel).findByText('1 release failing')).toBeTruthy();
    expect(within(panel).getByText(/A release is failing at 2% or more over at least 20 page views in 15 minutes/)).toBeTruthy();

    const items = within(panel).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [bad, previous] = items as [HTMLElement, HTMLElement];
    expect(within(bad).getByText('2.2.0-throws')).toBeTruthy();
    expect(within(bad).getByText('Served')).toBeTruthy();
    expect(within(bad).getByText('Failing')).toBeTruthy();
    // Figures of the window, then of the day: page views, render errors, client errors, rate.
    const figures = (label: string) =>
      within(within(bad).getByText(label).parentElement!)
        .getAllByRole('definition')
        .map((d) => d.textContent);
    expect(figures('Last 15 minutes')).toEqual(['40', '30', '12', '105%']);
    expect(figures('Last 24 hours')).toEqual(['1,250', '30', '14', '3.5%']);
    expect(within(previous).getByText('OK')).toBeTruthy();
    expect(within(previous).queryByText('Served')).toBeNull();
    expect(within(within(previous).getByText('Last 15 minutes').parentElement!).getAllByRole('definition').map((d) => d.textContent)).toEqual(['0', '0', '0', '–']);
  });

  it('shows a visitor’s error message as text, never as markup', async () => {
    server.use(http.get('/api/admin/release-errors', () => HttpResponse.json(answer)));
    const { container } = renderPanel();
    const message = await screen.findByText(HOSTILE);
    expect(message.tagName).toBe('CODE');
    expect(container.querySelector('img')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });
});
