import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/database';
import { createPostsRepository, createWebhookDeliveriesRepository } from '../posts-repository';
import { uniqueSchema } from '../../test-support/databases';
import { createPostService, type PostService } from '../post-service';
import { createWebhookService, signWebhookBody, type WebhookService } from '../../incoming-webhook/incoming-webhook-service';

/**
 * Two "instances": two database handles (two pools, or two SQLite connections, each with its own in-process lock) on
 * one database, each with its own services. What decides between them is the database alone.
 */
interface Backend {
  name: string;
  open(): Promise<{ a: DatabaseHandle; b: DatabaseHandle; dispose(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'sqlite',
    async open() {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'post-concurrency-'));
      const a = await openDatabase({ dataDir, databaseUrl: undefined });
      const b = await openDatabase({ dataDir, databaseUrl: undefined }, { migrate: false });
      return {
        a,
        b,
        async dispose() {
          await b.close();
          await a.close();
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  backends.push({
    name: 'postgres',
    async open() {
      const schema = uniqueSchema();
      const a = await openDatabase({ dataDir: tmpdir(), databaseUrl: pgUrl }, { pgSchema: schema });
      const b = await openDatabase({ dataDir: tmpdir(), databaseUrl: pgUrl }, { pgSchema: schema, migrate: false });
      return {
        a,
        b,
        async dispose() {
          await b.close();
          await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(a.db);
          await a.close();
        },
      };
    },
  });
}

const post = (title: string, status: 'draft' | 'published' = 'published') => ({
  title,
  excerpt: 'Two instances writing the same title at the same moment.',
  content: `<p>${'Enough words to pass the length rule of the content. '.repeat(4)}</p>`,
  author: 'Ops Team',
  category: 'Industry Insights',
  metaDescription: 'What happens when two servers create posts with one title at the same moment.',
  status,
});

const SECRET = 'concurrency-secret';

describe.each(backends)('posts written by two instances at once ($name)', (backend) => {
  let dispose: () => Promise<void>;
  let posts: [PostService, PostService];
  let webhooks: [WebhookService, WebhookService];
  let handles: [DatabaseHandle, DatabaseHandle];

  beforeAll(async () => {
    const opened = await backend.open();
    dispose = opened.dispose;
    handles = [opened.a, opened.b];
    const services = (handle: DatabaseHandle) => {
      const postService = createPostService({ posts: createPostsRepository(handle.db), clock: () => new Date() });
      const webhook = createWebhookService({
        secret: SECRET,
        posts: postService,
        deliveries: createWebhookDeliveriesRepository(handle.db),
        clock: () => new Date(),
        publicOrigin: 'https://example.test',
      });
      return { postService, webhook };
    };
    const [a, b] = [services(opened.a), services(opened.b)];
    posts = [a.postService, b.postService];
    webhooks = [a.webhook, b.webhook];
  });
  afterAll(() => dispose());

  it('gives twelve posts with one title twelve slugs (the unique index decides, no lost post)', async () => {
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) => posts[i % 2]!.create(post('Same Title From Two Servers'), { allowStatus: true })),
    );
    const slugs = created.map((p) => p.slug);
    expect(new Set(slugs).size).toBe(12);
    expect(slugs).toContain('same-title-from-two-servers');
    const listed = await posts[0].listAll({ q: 'Same Title From Two Servers' });
    expect(listed.map((p) => p.slug).sort()).toEqual([...slugs].sort());
  });

  it('publishes a draft once when both instances publish it at the same moment', async () => {
    const draft = await posts[0].create(post('A Draft Published Twice', 'draft'), { allowStatus: true });
    const outcomes = await Promise.allSettled([posts[0].publish(draft.id), posts[1].publish(draft.id)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ kind: 'conflict' });
    expect((await posts[1].getById(draft.id)).status).toBe('published');
  });

  it('keeps the change of the first of two concurrent edits and refuses the stale one', async () => {
    const original = await posts[0].create(post('An Edited Post'), { allowStatus: true });
    const outcomes = await Promise.allSettled([
      posts[0].update(original.id, { ...post('An Edited Post, Version A') }, { expectedUpdatedAt: original.updatedAt }),
      posts[1].update(original.id, { ...post('An Edited Post, Version B') }, { expectedUpdatedAt: original.updatedAt }),
    ]);
    const won = outcomes.filter((o): o is PromiseFulfilledResult<Awaited<ReturnType<PostService['update']>>> => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ kind: 'conflict' });
    expect((await posts[1].getById(original.id)).title).toBe(won[0]!.value.title);
  });

  /** Both instances' services with a clock that stands still: every write happens in the same millisecond. */
  const frozenServices = () => {
    const at = new Date('2026-05-04T09:00:00.000Z');
    return handles.map((h) => createPostService({ posts: createPostsRepository(h.db), clock: () => at })) as [PostService, PostService];
  };

  it('refuses the stale one of two concurrent edits made within one millisecond of the last write', async () => {
    // The version checked is updatedAt: each write gives a new one even when the clock has not moved, or both edits
    // would match the version they read and the second would overwrite the first unseen.
    const [a, b] = frozenServices();
    const original = await a.create(post('An Edited Post In One Millisecond'), { allowStatus: true });
    const outcomes = await Promise.allSettled([
      a.update(original.id, post('An Edited Post In One Millisecond, Version A'), { expectedUpdatedAt: original.updatedAt }),
      b.update(original.id, post('An Edited Post In One Millisecond, Version B'), { expectedUpdatedAt: original.updatedAt }),
    ]);
    const won = outcomes.filter((o): o is PromiseFulfilledResult<Awaited<ReturnType<PostService['update']>>> => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ kind: 'conflict' });
    const stored = await b.getById(original.id);
    expect(stored.title).toBe(won[0]!.value.title);
    expect(stored.updatedAt > original.updatedAt).toBe(true);
    expect((await b.revisions(original.id)).revisions.map((r) => r.action)).toEqual(['update', 'create']);
  });

  it('restores a revision once when both instances restore it at once, even when their clocks stand still', async () => {
    const [a, b] = frozenServices();
    const created = await a.create(post('A Post Restored Twice'), { allowStatus: true });
    const edited = await a.update(created.id, post('A Post Restored Twice, Edited'), { expectedUpdatedAt: created.updatedAt });
    expect(edited.updatedAt > created.updatedAt).toBe(true);
    const first = (await a.revisions(created.id)).revisions.at(-1)!;
    const outcomes = await Promise.allSettled([
      a.restoreRevision(created.id, first.id, { expectedUpdatedAt: edited.updatedAt }),
      b.restoreRevision(created.id, first.id, { expectedUpdatedAt: edited.updatedAt }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    // The second is told the post changed meanwhile (409 with the current post), and stores nothing.
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ kind: 'conflict' });
    const history = await b.revisions(created.id);
    expect(history.revisions.map((r) => r.action)).toEqual(['restore', 'update', 'create']);
    expect((await b.getById(created.id)).title).toBe('A Post Restored Twice');
  });

  it('creates one post when one signed delivery reaches both instances at once', async () => {
    const rawBody = JSON.stringify(post('Delivered To Both Instances'));
    const signature = signWebhookBody(SECRET, rawBody, Math.floor(Date.now() / 1000));
    const delivery = { rawBody, body: JSON.parse(rawBody) as unknown, signature, idempotencyKey: 'n8n-execution-42' };
    const outcomes = await Promise.allSettled([webhooks[0].receive(delivery), webhooks[1].receive(delivery), webhooks[0].receive(delivery)]);
    const created = outcomes.filter((o) => o.status === 'fulfilled' && !o.value.replayed);
    expect(created).toHaveLength(1);
    // The others are told it was already handled (replayed) or is being handled right now (409, retry).
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(o.reason).toMatchObject({ kind: 'conflict', code: 'delivery_in_progress' });
    }
    const stored = await posts[1].listAll({ q: 'Delivered To Both Instances' });
    expect(stored).toHaveLength(1);
  });
});
