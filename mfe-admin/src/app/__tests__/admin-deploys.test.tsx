import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { DEPLOY_MESSAGES, type CanaryStatus, type DeployLogEntry, type DeployToken, type DeployTokenCreated } from '@site/contracts/deploys';
import { server } from '../../../../vitest.msw';
import { envelope, renderAdmin, serveSession } from './admin-test-kit';

/* Issue 33: the Deploys screen (deploy tokens, shown once; the deploy log) and the dashboard's recent deploys, against MSW. */

const TOKEN = 'dpl_q5Jx0m8Yw3n1Vb7cTz2Lr6Kd9Hs4Fg0Ae5Pu8Wo1Xi3';
const RULES = { maxRate: 0.02, ratio: 3, minPageViews: 50, minReporters: 5 };

const older: DeployToken = {
  id: 'dtk_00000000000000aa',
  name: 'marketing CI',
  apps: ['marketing', 'shell'],
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: '2026-11-26T10:00:00.000Z',
  lastUsedFrom: '203.0.113.7',
};

function entry(i: number, overrides: Partial<DeployLogEntry> = {}): DeployLogEntry {
  return {
    id: `dep_${String(i).padStart(16, '0')}`,
    at: new Date(Date.parse('2026-11-27T10:00:00.000Z') - i * 60_000).toISOString(),
    app: 'blog',
    action: 'deploy',
    version: `2026.11.27-${30 - i}`,
    previous: `2026.11.27-${29 - i}`,
    result: 'ok',
    by: 'blog CI',
    from: '203.0.113.7',
    message: null,
    ...overrides,
  };
}

/** The deploys API over `tokens` and `log` (pages of `pageSize`, cursor = the index to start at, filter by app). */
function serveDeploys(options: { tokens?: DeployToken[]; log?: DeployLogEntry[]; pageSize?: number; canaries?: () => CanaryStatus[] } = {}) {
  let tokens = [...(options.tokens ?? [])];
  const log = options.log ?? [];
  const created: unknown[] = [];
  const logRequests: URL[] = [];
  server.use(
    http.get('/api/admin/deploy-tokens', () => HttpResponse.json({ tokens })),
    http.post('/api/admin/deploy-tokens', async ({ request }) => {
      const body = (await request.json()) as { name: string; apps: DeployToken['apps'] };
      created.push(body);
      const token: DeployTokenCreated = { id: 'dtk_0123456789abcdef', name: body.name, apps: body.apps, createdAt: new Date().toISOString(), lastUsedAt: null, lastUsedFrom: null, token: TOKEN };
      const { token: _t, ...listed } = token;
      tokens = [listed, ...tokens];
      return HttpResponse.json(token, { status: 201 });
    }),
    http.delete('/api/admin/deploy-tokens/:id', ({ params }) => {
      if (!tokens.some((t) => t.id === params.id)) return envelope(404, 'deploy_token_not_found', DEPLOY_MESSAGES.notFound);
      tokens = tokens.filter((t) => t.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.get('/api/admin/deploys', ({ request }) => {
      const url = new URL(request.url);
      logRequests.push(url);
      const app = url.searchParams.get('app');
      const limit = Number(url.searchParams.get('limit') ?? options.pageSize ?? 20);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const matching = log.filter((e) => !app || e.app === app);
      const page = { entries: matching.slice(start, start + limit), nextCursor: start + limit < matching.length ? String(start + limit) : null };
      // The first page says which canaries run, as the server's does.
      return HttpResponse.json(url.searchParams.has('cursor') ? page : { ...page, canaries: options.canaries?.() ?? [], canaryRules: RULES });
    }),
  );
  return { created, logRequests };
}

describe('Deploys screen', { timeout: 20_000 }, () => {
  it('says what is missing in the token form, with the API messages, and sends nothing', async () => {
    serveSession();
    const calls = serveDeploys();
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/deploys');
    expect(await screen.findByRole('heading', { level: 1, name: 'Deploys' })).toBeTruthy();
    const form = screen.getByRole('form', { name: 'New deploy token' });
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    expect(await within(form).findByText(DEPLOY_MESSAGES.name)).toBeTruthy();
    expect(within(form).getByText(DEPLOY_MESSAGES.apps)).toBeTruthy();
    const name = within(form).getByRole('textbox', { name: /^Name/ });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);

    // Blank is not a name; a name and no app still needs an app.
    await user.type(name, '   ');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    expect(await within(form).findByText(DEPLOY_MESSAGES.name)).toBeTruthy();
    await user.clear(name);
    await user.type(name, 'blog CI');
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    await waitFor(() => expect(within(form).queryByText(DEPLOY_MESSAGES.name)).toBeNull());
    expect(within(form).getByText(DEPLOY_MESSAGES.apps)).toBeTruthy();
    expect(within(form).getByRole('group', { name: /Apps it may deploy/ }).getAttribute('aria-invalid')).toBe('true');
    expect(calls.created).toEqual([]);
    // One box per app, in the release model's order.
    expect(within(form).getAllByRole('checkbox').map((c) => c.closest('label')!.querySelector('code')!.textContent)).toEqual(['shell', 'marketing', 'analysis', 'blog', 'admin']);
  });

  it('shows a new token once, focused, with Copy; the list shows it without the token; revoking asks first', async () => {
    serveSession();
    const calls = serveDeploys({ tokens: [older] });
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/deploys');
    const list = await screen.findByRole('list', { name: 'Deploy tokens' });
    const olderRow = within(list).getByText('marketing CI').closest('li')!;
    expect(within(olderRow).getByText(/Last used/).textContent).toMatch(/from 203\.0\.113\.7/);
    expect(within(olderRow).getByText('shell')).toBeTruthy();

    const form = screen.getByRole('form', { name: 'New deploy token' });
    await user.type(within(form).getByRole('textbox', { name: /^Name/ }), 'blog CI');
    await user.click(within(form).getByRole('checkbox', { name: /blog/ }));
    await user.click(within(form).getByRole('checkbox', { name: /admin/ }));
    await user.click(within(form).getByRole('button', { name: 'Create token' }));

    const notice = await screen.findByRole('status', { name: 'Copy the token for "blog CI" now: it will not be shown again.' });
    await waitFor(() => expect(document.activeElement).toBe(notice));
    expect(within(notice).getByText(TOKEN)).toBeTruthy();
    expect(within(notice).getByRole('button', { name: 'Copy Deploy token' })).toBeTruthy();
    expect(calls.created).toEqual([{ name: 'blog CI', apps: ['blog', 'admin'] }]);
    // The form is empty again for the next token.
    expect((within(screen.getByRole('form', { name: 'New deploy token' })).getByRole('textbox', { name: /^Name/ }) as HTMLInputElement).value).toBe('');

    // Listed first, never used, and the list itself never holds the token.
    const rows = within(screen.getByRole('list', { name: 'Deploy tokens' })).getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('p')!.textContent)).toEqual(['blog CI', 'marketing CI']);
    expect(within(rows[0]!).getByText(/Never used/)).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Deploy tokens' }).textContent).not.toContain(TOKEN);

    // Put away: gone for good.
    await user.click(within(notice).getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByText(TOKEN)).toBeNull();
    expect(document.body.textContent).not.toContain(TOKEN);

    // Revoke: Cancel keeps it; Revoke removes it and the focus goes to the list's heading.
    await user.click(within(rows[0]!).getByRole('button', { name: 'Revoke blog CI' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Revoke deploy token' });
    expect(within(dialog).getByText(/Revoke "blog CI"\?/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(within(screen.getByRole('list', { name: 'Deploy tokens' })).getByText('blog CI')).toBeTruthy();
    await user.click(within(screen.getByRole('list', { name: 'Deploy tokens' })).getByRole('button', { name: 'Revoke blog CI' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Revoke deploy token' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(within(screen.getByRole('list', { name: 'Deploy tokens' })).queryByText('blog CI')).toBeNull();
    expect(await screen.findByText('Deploy token revoked')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Live tokens (1)' })));
  });

  it('says why a token could not be made', async () => {
    serveSession();
    serveDeploys();
    server.use(http.post('/api/admin/deploy-tokens', () => envelope(409, 'deploy_token_limit', DEPLOY_MESSAGES.tooMany)));
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/deploys');
    const form = await screen.findByRole('form', { name: 'New deploy token' });
    await user.type(within(form).getByRole('textbox', { name: /^Name/ }), 'one more');
    await user.click(within(form).getByRole('checkbox', { name: /shell/ }));
    await user.click(within(form).getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText(DEPLOY_MESSAGES.tooMany)).toBeTruthy();
    expect(screen.queryByRole('status', { name: /Copy the token/ })).toBeNull();
  });

  it('lists the deploy log newest first, loads more by cursor, filters by app, and marks refusals', async () => {
    serveSession();
    const log = Array.from({ length: 25 }, (_, i) =>
      i === 1 ? entry(i, { app: 'shell', result: 'refused', version: null, previous: null, by: 'blog CI', message: DEPLOY_MESSAGES.wrongApp('shell') }) : i === 2 ? entry(i, { action: 'rollback', result: 'failed', message: 'The release failed its checks: missing remoteEntry.js' }) : entry(i),
    );
    const calls = serveDeploys({ log });
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/deploys');
    const list = await screen.findByRole('list', { name: 'Deploys, newest first' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    const refused = within(list).getByRole('article', { name: 'Deploy of shell: refused' });
    expect(within(refused).getByText('Refused')).toBeTruthy();
    expect(within(refused).getByText(DEPLOY_MESSAGES.wrongApp('shell'))).toBeTruthy();
    const failed = within(list).getByRole('article', { name: `Rollback of blog ${log[2]!.version}: failed` });
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText(/missing remoteEntry\.js/)).toBeTruthy();
    const first = within(list).getAllByRole('article')[0]!;
    expect(within(first).getByText('OK')).toBeTruthy();
    expect(within(first).getByText(log[0]!.previous!)).toBeTruthy();
    expect(within(first).getByText('203.0.113.7')).toBeTruthy();

    // Load more: the next page by its cursor; the focus on the first entry loaded.
    const more = screen.getByRole('button', { name: 'Load more' });
    await user.click(more);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(25));
    expect(calls.logRequests.at(-1)!.searchParams.get('cursor')).toBe('20');
    await waitFor(() => expect(document.activeElement).toBe(within(list).getAllByRole('listitem')[20]));
    expect(screen.getByText('5 more entries loaded; that is the whole log.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    // One app: asked of the server; an app without deploys says so.
    await user.selectOptions(screen.getByRole('combobox', { name: 'App' }), 'shell');
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Deploys, newest first' })).getAllByRole('listitem')).toHaveLength(1));
    expect(calls.logRequests.at(-1)!.searchParams.get('app')).toBe('shell');
    await user.selectOptions(screen.getByRole('combobox', { name: 'App' }), 'analysis');
    expect(await screen.findByText('No deploys of analysis yet.')).toBeTruthy();
  });

  it("shows a staged release with its preview link, and the promotion that served it", async () => {
    serveSession();
    const previewUrl = 'https://example.test/blog?preview=eyJhIjoiYmxvZyJ9.c2ln';
    serveDeploys({
      log: [
        entry(0, { action: 'promote', version: '2.1.0', previous: '2.0.0' }),
        entry(1, { action: 'stage', version: '2.2.0', previous: '2.0.0', previewUrl }),
        entry(2, { action: 'stage', version: '2.1.0', previous: '2.0.0' }),
      ],
    });
    renderAdmin('/admin/deploys');
    const list = await screen.findByRole('list', { name: 'Deploys, newest first' });
    const staged = within(list).getByRole('article', { name: 'Staged upload of blog 2.2.0: ok' });
    const link = within(staged).getByRole('link', { name: /^Preview blog 2\.2\.0 ?\(opens in a new tab\)$/ });
    expect(link.getAttribute('href')).toBe(previewUrl);
    // Promoted since: no link any more.
    expect(within(within(list).getByRole('article', { name: 'Staged upload of blog 2.1.0: ok' })).queryByRole('link')).toBeNull();
    expect(within(list).getByRole('article', { name: 'Promotion of blog 2.1.0: ok' })).toBeTruthy();
  });

  it('shows where a release came from: its commit, its CI run (a link) and its notes, on its upload and on what was done with it', async () => {
    serveSession();
    const provenance = { commit: '3f2a9c1', ciUrl: 'https://ci.example.com/blog/runs/812', notes: 'Faster search' };
    serveDeploys({
      log: [entry(0, { action: 'promote', version: '2.1.0', previous: '2.0.0', ...provenance }), entry(1, { action: 'stage', version: '2.1.0', previous: '2.0.0', ...provenance }), entry(2, { version: '2.0.0' })],
    });
    renderAdmin('/admin/deploys');
    const list = await screen.findByRole('list', { name: 'Deploys, newest first' });
    for (const name of ['Promotion of blog 2.1.0: ok', 'Staged upload of blog 2.1.0: ok']) {
      const article = within(list).getByRole('article', { name });
      expect(within(article).getByText('3f2a9c1')).toBeTruthy();
      expect(within(article).getByText('Faster search')).toBeTruthy();
      const run = within(article).getByRole('link', { name: 'CI run of 2.1.0 (opens in a new tab)' });
      expect(run.getAttribute('href')).toBe(provenance.ciUrl);
      expect(run.getAttribute('rel')).toBe('noopener noreferrer');
    }
    // An upload that named none shows none.
    const plain = within(list).getByRole('article', { name: 'Deploy of blog 2.0.0: ok' });
    expect(within(plain).queryByText(/Commit/)).toBeNull();
    expect(within(plain).queryByRole('link')).toBeNull();
  });

  it('shows a running canary with its live split and both error rates, read again while it runs; its staged upload says it is served to that share', async () => {
    serveSession();
    let canaries: CanaryStatus[] = [
      {
        app: 'blog',
        version: '2.2.0',
        current: '2.0.0',
        percent: 30,
        startedAt: '2026-11-27T09:58:00.000Z',
        promoteAfter: null,
        by: 'blog CI',
        countedSince: '2026-11-27T09:58:00.000Z',
        canary: { pageViews: 40, renderErrors: 2, clientErrors: 1, rate: 0.075 },
        served: { pageViews: 960, renderErrors: 1, clientErrors: 4, clientReporters: 3, rate: 1 / 960 },
      },
    ];
    const previewUrl = 'https://example.test/blog?preview=eyJhIjoiYmxvZyJ9.c2ln';
    serveDeploys({
      canaries: () => canaries,
      log: [
        entry(0, { action: 'canary', version: '2.2.0', previous: '2.0.0', message: 'serves 2.2.0 to 30% of visitors (sticky per visitor); the others keep 2.0.0' }),
        entry(1, { action: 'stage', version: '2.2.0', previous: '2.0.0', previewUrl }),
      ],
    });
    renderAdmin('/admin/deploys');
    const panel = await screen.findByRole('region', { name: 'Canaries' });
    expect(await within(panel).findByText(/rolled back by itself when its error rate reaches 2% and 3 times the served release's, over at least 50 of its page views\. Browser errors count once at least 5 visitors reported them\./)).toBeTruthy();
    const canary = await within(panel).findByRole('article', { name: 'Canary of blog 2.2.0' });
    expect(canary.textContent).toContain('Live split: 30% of visitors get 2.2.0, 70% keep 2.0.0.');
    // Fewer than 50 page views: the check says nothing yet, whatever the rate.
    expect(within(canary).getByText('Collecting: 40 of 50 page views')).toBeTruthy();
    const figures = (title: string) => {
      const box = within(canary).getByRole('heading', { level: 4, name: new RegExp(`^${title}`) }).parentElement!;
      return Object.fromEntries(within(box).getAllByRole('term').map((dt) => [dt.textContent, dt.nextElementSibling!.textContent]));
    };
    expect(figures('Canary')).toEqual({ 'Page views': '40', 'Render errors': '2', 'Browser errors': '1', 'Error rate': '7.5%' });
    // Its browser errors came from 3 visitors: shown, and left out of its rate (fewer than 5).
    expect(figures('Served')).toEqual({ 'Page views': '960', 'Render errors': '1', 'Browser errors': '4 from 3 visitors', 'Error rate': '0.1%' });
    const list = screen.getByRole('list', { name: 'Deploys, newest first' });
    const staged = within(list).getByRole('article', { name: 'Staged upload of blog 2.2.0: ok' });
    expect(staged.textContent).toContain('Served to 30% of visitors as a canary.');
    expect(within(list).getByRole('article', { name: 'Canary of blog 2.2.0: ok' }).textContent).toContain('serves 2.2.0 to 30% of visitors');

    // More traffic: read again while it runs (Refresh, as the 10 s timer does), now over the threshold.
    canaries = [{ ...canaries[0]!, canary: { pageViews: 60, renderErrors: 5, clientErrors: 1, rate: 0.1 } }];
    const user = userEvent.setup({ delay: null });
    await user.click(within(panel).getByRole('button', { name: 'Refresh' }));
    expect(await within(panel).findByText('Over the threshold: rolling back')).toBeTruthy();
    // Rolled back: no canary, and the staged upload is served to no one again.
    canaries = [];
    await user.click(within(panel).getByRole('button', { name: 'Refresh' }));
    expect(await within(panel).findByText(/No canary is running/)).toBeTruthy();
    await waitFor(() => expect(within(list).getByRole('article', { name: 'Staged upload of blog 2.2.0: ok' }).textContent).toContain('Served to no one yet.'));
  });

  it('has an empty state and a failed-load state with Try again', async () => {
    serveSession();
    serveDeploys();
    let fail = true;
    server.use(http.get('/api/admin/deploys', () => (fail ? envelope(500, 'internal', 'boom') : HttpResponse.json({ entries: [], nextCursor: null }))));
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/deploys');
    // The log's own alert (the canaries, read from the same endpoint, say theirs).
    await screen.findByText('Could not load the deploy log', undefined, { timeout: 8000 });
    const alert = screen.getAllByRole('alert').find((a) => within(a).queryByText('Could not load the deploy log'))!;
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No deploys yet. Each deploy, rollback and refusal shows here as it happens.')).toBeTruthy();
    expect(await screen.findByText(/No deploy tokens yet/)).toBeTruthy();
  });

  it('is in the admin navigation', async () => {
    serveSession();
    serveDeploys();
    renderAdmin('/admin/deploys');
    const nav = await screen.findByRole('navigation', { name: 'Admin' });
    expect(within(nav).getByRole('link', { name: 'Deploys' }).getAttribute('aria-current')).toBe('page');
  });
});
