import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletedPostListSchema, postRevisionListSchema, postRevisionSchema } from '@site/contracts/admin';
import { SCHEDULE_MESSAGES } from '@site/contracts/post-schedule';
import { postSchema, webhookResultSchema } from '@site/contracts/posts';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { call, sendWebhook, TEST_ORIGIN, waitFor } from '../../test-support/site-client';
import { startTestServer, type TestServer } from '../../test-support/test-server';

const SECRET = 'history-webhook-secret';
const article = (title: string) => ({
  title,
  excerpt: 'An excerpt long enough for the rules of the blog.',
  content: `<h2>Body</h2><p>${'Words of a post that is long enough to be stored. '.repeat(4)}</p>`,
  author: 'n8n Bot',
  category: 'AI Automation',
  metaDescription: 'A meta description that is long enough for the rules of the blog posts.',
});

/*
 * The HTTP side of issue 23: the webhook's `scheduled` status and its messages, the admin's schedule, history and
 * recently-deleted routes, and a schedule that falls due while no server runs. The server's clock is the test's.
 */
describe.each(testBackends().map((b) => b.name))('scheduling and history over HTTP (%s)', (backend) => {
  let server: TestServer;
  let cookie: string;
  const schema = uniqueSchema();
  // The webhook signs with the real time (the server's clock must agree within 5 minutes): the clock starts there.
  const BASE = Math.floor(Date.now() / 60_000) * 60_000;
  let nowMs = BASE;
  const clock = () => new Date(nowMs);
  const iso = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    server = await startTestServer({
      env: { ...ADMIN_ENV, PUBLIC_ORIGIN: TEST_ORIGIN, WEBHOOK_SECRET: SECRET, ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: { clock, schedulerPollMs: 60_000, ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}) },
    });
    cookie = await adminCookie(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const hook = (body: unknown, key: string) => sendWebhook(server.url, SECRET, body, key);
  const admin = (p: string, init: Parameters<typeof call>[2] = {}) => call(server.url, p, { ...init, cookie });

  it('takes status "scheduled" with a publishAt from the webhook, and says what is wrong with a bad one', async () => {
    const at = new Date(nowMs + 3 * 86_400_000).toISOString().replace('Z', '+00:00');
    const ok = await hook({ ...article('Scheduled from n8n for later'), status: 'scheduled', publishAt: at }, 'sched-ok');
    expect(ok.status).toBe(201);
    const result = webhookResultSchema.parse(ok.json);
    expect(result).toMatchObject({ status: 'scheduled', publishAt: new Date(Date.parse(at)).toISOString() });
    expect(result.url).toBeUndefined();
    expect((await call(server.url, `/api/posts/${result.slug}`)).status).toBe(404);
    const history = await admin(`/api/admin/posts/${result.id}/revisions`);
    expect(history.json.revisions[0]).toMatchObject({ action: 'create', author: { kind: 'webhook', label: 'Webhook (n8n)' } });

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ status: 'scheduled' }, SCHEDULE_MESSAGES.required],
      [{ status: 'scheduled', publishAt: '2026-12-01 09:00' }, SCHEDULE_MESSAGES.format],
      [{ status: 'scheduled', publishAt: new Date(nowMs - 60_000).toISOString() }, SCHEDULE_MESSAGES.past],
      [{ status: 'scheduled', publishAt: new Date(nowMs + 400 * 86_400_000).toISOString() }, SCHEDULE_MESSAGES.tooFar],
      [{ status: 'published', publishAt: at }, SCHEDULE_MESSAGES.onlyScheduled],
      [{ status: 'later', publishAt: at }, 'status: must be "draft", "published" or "scheduled"'],
    ];
    for (const [i, [fields, message]] of cases.entries()) {
      const res = await hook({ ...article(`Badly scheduled post ${i}`), ...fields }, `sched-bad-${i}`);
      expect(res.status, message).toBe(400);
      expect(res.json.error.message).toContain(`Validation failed: ${message}`);
      expect(res.json.error.details[0].path).toBe(fields.status === 'later' ? 'status' : 'publishAt');
    }
  });

  it('schedules, lists, unschedules and publishes now from the admin routes', async () => {
    const created = await admin('/api/admin/posts', { method: 'POST', body: article('Scheduled by the owner') });
    expect(created.status).toBe(201);
    const id = created.json.id as string;

    const missing = await admin(`/api/admin/posts/${id}/schedule`, { method: 'POST', body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toContain('publishAt is required');
    const past = await admin(`/api/admin/posts/${id}/schedule`, { method: 'POST', body: { publishAt: iso(BASE - 3_600_000) } });
    expect(past.status).toBe(400);
    expect(past.json.error.message).toContain(SCHEDULE_MESSAGES.past);

    const tomorrow = iso(BASE + 86_400_000);
    const scheduled = await admin(`/api/admin/posts/${id}/schedule`, { method: 'POST', body: { publishAt: tomorrow.replace('Z', '+00:00') } });
    expect(scheduled.status).toBe(200);
    expect(postSchema.parse(scheduled.json)).toMatchObject({ status: 'scheduled', publishAt: tomorrow });
    const list = await admin('/api/admin/posts?status=scheduled');
    // The webhook's scheduled post of the test before, and this one, with its time.
    expect(list.json.posts).toHaveLength(2);
    expect(list.json.posts.map((p: { id: string; publishAt: string }) => [p.id, p.publishAt])).toContainEqual([id, tomorrow]);
    expect(list.json.counts.scheduled).toBe(2);

    const unscheduled = await admin(`/api/admin/posts/${id}/unschedule`, { method: 'POST' });
    expect(unscheduled.json).toMatchObject({ status: 'draft', publishAt: null });
    expect((await admin(`/api/admin/posts/${id}/unschedule`, { method: 'POST' })).status).toBe(409);

    await admin(`/api/admin/posts/${id}/schedule`, { method: 'POST', body: { publishAt: tomorrow } });
    const now = await admin(`/api/admin/posts/${id}/publish`, { method: 'POST' });
    expect(now.json).toMatchObject({ status: 'published', publishedAt: iso(nowMs), publishAt: null });
    expect((await call(server.url, `/api/posts/${now.json.slug}`)).status).toBe(200);

    const history = postRevisionListSchema.parse((await admin(`/api/admin/posts/${id}/revisions`)).json);
    expect(history.revisions.map((r) => r.action)).toEqual(['publish', 'schedule', 'unschedule', 'schedule', 'create']);
  });

  it('lists revisions, shows one, restores it with the loaded version, and refuses a stale one with 409', async () => {
    const created = await admin('/api/admin/posts', { method: 'POST', body: article('History over HTTP, first') });
    const id = created.json.id as string;
    nowMs += 60_000;
    const edited = await admin(`/api/admin/posts/${id}`, { method: 'PUT', body: { ...article('History over HTTP, second'), expectedUpdatedAt: created.json.updatedAt } });
    expect(edited.status).toBe(200);

    const list = postRevisionListSchema.parse((await admin(`/api/admin/posts/${id}/revisions?limit=1`)).json);
    expect(list).toMatchObject({ total: 2, page: 1, limit: 1 });
    expect(list.revisions[0]).toMatchObject({ number: 2, changedFields: ['title'] });
    const all = postRevisionListSchema.parse((await admin(`/api/admin/posts/${id}/revisions`)).json);
    const first = postRevisionSchema.parse((await admin(`/api/admin/posts/${id}/revisions/${all.revisions[1]!.id}`)).json);
    expect(first.post.title).toBe('History over HTTP, first');
    expect((await admin(`/api/admin/posts/${id}/revisions/nope`)).status).toBe(404);
    expect((await admin(`/api/admin/posts/${id}/revisions?page=zero`)).status).toBe(400);

    const stale = await admin(`/api/admin/posts/${id}/revisions/${first.id}/restore`, { method: 'POST', body: { expectedUpdatedAt: created.json.updatedAt } });
    expect(stale.status).toBe(409);
    expect(stale.json.error.details.current.title).toBe('History over HTTP, second');
    expect((await admin(`/api/admin/posts/${id}/revisions/${first.id}/restore`, { method: 'POST', body: {} })).status).toBe(400);

    nowMs += 60_000;
    const restored = await admin(`/api/admin/posts/${id}/revisions/${first.id}/restore`, { method: 'POST', body: { expectedUpdatedAt: edited.json.updatedAt } });
    expect(restored.status).toBe(200);
    expect(restored.json.title).toBe('History over HTTP, first');
    expect((await admin(`/api/admin/posts/${id}/revisions`)).json.revisions[0]).toMatchObject({ action: 'restore', restoredFrom: 1 });
    // Without the session: 401, as every admin route.
    expect((await call(server.url, `/api/admin/posts/${id}/revisions`)).status).toBe(401);
  });

  it('refuses to restore the revision that is the current version (409 revision_is_current), recording nothing', async () => {
    const created = await admin('/api/admin/posts', { method: 'POST', body: article('Restoring the current version') });
    const id = created.json.id as string;
    nowMs += 60_000;
    const edited = await admin(`/api/admin/posts/${id}`, { method: 'PUT', body: { ...article('Restoring the current version, edited'), expectedUpdatedAt: created.json.updatedAt } });
    expect(edited.status).toBe(200);
    const history = async () => postRevisionListSchema.parse((await admin(`/api/admin/posts/${id}/revisions`)).json);
    const [second, first] = (await history()).revisions;
    const restore = (revisionId: string, expectedUpdatedAt: string) => admin(`/api/admin/posts/${id}/revisions/${revisionId}/restore`, { method: 'POST', body: { expectedUpdatedAt } });

    // The newest revision is the post as it is: nothing to restore.
    nowMs += 60_000;
    const current = await restore(second!.id, edited.json.updatedAt);
    expect(current.status).toBe(409);
    expect(current.json.error).toEqual({ code: 'revision_is_current', message: 'This revision is already the current version.' });
    expect(await history()).toMatchObject({ total: 2 });
    expect((await admin(`/api/admin/posts/${id}`)).json).toMatchObject({ title: 'Restoring the current version, edited', updatedAt: edited.json.updatedAt });

    // An older one restores as before; then it is the current version too, and so is the restore's own revision.
    const restored = await restore(first!.id, edited.json.updatedAt);
    expect(restored.status).toBe(200);
    expect(restored.json.title).toBe('Restoring the current version');
    const after = await history();
    expect(after.total).toBe(3);
    expect(after.revisions[0]).toMatchObject({ action: 'restore', restoredFrom: 1 });
    nowMs += 60_000;
    for (const revision of [first!, after.revisions[0]!]) {
      const again = await restore(revision.id, restored.json.updatedAt);
      expect(again.status).toBe(409);
      expect(again.json.error.code).toBe('revision_is_current');
    }
    expect(await history()).toMatchObject({ total: 3 });
    // A stale version is still the conflict it was (with the stored post), whatever the revision.
    const stale = await restore(second!.id, edited.json.updatedAt);
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({ code: 'conflict', details: { current: { title: 'Restoring the current version' } } });
    expect((await restore(second!.id, restored.json.updatedAt)).status).toBe(200);
    expect(await history()).toMatchObject({ total: 4 });
  });

  it('lists a deleted post under recently deleted and brings it back as a draft', async () => {
    const created = await admin('/api/admin/posts', { method: 'POST', body: article('Deleted and brought back') });
    const id = created.json.id as string;
    expect((await admin(`/api/admin/posts/${id}`, { method: 'DELETE' })).status).toBe(204);
    const deleted = deletedPostListSchema.parse((await admin('/api/admin/posts/deleted')).json);
    expect(deleted.posts[0]).toMatchObject({ id, title: 'Deleted and brought back' });
    const back = await admin(`/api/admin/posts/${id}/undelete`, { method: 'POST' });
    expect(back.status).toBe(201);
    expect(back.json).toMatchObject({ id, status: 'draft', title: 'Deleted and brought back' });
    expect((await admin(`/api/admin/posts/${id}/undelete`, { method: 'POST' })).status).toBe(404);
  });
});

describe('a schedule that falls due while no server runs', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'schedule-restart-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is published when the next server starts, with publishedAt its scheduled time', async () => {
    let nowMs = Date.parse('2026-10-01T16:00:00.000Z');
    const clock = () => new Date(nowMs);
    const first = await startTestServer({ env: { ...ADMIN_ENV, PUBLIC_ORIGIN: TEST_ORIGIN, DATA_DIR: dataDir }, deps: { clock, schedulerPollMs: 60_000 } });
    const cookie = await adminCookie(first);
    const created = await call(first.url, '/api/admin/posts', { method: 'POST', body: article('Due while the server was down'), cookie });
    const scheduled = await call(first.url, `/api/admin/posts/${created.json.id}/schedule`, {
      method: 'POST',
      body: { publishAt: '2026-10-01T09:05:00-07:00' },
      cookie,
    });
    expect(scheduled.json.status).toBe('scheduled');
    await first.close();

    // Down past the time; the next start looks at once.
    nowMs = Date.parse('2026-10-01T18:00:00.000Z');
    const second = await startTestServer({ env: { ...ADMIN_ENV, PUBLIC_ORIGIN: TEST_ORIGIN, DATA_DIR: dataDir }, deps: { clock, schedulerPollMs: 60_000 } });
    try {
      await waitFor(async () => (await call(second.url, `/api/posts/${created.json.slug}`)).status === 200, 5_000, 'the post published at start');
      const post = await call(second.url, `/api/posts/${created.json.slug}`);
      expect(post.json).toMatchObject({ status: 'published', publishedAt: '2026-10-01T16:05:00.000Z' });
    } finally {
      await second.close();
    }
  });
});
