import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AdminFunnel, AdminHealth, AdminLeadList, AdminTraffic, TrafficEntry } from '@site/contracts/admin';
import type { DeployLogPage } from '@site/contracts/deploys';
import { server } from '../../../../vitest.msw';
import { renderAdmin, serveSession } from './admin-test-kit';

const now = new Date().toISOString();
const entry = (address: string, classification: TrafficEntry['classification']): TrafficEntry => ({
  address,
  classification,
  reason: classification === 'legitimate' ? 'private range' : classification === 'suspicious' ? 'many 4xx answers' : 'public address',
  requests: 10,
  clientErrors: classification === 'suspicious' ? 8 : 0,
  serverErrors: 0,
  rateLimited: 0,
  firstSeen: now,
  lastSeen: now,
});

const health = (status: AdminHealth['status'], message: string): AdminHealth => ({
  status,
  checkedAt: now,
  checks: [{ id: 'database', kind: 'database', name: 'Database', status, responseTimeMs: 2, value: null, unit: null, version: null, message, checkedAt: now }],
});

function serveDashboard() {
  const period = (days: number) => ({
    days,
    from: now,
    to: now,
    analysesStarted: 12,
    analysesCompleted: 10,
    analysesErrored: 2,
    contactSubmits: 3,
    pageViews: 240,
    topPages: [
      { path: '/free-analysis', views: 80 },
      { path: '/blog/how-ai-chatbots-are-transforming-customer-service', views: 1 },
    ],
    referrers: { direct: 40, internal: 120, search: 60, social: 12, other: 8 },
    daily: [{ date: now, analysesStarted: 12, analysesCompleted: 10, analysesErrored: 2, contactSubmits: 3, pageViews: 240 }],
  });
  const funnel: AdminFunnel = { windows: [period(7), { ...period(30), analysesStarted: 40 }] };
  const traffic: AdminTraffic = {
    windowMinutes: 60,
    entries: [
      entry('203.0.113.7', 'suspicious'),
      entry('198.51.100.1', 'normal'),
      entry('198.51.100.2', 'normal'),
      entry('198.51.100.3', 'normal'),
      entry('198.51.100.4', 'normal'),
      entry('10.0.0.5', 'legitimate'),
    ],
    totals: { addresses: 6, requests: 60, suspicious: 1, legitimate: 1 },
  };
  const leads: AdminLeadList = {
    leads: [
      {
        id: 'l1',
        createdAt: now,
        name: 'Maria Lopez',
        email: 'maria@example.com',
        company: 'Lopez Bakery',
        subject: 'Chatbot for orders',
        message: 'We would like to automate our phone orders.',
        userAgent: 'Mozilla/5.0',
        read: false,
        readAt: null,
        handled: false,
        handledAt: null,
        mail: { state: 'retrying', attempts: 2, lastError: 'Connection refused', sentAt: null, nextAttemptAt: now },
      },
    ],
    total: 1,
    limit: 25,
    nextCursor: null,
    prevCursor: null,
    unread: 1,
    counts: { all: 1, unread: 1, read: 0, handled: 0, open: 1 },
  };
  let refreshes = 0;
  const deployQueries: string[] = [];
  server.use(
    http.get('/api/admin/health', () => HttpResponse.json(health('ok', 'Round trip in 2 ms'))),
    http.post('/api/admin/health/refresh', async () => {
      refreshes++;
      await delay(150);
      return HttpResponse.json(health('down', 'The database did not answer'));
    }),
    http.get('/api/admin/funnel', () => HttpResponse.json(funnel)),
    http.get('/api/admin/leads', () => HttpResponse.json(leads)),
    http.patch('/api/admin/leads/l1', () => HttpResponse.json({ ...leads.leads[0], read: true, readAt: now })),
    http.get('/api/admin/traffic', () => HttpResponse.json(traffic)),
    http.get('/api/admin/docker', () => HttpResponse.json({ available: false, reason: 'The Docker socket is not mounted.' })),
    http.get('/api/admin/vulnerabilities', () =>
      HttpResponse.json({ available: true, critical: 0, high: 1, moderate: 2, low: 3, total: 6, generatedAt: now, source: 'npm audit at build time' }),
    ),
    http.get('/api/admin/deploys', ({ request }) => {
      deployQueries.push(new URL(request.url).search);
      return HttpResponse.json(recentDeploys);
    }),
    http.get('/api/admin/release-errors', () => HttpResponse.json({ windowMinutes: 15, threshold: { rate: 0.02, minPageViews: 20 }, releases: [] })),
  );
  return { refreshes: () => refreshes, deployQueries };
}

const deploy = (i: number, overrides: Partial<DeployLogPage['entries'][number]> = {}): DeployLogPage['entries'][number] => ({
  id: `dep_${i}`,
  at: now,
  app: 'blog',
  action: 'deploy',
  version: `2026.11.27-${i}`,
  previous: `2026.11.27-${i - 1}`,
  result: 'ok',
  by: 'blog CI',
  from: '192.0.2.44',
  message: null,
  ...overrides,
});
const recentDeploys: DeployLogPage = {
  entries: [deploy(5), deploy(4, { app: 'shell', result: 'refused', version: null, message: 'This deploy token may not deploy shell.' }), deploy(3, { result: 'failed', message: 'disk full' }), deploy(2), deploy(1)],
  nextCursor: 'more',
};

describe('Dashboard', { timeout: 20_000 }, () => {
  it('Recent deploys: the last five, a refused or failed one marked, and a link to every deploy', async () => {
    serveSession();
    const calls = serveDashboard();
    renderAdmin('/admin/dashboard');
    const panel = await screen.findByRole('region', { name: 'Recent deploys' });
    const list = await within(panel).findByRole('list', { name: 'Recent deploys, newest first' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(calls.deployQueries).toEqual(['?limit=5']);
    const refused = within(list).getByRole('article', { name: 'Deploy of shell: refused' });
    expect(within(refused).getByText('Refused')).toBeTruthy();
    expect(within(refused).getByText('This deploy token may not deploy shell.')).toBeTruthy();
    expect(within(within(list).getByRole('article', { name: 'Deploy of blog 2026.11.27-3: failed' })).getByText('Failed')).toBeTruthy();
    expect(within(panel).getByRole('link', { name: 'All deploys' }).getAttribute('href')).toBe('/admin/deploys');
  });

  it('Refresh runs the health checks with a busy state and shows the new results', async () => {
    serveSession();
    const calls = serveDashboard();
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/dashboard');
    const panel = await screen.findByRole('region', { name: 'Health checks' });
    expect(await within(panel).findByText('Round trip in 2 ms')).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Refresh' }));
    const busy = within(panel).getByRole('button', { name: 'Refreshing…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(busy.getAttribute('aria-busy')).toBe('true');
    expect(await within(panel).findByText('The database did not answer')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Refresh' })).toBeTruthy();
    expect(calls.refreshes()).toBe(1);
  });

  it("traffic shows the first 3 filtered entries plus '+N more'", async () => {
    serveSession();
    serveDashboard();
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/dashboard');
    const panel = await screen.findByRole('region', { name: 'Traffic' });
    await within(panel).findByText('203.0.113.7');
    expect(within(panel).getAllByText(/^(203|198|10)\./)).toHaveLength(3);
    const more = within(panel).getByRole('button', { name: '+3 more' });
    await user.selectOptions(within(panel).getByLabelText('Show'), 'normal');
    expect(within(panel).getAllByText(/^198\./)).toHaveLength(3);
    expect(within(panel).getByRole('button', { name: '+1 more' })).toBeTruthy();
    expect(more.isConnected).toBe(true);
    await user.click(within(panel).getByRole('button', { name: '+1 more' }));
    expect(within(panel).getAllByText(/^198\./)).toHaveLength(4);
  });

  it("docker and vulnerability summaries show real figures or 'not available on this host'", async () => {
    serveSession();
    serveDashboard();
    renderAdmin('/admin/dashboard');
    const docker = await screen.findByRole('region', { name: 'Docker containers' });
    expect(await within(docker).findByText('Not available on this host')).toBeTruthy();
    expect(within(docker).getByText('The Docker socket is not mounted.')).toBeTruthy();
    const vulns = screen.getByRole('region', { name: 'Vulnerabilities' });
    await within(vulns).findByText('Moderate');
    expect(within(vulns).getByText('High').nextSibling?.textContent).toBe('1');
  });

  it('the funnel is a chart with its figures in words, and 7/30 days switch', async () => {
    serveSession();
    serveDashboard();
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/dashboard');
    const panel = await screen.findByRole('region', { name: 'Visitor funnel' });
    const chart = await within(panel).findByRole('img');
    const summary = document.getElementById(chart.getAttribute('aria-labelledby')!)!;
    expect(summary.textContent).toContain('12 analyses started, 10 completed (83%), 2 errored, 3 contact messages');
    expect(summary.textContent).toContain('240 page views');
    await user.click(within(panel).getByRole('button', { name: '30 days' }));
    await waitFor(() => expect(summary.textContent).toContain('40 analyses started'));
    // Page views: how they arrived (share of all views) and the most viewed paths, each read with its count.
    const arrivals = within(panel).getAllByRole('term');
    expect(arrivals.map((t) => `${t.textContent}: ${t.nextElementSibling?.textContent}`)).toEqual([
      'Search engines: 60 (25%)',
      'Social networks: 12 (5%)',
      'Other sites: 8 (3%)',
      'Direct (typed, bookmarked or from an app): 40 (17%)',
      'From another page of this site: 120 (50%)',
    ]);
    const top = within(within(panel).getByRole('list', { name: 'Top pages' })).getAllByRole('listitem');
    expect(top.map((li) => li.textContent)).toEqual(['/free-analysis80 views', '/blog/how-ai-chatbots-are-transforming-customer-service1 view']);
  });

  it('the funnel says when no page view was recorded', async () => {
    serveSession();
    serveDashboard();
    const empty = { days: 7, from: now, to: now, analysesStarted: 0, analysesCompleted: 0, analysesErrored: 0, contactSubmits: 0, pageViews: 0, topPages: [], daily: [] };
    // A server from before page views had a class answers without `referrers`: read as none.
    server.use(http.get('/api/admin/funnel', () => HttpResponse.json({ windows: [empty, { ...empty, days: 30 }] })));
    renderAdmin('/admin/dashboard');
    const panel = await screen.findByRole('region', { name: 'Visitor funnel' });
    expect(await within(panel).findByText('No page views recorded in this period.')).toBeTruthy();
    expect(within(panel).queryAllByRole('term')).toEqual([]);
  });

  it('the inbox shows read, handled and email state, marks read, and exports CSV', async () => {
    serveSession();
    serveDashboard();
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/dashboard');
    const inbox = await screen.findByRole('region', { name: 'Contact messages' });
    const message = await within(inbox).findByRole('article', { name: 'Message from Maria Lopez' });
    expect(within(message).getByText('Unread')).toBeTruthy();
    expect(within(message).getByText('Not handled')).toBeTruthy();
    expect(within(message).getByText('Email retrying')).toBeTruthy();
    expect(within(inbox).getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/admin/leads/export.csv');
    await user.click(within(message).getByRole('button', { name: /^Mark as read/ }));
    expect(await within(message).findByText('Read')).toBeTruthy();
  });

  it('the inbox shows its counts, pages Older / Newer by keyset with a loading state, and starts over on a new filter', async () => {
    serveSession();
    serveDashboard();
    const all = Array.from({ length: 30 }, (_, i) => ({
      id: `lead-${i + 1}`, createdAt: now, name: `Person ${i + 1}`, email: `p${i + 1}@example.com`, company: null, subject: `Question ${i + 1}`,
      message: 'Hello', userAgent: null, read: i >= 10, readAt: i >= 10 ? now : null, handled: false, handledAt: null,
      mail: { state: 'sent' as const, attempts: 1, lastError: null, sentAt: now, nextAttemptAt: null },
    }));
    const asked: URL[] = [];
    server.use(
      http.get('/api/admin/leads', async ({ request }) => {
        const url = new URL(request.url);
        asked.push(url);
        const filter = url.searchParams.get('filter') ?? 'all';
        const matching = all.filter((l) => filter !== 'unread' || !l.read);
        const start = Number(url.searchParams.get('cursor') ?? 0);
        if (start > 0) await delay(100);
        const body: AdminLeadList = {
          leads: matching.slice(start, start + 25), total: matching.length, limit: 25,
          nextCursor: start + 25 < matching.length ? String(start + 25) : null, prevCursor: start > 0 ? '0' : null,
          unread: 10, counts: { all: 30, unread: 10, read: 20, handled: 0, open: 30 },
        };
        return HttpResponse.json(body);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/dashboard');
    const inbox = await screen.findByRole('region', { name: 'Contact messages' });
    expect(await within(inbox).findByText('30 messages · 10 unread')).toBeTruthy();
    expect(within(inbox).getByRole('option', { name: 'Unread (10)' })).toBeTruthy();
    const pager = () => within(inbox).getByRole('navigation', { name: 'Pages of messages' });
    expect((within(pager()).getByRole('button', { name: /Newer/ }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(pager()).getByRole('button', { name: /Older/ }));
    // While the older page loads, the one on screen stays and the pager says so.
    await waitFor(() => expect(within(pager()).getByRole('status').textContent).toBe('Loading…'));
    expect(within(inbox).getByRole('article', { name: 'Message from Person 1' })).toBeTruthy();
    expect(await within(inbox).findByRole('article', { name: 'Message from Person 26' })).toBeTruthy();
    expect(within(inbox).queryByRole('article', { name: 'Message from Person 1' })).toBeNull();
    expect(asked.at(-1)?.searchParams.get('cursor')).toBe('25');
    await user.selectOptions(within(inbox).getByRole('combobox', { name: 'Show' }), 'unread');
    // A new filter starts at the newest page: 10 unread fit one page, no pager.
    await waitFor(() => expect(within(inbox).queryByRole('navigation', { name: 'Pages of messages' })).toBeNull());
    expect(asked.at(-1)?.searchParams.get('cursor')).toBeNull();
    expect(asked.at(-1)?.searchParams.get('filter')).toBe('unread');
    expect(within(inbox).getAllByRole('article')).toHaveLength(10);

    // An older page emptied meanwhile (its messages now read, under 'Unread'): the inbox goes back to the newest page.
    server.use(
      http.get('/api/admin/leads', ({ request }) => {
        const url = new URL(request.url);
        asked.push(url);
        const empty = url.searchParams.has('cursor');
        const body: AdminLeadList = {
          leads: empty ? [] : all.slice(0, 25), total: 30, limit: 25, nextCursor: empty ? null : 'older', prevCursor: null,
          unread: 10, counts: { all: 30, unread: 10, read: 20, handled: 0, open: 30 },
        };
        return HttpResponse.json(body);
      }),
    );
    await user.selectOptions(within(inbox).getByRole('combobox', { name: 'Show' }), 'all');
    await user.click(await within(inbox).findByRole('button', { name: /Older/ }));
    await waitFor(() => expect(asked.at(-1)?.searchParams.has('cursor')).toBe(false));
    expect(asked.some((u) => u.searchParams.get('cursor') === 'older')).toBe(true);
    expect(await within(inbox).findByRole('article', { name: 'Message from Person 1' })).toBeTruthy();
  });

  it('a search the server stopped counting says "1,000+" matching, never a number it did not count', async () => {
    serveSession();
    serveDashboard();
    const lead = (i: number) => ({
      id: `lead-${i}`, createdAt: now, name: `Person ${i}`, email: `p${i}@example.com`, company: null, subject: `Pleasanton question ${i}`,
      message: 'Hello', userAgent: null, read: true, readAt: now, handled: false, handledAt: null,
      mail: { state: 'sent' as const, attempts: 1, lastError: null, sentAt: now, nextAttemptAt: null },
    });
    server.use(
      http.get('/api/admin/leads', ({ request }) => {
        const q = new URL(request.url).searchParams.get('q');
        const body: AdminLeadList = {
          leads: Array.from({ length: q ? 25 : 1 }, (_, i) => lead(i + 1)), total: q ? 1_000 : 1_500, ...(q ? { totalIsLowerBound: q === 'pleasanton' } : {}), limit: 25,
          nextCursor: null, prevCursor: null, unread: 0, counts: { all: 1_500, unread: 0, read: 1_500, handled: 0, open: 1_500 },
        };
        return HttpResponse.json(body);
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/dashboard');
    const inbox = await screen.findByRole('region', { name: 'Contact messages' });
    await user.type(within(inbox).getByRole('searchbox', { name: 'Search messages' }), 'pleasanton');
    expect(await within(inbox).findByText('1500 messages · 0 unread · 1,000+ matching')).toBeTruthy();
    expect(within(inbox).getByText('The best 25 of 1,000+ matching messages. Add words to narrow the search.')).toBeTruthy();
    // Exactly 1,000 counted: the number, no "+".
    await user.type(within(inbox).getByRole('searchbox', { name: 'Search messages' }), ' q');
    expect(await within(inbox).findByText('1500 messages · 0 unread · 1000 matching')).toBeTruthy();
    expect(within(inbox).getByText('The best 25 of 1000 matching messages. Add words to narrow the search.')).toBeTruthy();
  });

  it("underlines the sender's e-mail link: in a line of grey text, colour alone did not set it apart (axe link-in-text-block)", async () => {
    serveSession();
    serveDashboard();
    renderAdmin('/admin/dashboard');
    const inbox = await screen.findByRole('region', { name: 'Contact messages' });
    const message = await within(inbox).findByRole('article', { name: 'Message from Maria Lopez' });
    const email = within(message).getByRole('link', { name: 'maria@example.com' });
    expect(email.getAttribute('href')).toBe('mailto:maria@example.com');
    // Tailwind's class list is what the browser styles by (jsdom loads no stylesheet): underlined always, not on hover only.
    expect(email.className.split(' ')).toContain('underline');
  });
});
