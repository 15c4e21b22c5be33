import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhooksOutRepository } from '../../db/repositories/webhooks-out-repository';
import { createLogger } from '../../lib/logger';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createWebhookSender } from '../webhook-sender';
import { createWebhooksOutService, leadCreatedData } from '../webhooks-out-service';

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
    const make = (db: typeof database.handle.db) =>
      createWebhooksOutService({ repository: createWebhooksOutRepository(db), sender: createWebhookSender(), clock: () => new Date(), logger: createLogger({ level: 'silent' }) });
    const a = make(database.handle.db);
    const b = make(other.db);
    await a.createEndpoint({ url, events: ['lead.created'] });
    await a.createEndpoint({ url: `${url}?second`, events: ['lead.created'] });
    const emits: Array<Promise<unknown>> = [];
    for (let i = 0; i < 30; i++) {
      const data = leadCreatedData({ id: `m${i}`, createdAt: new Date().toISOString(), name: 'N', email: 'n@example.com', company: null, subject: null, message: 'hello' });
      emits.push((i % 2 ? a : b).emit('lead.created', data));
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
    await Promise.all([a.stop(), b.stop()]);
  });
});
