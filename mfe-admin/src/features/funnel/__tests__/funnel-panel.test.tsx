import { render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AdminFunnel, FunnelWindow } from '@site/contracts/admin';
import { server } from '../../../../../vitest.msw';
import { AdminQueryProvider, createAdminQueryClient } from '../../../lib/query-client';
import { FunnelPanel } from '../components/funnel-panel';

/*
 * Issue 54, item 5: the contact step is the leads stored, which may outnumber the analyses (a lead sent by n8n runs no
 * analysis), and a window may hold completions of analyses started the day before it: the figures stay as they are,
 * and the one ratio the panel shows never reads over 100%.
 */

const window = (days: number, counts: Partial<FunnelWindow>): FunnelWindow => ({
  days,
  from: '2026-05-01T00:00:00.000Z',
  to: '2026-05-04T09:00:00.000Z',
  analysesStarted: 0,
  analysesCompleted: 0,
  analysesErrored: 0,
  contactSubmits: 0,
  pageViews: 0,
  topPages: [],
  referrers: { direct: 0, internal: 0, search: 0, social: 0, other: 0 },
  daily: [],
  ...counts,
});

function renderPanel(funnel: AdminFunnel) {
  server.use(http.get('/api/admin/funnel', () => HttpResponse.json(funnel)));
  return render(
    <AdminQueryProvider client={createAdminQueryClient()}>
      <FunnelPanel />
    </AdminQueryProvider>,
  );
}

describe('Visitor funnel panel', () => {
  it('shows the stored leads as contact messages, more than analyses, and no ratio over 100%', async () => {
    renderPanel({ windows: [window(7, { analysesStarted: 4, analysesCompleted: 5, contactSubmits: 9, pageViews: 30 }), window(30, {})] });
    const panel = await screen.findByRole('region', { name: 'Visitor funnel' });
    const chart = await within(panel).findByRole('img');
    const summary = document.getElementById(chart.getAttribute('aria-labelledby')!)!;
    expect(summary.textContent).toContain('4 analyses started, 5 completed (100%), 0 errored, 9 contact messages.');
    // Every ratio shown: the one, at 100%.
    expect([...summary.textContent!.matchAll(/\((\d+)%\)/g)].map((m) => Number(m[1]))).toEqual([100]);
    expect(panel.textContent).toContain('contact messages are those stored in the inbox');
  });
});
