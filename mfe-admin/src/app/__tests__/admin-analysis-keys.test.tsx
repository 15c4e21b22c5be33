import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AdminHealth } from '@site/contracts/admin';
import { server } from '../../../../vitest.msw';
import { renderAdmin, serveSession } from './admin-test-kit';

/* Issue 20: the dashboard tells the owner which keys turn the analysis tool's sample data into real data. */

const now = new Date().toISOString();

function serveDashboard(health: AdminHealth) {
  const period = (days: number) => ({ days, from: now, to: now, analysesStarted: 0, analysesCompleted: 0, analysesErrored: 0, contactSubmits: 0, pageViews: 0, topPages: [], daily: [] });
  server.use(
    http.get('/api/admin/health', () => HttpResponse.json(health)),
    http.get('/api/admin/funnel', () => HttpResponse.json({ windows: [period(7), period(30)] })),
    http.get('/api/admin/leads', () => HttpResponse.json({ leads: [], total: 0, limit: 25, nextCursor: null, prevCursor: null, unread: 0, counts: { all: 0, unread: 0, read: 0, handled: 0, open: 0 } })),
    http.get('/api/admin/traffic', () => HttpResponse.json({ windowMinutes: 60, entries: [], totals: { addresses: 0, requests: 0, suspicious: 0, legitimate: 0 } })),
    http.get('/api/admin/docker', () => HttpResponse.json({ available: false, reason: 'The Docker socket is not mounted.' })),
    http.get('/api/admin/vulnerabilities', () => HttpResponse.json({ available: false, reason: 'No audit report.' })),
    http.get('/api/admin/deploys', () => HttpResponse.json({ entries: [], nextCursor: null })),
  );
}

describe('Dashboard: analysis tool data', { timeout: 20_000 }, () => {
  it('names each key that turns sample data into real data and whether it is set', async () => {
    serveSession();
    serveDashboard({
      status: 'ok',
      checkedAt: now,
      checks: [],
      analysisData: [
        { key: 'GOOGLE_PLACES_API_KEY', provides: 'Google Business Profile, rating, reviews and local competitors', configured: true },
        { key: 'YELP_API_KEY', provides: 'Yelp listing, rating and reviews', configured: false },
      ],
    });
    renderAdmin('/admin/dashboard');
    const panel = await screen.findByRole('region', { name: 'Health checks' });
    expect(await within(panel).findByText('Analysis tool data')).toBeTruthy();
    const google = within(panel).getByText('GOOGLE_PLACES_API_KEY').closest('li')!;
    expect(within(google).getByText('Configured: real data')).toBeTruthy();
    const yelp = within(panel).getByText('YELP_API_KEY').closest('li')!;
    expect(within(yelp).getByText('Not set: sample data')).toBeTruthy();
  });
});
