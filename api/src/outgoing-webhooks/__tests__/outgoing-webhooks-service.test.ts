import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhooksOutRepository } from '../outgoing-webhooks-repository';
import { createJobRunner } from '../../lib/job-runner';
import { createLogger } from '../../lib/logger';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createWebhookSender } from '../webhook-sender';
import { createContactRepository, type StoredContactMessage } from '../../contact/contact-repository';
import { createPostsRepository } from '../../posts/posts-repository';
import { createContactService } from '../../contact/contact-service';
import { createPostService, type PostEvent } from '../../posts/post-service';
import { createWebhooksOutService, leadCreatedData, postEventData, type WebhooksOutService } from '../outgoing-webhooks-service';
import type { WebhooksOutRepository } from '../outgoing-webhooks-repository';

describe.each(testBackends())('outgoing webhooks on two instances ($name)', (backend) => {
  let database: TestDatabase;
  let receiver: http.Server;
  let url: string;
  const ids: string[] = [];

  beforeAll(async () => {
    database = await backend.open();
    receiver = http.createServer((req, res) => {
      ids.push(String(req.headers['x-webhook-id']));
      // A little latency, so the two instances' runs overlap.
      setTimeout(() => res.writeHead(204).end(), 5);
      req.resume();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await database?.dispose();
  });

  it('sends each event once per endpoint though both instances poll the same outbox', async () => {
    const other = await database.another();
    // Two instances: each its own job runner (not started: the test runs the outboxes by kicking them, all at once).
    const runners = [0, 1].map(() => createJobRunner({ clock: () => new Date(), logger: createLogger({ level: 'silent' }) }));
    const make = (db: typeof database.handle.db, i: number) =>
      createWebhooksOutService({
        repository: createWebhooksOutRepository(db),
        // The receiver is on 127.0.0.1: private targets allowed, as WEBHOOK_ALLOW_PRIVATE_TARGETS does.
      sender: createWebhookSender({ allowPrivateTargets: true }),
      allowPrivateTargets: true,
        clock: () => new Date(),
        logger: createLogger({ level: 'silent' }),
        jobs: runners[i]!,
      });
    const a = make(database.handle.db, 0);
    const b = make(other.db, 1);
    await a.createEndpoint({ url, events: ['lead.created'] });
    await a.createEndpoint({ url: `${url}?second`, events: ['lead.created'] });
    const emits: Array<Promise<unknown>> = [];
    for (let i = 0; i < 30; i++) {
      const data = leadCreatedData({ id: `m${i}`, createdAt: new Date().toISOString(), name: 'N', email: 'n@example.com', company: null, subject: null, message: 'hello' });
      const instance = i % 2 ? a : b;
      emits.push(
        (i % 2 ? database.handle.db : other.db)
          .transaction()
          .execute((trx) => instance.enqueueIn(trx, 'lead.created', data))
          .then(() => instance.kick()),
      );
      emits.push(a.processOutbox(), b.processOutbox());
    }
    await Promise.all(emits);
    await Promise.all([a.processOutbox(), b.processOutbox()]);
    await Promise.all([a.processOutbox(), b.processOutbox()]);
    // 30 events x 2 endpoints: 60 deliveries, each event id twice (once per endpoint), none more.
    expect(ids).toHaveLength(60);
    const counts = new Map<string, number>();
    for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect(counts.size).toBe(30);
    expect([...counts.values()].every((n) => n === 2)).toBe(true);
    await Promise.all(runners.map((runner) => runner.stop()));
  });
});

describe.each(testBackends())('an event and its change are stored together ($name)', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /**
   * The real outbox, which can be made to fail right after it wrote an event's deliveries (as a crash there would):
   * the change in the same transaction must go with them.
   */
  function outbox() {
    const real = createWebhooksOutRepository(database.handle.db);
    const fault = { armed: false };
    const failing = (repo: WebhooksOutRepository): WebhooksOutRepository => ({
      ...repo,
      on: (trx) => failing(repo.on(trx)),
      async insertDeliveries(rows) {
        await repo.insertDeliveries(rows);
        if (fault.armed) throw new Error('crashed after writing the outbox rows');
      },
    });
    const jobs = createJobRunner({ clock: () => new Date(), logger: createLogger({ level: 'silent' }) });
    const service: WebhooksOutService = createWebhooksOutService({
      repository: failing(real),
      // The receiver is on 127.0.0.1: private targets allowed, as WEBHOOK_ALLOW_PRIVATE_TARGETS does.
      sender: createWebhookSender({ allowPrivateTargets: true }),
      allowPrivateTargets: true,
      clock: () => new Date(),
      logger: createLogger({ level: 'silent' }),
      jobs,
    });
    return { service, fault, jobs };
  }

  const deliveries = async (eventType: string) =>
    (await database.handle.db.selectFrom('outgoing_webhook_deliveries').select(['payload']).where('event_type', '=', eventType).execute()).map(
      (r) => JSON.parse(r.payload) as { data: { id: string } },
    );

  it('a contact message is stored with its lead.created, or neither is', async () => {
    const { service, fault, jobs } = outbox();
    await service.createEndpoint({ url: 'http://127.0.0.1:9/hook', events: ['lead.created'] });
    await jobs.stop(); // kicks after the commit do nothing: only what is stored is looked at
    const contact = createContactService({
      jobs,
      messages: createContactRepository(database.handle.db),
      clock: () => new Date(),
      logger: createLogger({ level: 'silent' }),
      mailTo: 'owner@example.com',
      mailFrom: 'site@example.com',
      events: service.changeEvents<StoredContactMessage>((m) => ({ type: 'lead.created', data: leadCreatedData(m) })),
    });
    const input = { name: 'Dana', email: 'dana@example.com', company: undefined, subject: undefined, message: 'We need help with invoices.' };
    const count = async () => Number((await database.handle.db.selectFrom('contact_messages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();

    fault.armed = true;
    await expect(contact.submit(input, { ip: '127.0.0.1', userAgent: undefined })).rejects.toThrow('crashed after writing the outbox rows');
    expect(await count()).toBe(before);
    expect(await deliveries('lead.created')).toHaveLength(0);

    fault.armed = false;
    const stored = await contact.submit(input, { ip: '127.0.0.1', userAgent: undefined });
    expect(stored.kind).toBe('stored');
    expect(await count()).toBe(before + 1);
    const events = await deliveries('lead.created');
    expect(events.map((e) => e.data.id)).toEqual([stored.kind === 'stored' ? stored.message.id : '']);
  });

  it('a post change is stored with its revision and its event, or none of them is', async () => {
    const { service, fault, jobs } = outbox();
    await service.createEndpoint({ url: 'http://127.0.0.1:9/hook', events: ['post.published', 'post.updated', 'post.deleted'] });
    await jobs.stop();
    const posts = createPostService({
      posts: createPostsRepository(database.handle.db),
      clock: () => new Date(),
      events: service.changeEvents<PostEvent>(({ type, post }) => ({ type, data: postEventData(post, 'http://127.0.0.1', type === 'post.deleted') })),
    });
    const body = ' An owner in Danville wants every lead to reach the CRM and the team chat without anyone copying it by hand.</p>';
    const input = {
      title: 'Outbox and posts',
      content: `<p>First words.${body}`,
      excerpt: 'Where every event of the site goes, and when.',
      metaDescription: 'How the outbox keeps every change and its outgoing event together, always.',
      category: 'Automation',
      author: 'Owner',
      status: 'published',
    };

    fault.armed = true;
    await expect(posts.create(input, { allowStatus: true })).rejects.toThrow('crashed after writing the outbox rows');
    expect((await posts.listAll()).filter((p) => p.title === input.title)).toHaveLength(0);
    expect(await deliveries('post.published')).toHaveLength(0);

    fault.armed = false;
    const post = await posts.create(input, { allowStatus: true });
    expect((await deliveries('post.published')).map((e) => e.data.id)).toEqual([post.id]);
    const revisions = async () => (await posts.revisions(post.id)).total;
    expect(await revisions()).toBe(1);

    fault.armed = true;
    await expect(posts.update(post.id, { ...input, content: `<p>Second words.${body}` }, { expectedUpdatedAt: post.updatedAt })).rejects.toThrow('crashed');
    expect((await posts.getById(post.id)).content).toContain('First words.');
    expect(await revisions()).toBe(1);
    expect(await deliveries('post.updated')).toHaveLength(0);
    await expect(posts.delete(post.id)).rejects.toThrow('crashed');
    expect((await posts.getById(post.id)).id).toBe(post.id);
    expect(await deliveries('post.deleted')).toHaveLength(0);

    fault.armed = false;
    await posts.delete(post.id);
    expect((await deliveries('post.deleted')).map((e) => e.data.id)).toEqual([post.id]);
  });
});
