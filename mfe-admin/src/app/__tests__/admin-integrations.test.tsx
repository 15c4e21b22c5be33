import { fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@site/contracts/webhooks-out';
import { server } from '../../../../vitest.msw';
import { renderAdmin, serveSession } from './admin-test-kit';

/* Issue 24: the Integrations screen's delivery log keeps every attempt of a delivery, against MSW. */

const endpoint: WebhookEndpoint = {
  id: 'ep1',
  url: 'http://127.0.0.1:5678/webhook/leads',
  description: 'n8n leads',
  events: ['lead.created'],
  enabled: true,
  disabledReason: null,
  failingSince: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

const delivery: WebhookDelivery = {
  id: 'd1',
  endpointId: 'ep1',
  eventId: 'evt_1',
  event: 'lead.created',
  createdAt: '2026-11-20T10:01:00.000Z',
  status: 'delivered',
  attempts: 3,
  lastAttemptAt: '2026-11-20T10:02:30.000Z',
  nextAttemptAt: null,
  responseStatus: 200,
  latencyMs: 41,
  responseExcerpt: 'ok',
  redeliveryOf: null,
};

const attempts: WebhookAttempt[] = [
  { attempt: 1, at: '2026-11-20T10:01:00.000Z', outcome: 'retrying', responseStatus: null, latencyMs: 3, responseExcerpt: 'connect ECONNREFUSED 127.0.0.1:5678' },
  { attempt: 2, at: '2026-11-20T10:01:31.000Z', outcome: 'retrying', responseStatus: 503, latencyMs: 12, responseExcerpt: 'n8n is starting' },
  { attempt: 3, at: '2026-11-20T10:02:30.000Z', outcome: 'delivered', responseStatus: 200, latencyMs: 41, responseExcerpt: 'ok' },
];

describe('Integrations delivery log', { timeout: 20_000 }, () => {
  it('shows every attempt of a delivery, oldest first, loaded when opened', async () => {
    serveSession();
    let attemptCalls = 0;
    server.use(
      http.get('/api/admin/webhooks', () => HttpResponse.json({ endpoints: [endpoint] })),
      http.get('/api/admin/webhooks/ep1/deliveries', () => HttpResponse.json({ deliveries: [delivery, { ...delivery, id: 'd2', attempts: 1 }] })),
      http.get('/api/admin/webhooks/ep1/deliveries/d1/attempts', () => {
        attemptCalls += 1;
        return HttpResponse.json({ attempts });
      }),
    );
    renderAdmin('/admin/integrations');
    fireEvent.click(await screen.findByText('Delivery log'));
    const log = await screen.findByRole('list', { name: 'Deliveries, newest first' });
    // Only a delivery tried more than once has a history to open.
    const summaries = within(log).getAllByText(/^All attempts/);
    expect(summaries.map((s) => s.textContent)).toEqual(['All attempts (3)']);
    expect(attemptCalls).toBe(0);

    const summary = summaries[0]!;
    (summary.parentElement as HTMLDetailsElement).open = true;
    fireEvent(summary.parentElement!, new Event('toggle'));
    const list = await screen.findByRole('list', { name: 'Attempts, oldest first' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringMatching(/Attempt 1.*Failed, retried.*No answer · 3 ms.*ECONNREFUSED/),
      expect.stringMatching(/Attempt 2.*Failed, retried.*HTTP 503 · 12 ms.*n8n is starting/),
      expect.stringMatching(/Attempt 3.*Delivered.*HTTP 200 · 41 ms.*ok/),
    ]);
    expect(attemptCalls).toBe(1);
  });
});
