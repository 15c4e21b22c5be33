import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import createClient, { type Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ENV, TEST_ADMIN_PASSWORD } from '../../test-support/admin-session';
import { picture } from '../../test-support/media-fixtures';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../../test-support/openapi-client-types';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import type { paths } from './admin-client/openapi';

/*
 * A team that only has the served description generates a client from it (openapi-typescript for the types,
 * openapi-fetch to call) and uses the admin API with nothing else: the session cookie the security scheme names,
 * the `Origin` header the state-changing operations require, a Blob for the upload. The calls below are typechecked
 * against the generated types (`npm test` typechecks the tests), so a description that disagrees with the server
 * fails here at compile time or at run time.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const ORIGIN = 'https://example.test' as const;

let server: TestServer;
let sink: Server;
let sinkUrl: string;
let description: unknown;

beforeAll(async () => {
  // A loopback receiver for the outgoing webhook the client registers.
  sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hook`;
  // The webhook receiver is on loopback: the operator's switch for targets on their own network is on.
  server = await startTestServer({ env: { ...ADMIN_ENV, PUBLIC_ORIGIN: ORIGIN, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  description = await (await fetch(`${server.url}/api/openapi.json`)).json();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => sink?.close(resolve));
});

/** The client a team writes around openapi-fetch: a cookie jar for the session, and a log of the operations it called. */
function adminClient() {
  let cookie: string | undefined;
  const called = new Set<string>();
  const session: Middleware = {
    onRequest({ request }) {
      if (cookie) request.headers.set('cookie', cookie);
      return request;
    },
    onResponse({ request, response, schemaPath }) {
      called.add(`${request.method} ${schemaPath}`);
      const set = response.headers.getSetCookie().map((c) => c.split(';')[0]!);
      const kept = set.find((c) => !/=$/.test(c));
      if (kept) cookie = kept;
      else if (set.length > 0) cookie = undefined;
      return response;
    },
  };
  const client = createClient<paths>({ baseUrl: server.url });
  client.use(session);
  return { client, called };
}

const origin = { header: { Origin: ORIGIN } };

describe('a client generated from the description', () => {
  it('its committed types are what openapi-typescript generates from the served description', async () => {
    const generated = await generateClientTypes(description);
    const committed = readFileSync(path.join(ROOT, CLIENT_TYPES_FILE), 'utf8');
    // On a change to an endpoint definition: `npm run openapi:client` writes the file again.
    expect(committed === generated, `${CLIENT_TYPES_FILE} is stale: run \`npm run openapi:client\``).toBe(true);
  });

  it('logs in and calls every admin operation with only what the description says', async () => {
    const { client, called } = adminClient();

    const refused = await client.GET('/api/admin/posts');
    expect(refused.response.status).toBe(401);
    const login = await client.POST('/api/admin/login', { params: origin, body: { password: TEST_ADMIN_PASSWORD } });
    expect(login.response.status).toBe(200);
    expect((await client.GET('/api/admin/session')).data).toMatchObject({ authenticated: true });
    expect((await client.PUT('/api/admin/session', { params: origin, body: { activeSection: 'integrations' } })).response.status).toBe(200);

    // Posts: write, preview, schedule, publish, history, delete and undelete.
    const draft = {
      title: 'Generated client post',
      excerpt: 'Written by a client generated from the description.',
      content: `<p>${'A post written through the generated client. '.repeat(4)}</p>`,
      author: 'Client Test',
      category: 'How-To Guides',
      metaDescription: 'A meta description that is long enough to pass the fifty character rule.',
    };
    const created = await client.POST('/api/admin/posts', { params: origin, body: draft });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const post = created.data!;
    const id = { header: { Origin: ORIGIN }, path: { id: post.id } };
    expect((await client.GET('/api/admin/posts', { params: { query: { q: 'Generated client', limit: 5 } } })).data?.posts.map((p) => p.id)).toContain(post.id);
    // Keyset pages: the newest post, then the older ones from its cursor.
    const newest = (await client.GET('/api/admin/posts', { params: { query: { limit: 1 } } })).data!;
    expect(newest.prevCursor).toBeNull();
    const older = (await client.GET('/api/admin/posts', { params: { query: { limit: 1, cursor: newest.nextCursor! } } })).data!;
    expect(older.posts[0]?.id).not.toBe(newest.posts[0]?.id);
    expect(older.prevCursor).toEqual(expect.any(String));
    expect((await client.GET('/api/admin/posts/{id}', { params: { path: { id: post.id } } })).data?.title).toBe(draft.title);
    const preview = await client.POST('/api/admin/posts/preview', { params: origin, body: { content: '<p>Hello <script>x()</script>world</p>' } });
    expect(preview.data?.content).not.toContain('<script');
    const edited = await client.PUT('/api/admin/posts/{id}', { params: id, body: { ...draft, title: 'Generated client post, edited', expectedUpdatedAt: post.updatedAt } });
    expect(edited.response.status, JSON.stringify(edited.error)).toBe(200);
    const scheduled = await client.POST('/api/admin/posts/{id}/schedule', { params: id, body: { publishAt: new Date(Date.now() + 30 * 86_400_000).toISOString() } });
    expect(scheduled.data?.status, JSON.stringify(scheduled.error)).toBe('scheduled');
    expect((await client.POST('/api/admin/posts/{id}/unschedule', { params: id })).data?.status).toBe('draft');
    expect((await client.POST('/api/admin/posts/{id}/publish', { params: id })).data?.status).toBe('published');
    const revisions = await client.GET('/api/admin/posts/{id}/revisions', { params: { path: { id: post.id } } });
    const first = revisions.data!.revisions.at(-1)!;
    const revision = await client.GET('/api/admin/posts/{id}/revisions/{revisionId}', { params: { path: { id: post.id, revisionId: first.id } } });
    expect(revision.data?.title).toBe(draft.title);
    const current = (await client.GET('/api/admin/posts/{id}', { params: { path: { id: post.id } } })).data!;
    const restored = await client.POST('/api/admin/posts/{id}/revisions/{revisionId}/restore', {
      params: { header: { Origin: ORIGIN }, path: { id: post.id, revisionId: first.id } },
      body: { expectedUpdatedAt: current.updatedAt },
    });
    expect(restored.data?.title).toBe(draft.title);

    // Media: a Blob upload, its alt text, then delete.
    const png = new Blob([new Uint8Array(await picture(64, 48))], { type: 'image/png' });
    const uploaded = await client.POST('/api/admin/media', {
      params: origin,
      body: { file: png, alt: 'A test picture' },
      bodySerializer(body) {
        const form = new FormData();
        form.set('file', body.file, 'picture.png');
        if (body.alt) form.set('alt', body.alt);
        return form;
      },
    });
    expect(uploaded.response.status, JSON.stringify(uploaded.error)).toBe(201);
    const media = uploaded.data!;
    expect((await client.GET('/api/admin/media')).data?.media.map((m) => m.id)).toContain(media.id);
    expect((await client.GET('/api/admin/media/{id}', { params: { path: { id: media.id } } })).data?.state).toMatch(/^(processing|ready)$/);
    expect((await client.PATCH('/api/admin/media/{id}', { params: { ...origin, path: { id: media.id } }, body: { alt: 'A salon front desk' } })).data?.alt).toBe('A salon front desk');
    expect((await client.DELETE('/api/admin/media/{id}', { params: { ...origin, path: { id: media.id } } })).response.status).toBe(204);

    // Outgoing webhooks: an endpoint on a loopback receiver, a test delivery, its attempts, a redelivery.
    const endpoint = await client.POST('/api/admin/webhooks', { params: origin, body: { url: sinkUrl, description: 'client test', events: ['post.published'], enabled: true } });
    expect(endpoint.response.status, JSON.stringify(endpoint.error)).toBe(201);
    const hook = { ...origin, path: { id: endpoint.data!.id } };
    expect((await client.GET('/api/admin/webhooks')).data?.endpoints.map((e) => e.id)).toContain(endpoint.data!.id);
    const delivery = await client.POST('/api/admin/webhooks/{id}/test', { params: hook });
    expect(delivery.response.status, JSON.stringify(delivery.error)).toBe(200);
    const deliveries = await client.GET('/api/admin/webhooks/{id}/deliveries', { params: { path: hook.path } });
    expect(deliveries.data?.deliveries.length).toBeGreaterThan(0);
    const deliveryPath = { id: endpoint.data!.id, deliveryId: delivery.data!.id };
    expect((await client.GET('/api/admin/webhooks/{id}/deliveries/{deliveryId}/attempts', { params: { path: deliveryPath } })).response.status).toBe(200);
    expect((await client.POST('/api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver', { params: { ...origin, path: deliveryPath } })).response.status).toBe(201);
    expect((await client.PATCH('/api/admin/webhooks/{id}', { params: hook, body: { enabled: false } })).data?.enabled).toBe(false);
    expect((await client.DELETE('/api/admin/webhooks/{id}', { params: hook })).response.status).toBe(204);

    // Deploys: a deploy token (shown once, then listed without it), revoked; the deploy log, empty on a fresh server.
    const deployToken = await client.POST('/api/admin/deploy-tokens', { params: origin, body: { name: 'client CI', apps: ['blog'] } });
    expect(deployToken.response.status, JSON.stringify(deployToken.error)).toBe(201);
    expect(deployToken.data?.token).toMatch(/^dpl_/);
    expect((await client.GET('/api/admin/deploy-tokens')).data?.tokens.map((t) => t.id)).toEqual([deployToken.data!.id]);
    expect((await client.DELETE('/api/admin/deploy-tokens/{id}', { params: { ...origin, path: { id: deployToken.data!.id } } })).response.status).toBe(204);
    // The first page also says which canaries run (none) and when one is rolled back by itself.
    expect((await client.GET('/api/admin/deploys', { params: { query: { app: 'blog', limit: 5 } } })).data).toEqual({
      entries: [],
      nextCursor: null,
      canaries: [],
      canaryRules: { maxRate: 0.02, ratio: 3, minPageViews: 50, minReporters: 5 },
    });
    // Errors per release: the window and threshold the dashboard shows, whatever the releases counted so far.
    const releaseErrors = (await client.GET('/api/admin/release-errors')).data;
    expect(releaseErrors?.windowMinutes).toBeGreaterThan(0);
    expect(releaseErrors?.threshold.rate).toBeGreaterThan(0);
    expect(Array.isArray(releaseErrors?.releases)).toBe(true);

    // Leads: a visitor's message (the public contact form), read, exported.
    expect((await client.POST('/api/contact', { body: { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Could you automate our reminders?' } })).response.status).toBe(200);
    const leads = await client.GET('/api/admin/leads', { params: { query: { filter: 'unread', limit: 10 } } });
    expect(leads.data).toMatchObject({ total: 1, unread: 1, nextCursor: null, prevCursor: null, counts: { all: 1, unread: 1, read: 0, handled: 0, open: 1 } });
    const lead = leads.data!.leads[0]!;
    expect((await client.GET('/api/admin/leads', { params: { query: { cursor: 'nope' } } })).response.status).toBe(400);
    expect((await client.PATCH('/api/admin/leads/{id}', { params: { ...origin, path: { id: lead.id } }, body: { read: true } })).data?.read).toBe(true);
    const csv = await client.GET('/api/admin/leads/export.csv', { parseAs: 'text' });
    expect(csv.data).toContain('ada@example.com');

    // Monitoring: health, alerts and their settings, traffic, funnel, host facts.
    expect((await client.GET('/api/admin/health')).response.status).toBe(200);
    expect((await client.POST('/api/admin/health/refresh', { params: origin })).response.status).toBe(200);
    const settings = await client.GET('/api/admin/alerts/settings');
    // The operation's summary: a threshold only for the types whose setting has one.
    const setting = settings.data!.settings.find((s) => s.threshold !== null)!;
    const changed = await client.PATCH('/api/admin/alerts/settings/{type}', { params: { ...origin, path: { type: setting.type } }, body: { enabled: true, threshold: 85 } });
    expect(changed.response.status, JSON.stringify(changed.error)).toBe(200);
    expect((await client.GET('/api/admin/alerts', { params: { query: { limit: 10 } } })).response.status).toBe(200);
    // No alert has fired on a fresh server: acknowledging a made-up one is the documented 404.
    expect((await client.POST('/api/admin/alerts/{id}/acknowledge', { params: { ...origin, path: { id: 'no-such-alert' } } })).response.status).toBe(404);
    expect((await client.DELETE('/api/admin/alerts', { params: origin })).response.status).toBe(204);
    for (const read of ['/api/admin/traffic', '/api/admin/docker', '/api/admin/vulnerabilities', '/api/admin/funnel'] as const) {
      expect((await client.GET(read)).response.status, read).toBe(200);
    }

    // The deleted post comes back, then the session ends.
    expect((await client.DELETE('/api/admin/posts/{id}', { params: id })).response.status).toBe(204);
    expect((await client.GET('/api/admin/posts/deleted')).data?.posts.map((p) => p.id)).toContain(post.id);
    expect((await client.POST('/api/admin/posts/{id}/undelete', { params: id })).response.status).toBe(201);
    expect((await client.POST('/api/admin/logout', { params: origin })).response.status).toBe(204);
    expect((await client.GET('/api/admin/posts')).response.status).toBe(401);

    // Every admin operation of the description was called.
    const documented = Object.entries((description as { paths: Record<string, Record<string, unknown>> }).paths)
      .filter(([p]) => p.startsWith('/api/admin/'))
      .flatMap(([p, item]) => Object.keys(item).filter((m) => ['get', 'put', 'post', 'patch', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${p}`));
    expect(documented.filter((op) => !called.has(op))).toEqual([]);
  }, 60_000);
});
