import fc from 'fast-check';
import { CompiledQuery, sql, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { createContactRepository } from '../contact-repository';
import { createLeadsRepository, type LeadFilter, type LeadsRepository } from '../leads-repository';
import { createLeadsService } from '../leads-service';

/*
 * The inbox pages by keyset and counts from counters (migration 0020): the counters equal a real count after any
 * sequence of writes; walking older then newer visits every message once in order; the pages read an index, never
 * the whole table.
 */

const FILTERS: LeadFilter[] = ['all', 'unread', 'read', 'handled', 'open'];

type Op = { kind: 'insert'; read: boolean; handled: boolean } | { kind: 'flags'; pick: number; read?: boolean; handled?: boolean } | { kind: 'delete'; pick: number };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), read: fc.boolean(), handled: fc.boolean() }),
  fc.record({ kind: fc.constant('flags' as const), pick: fc.nat(), read: fc.boolean(), handled: fc.boolean() }, { requiredKeys: ['kind', 'pick'] }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

for (const backend of testBackends()) {
  describe(`the inbox by keyset with kept counts (${backend.name})`, () => {
    let database: TestDatabase;
    let leads: LeadsRepository;
    let n = 0;

    beforeAll(async () => {
      database = await backend.open();
      leads = createLeadsRepository(database.handle.db);
    }, 30_000);
    afterAll(async () => {
      await database?.dispose();
    });

    async function insert(read = false, handled = false, createdAt?: string) {
      n += 1;
      const at = createdAt ?? new Date(Date.UTC(2026, 0, 1) + Math.floor(n / 3) * 1000).toISOString();
      const id = `lead_${backend.name}_${String(n).padStart(6, '0')}`;
      await createContactRepository(database.handle.db).insert({
        id,
        createdAt: at,
        ipHash: 'hash',
        userAgent: null,
        name: `Person ${n}`,
        email: `p${n}@example.com`,
        company: null,
        subject: null,
        message: 'Hello there',
        mailStatus: 'disabled',
        mailAttempts: 0,
        mailNextAttemptAt: null,
        mailLastError: null,
        mailSentAt: null,
      });
      if (read || handled) await leads.setFlags(id, { readAt: read ? at : null, handledAt: handled ? at : null });
      return id;
    }

    async function counted(filter: LeadFilter) {
      let query = database.handle.db.selectFrom('contact_messages').select((eb) => eb.fn.countAll<number | string>().as('n'));
      if (filter === 'unread') query = query.where('read_at', 'is', null);
      if (filter === 'read') query = query.where('read_at', 'is not', null);
      if (filter === 'handled') query = query.where('handled_at', 'is not', null);
      if (filter === 'open') query = query.where('handled_at', 'is', null);
      return Number((await query.executeTakeFirstOrThrow()).n);
    }

    it('keeps counts equal to a count over the messages after any inserts, read/handled changes and deletes', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { maxLength: 20 }), async (ops) => {
          const ids = (await database.handle.db.selectFrom('contact_messages').select('id').execute()).map((r) => r.id);
          for (const op of ops) {
            if (op.kind === 'insert') ids.push(await insert(op.read, op.handled));
            else if (ids.length > 0) {
              const id = ids[op.pick % ids.length]!;
              if (op.kind === 'delete') {
                await database.handle.db.deleteFrom('contact_messages').where('id', '=', id).execute();
                ids.splice(ids.indexOf(id), 1);
              } else {
                const now = '2026-02-01T00:00:00.000Z';
                await leads.setFlags(id, { readAt: op.read === undefined ? undefined : op.read ? now : null, handledAt: op.handled === undefined ? undefined : op.handled ? now : null });
              }
            }
          }
          const counts = await leads.counts();
          for (const filter of FILTERS) expect(counts[filter], filter).toBe(await counted(filter));
        }),
        { numRuns: 30 },
      );
    }, 120_000);

    it('walks older then newer through every message once, in order, per filter; a bad cursor is invalid input', async () => {
      const service = createLeadsService({ leads, clock: () => new Date() });
      for (let i = 0; i < 23; i += 1) await insert(i % 3 === 0, i % 4 === 0);
      for (const filter of FILTERS) {
        const expected = (
          await database.handle.db
            .selectFrom('contact_messages')
            .select(['id', 'read_at', 'handled_at'])
            .orderBy('created_at', 'desc')
            .orderBy('id')
            .execute()
        )
          .filter((r) => (filter === 'unread' ? r.read_at === null : filter === 'read' ? r.read_at !== null : filter === 'handled' ? r.handled_at !== null : filter === 'open' ? r.handled_at === null : true))
          .map((r) => r.id);
        const pages: string[][] = [];
        let page = await service.list({ filter, limit: 4 });
        expect(page.prevCursor).toBeNull();
        expect(page.total).toBe(expected.length);
        pages.push(page.leads.map((l) => l.id));
        while (page.nextCursor) {
          page = await service.list({ filter, limit: 4, cursor: page.nextCursor });
          pages.push(page.leads.map((l) => l.id));
        }
        expect(pages.flat(), filter).toEqual(expected);
        // Back again: the same pages, newest last reached with no prevCursor.
        const back: string[][] = [pages[pages.length - 1]!];
        while (page.prevCursor) {
          page = await service.list({ filter, limit: 4, cursor: page.prevCursor });
          back.unshift(page.leads.map((l) => l.id));
        }
        expect(back, filter).toEqual(pages);
      }
      await expect(service.list({ filter: 'all', limit: 4, cursor: 'bm90IGpzb24' })).rejects.toMatchObject({ code: 'invalid_cursor' });
      await expect(service.list({ filter: 'all', limit: 4, q: 'hello', cursor: 'x' })).rejects.toMatchObject({ code: 'invalid_cursor' });
    }, 60_000);

    it('reads the first and a later page of each filter from an index, never a full scan', async () => {
      const db = database.handle.db;
      const base = Date.UTC(2025, 0, 1);
      for (let chunk = 0; chunk < 10; chunk += 1) {
        const rows = Array.from({ length: 200 }, (_, i) => {
          const k = chunk * 200 + i;
          const at = new Date(base + k * 60_000).toISOString();
          return {
            id: `bulk_${String(k).padStart(6, '0')}`, created_at: at, ip_hash: 'h', user_agent: null, name: `Bulk ${k}`, email: `b${k}@example.com`, company: null,
            subject: null, message: 'Bulk', mail_status: 'disabled' as const, mail_attempts: 0, mail_next_attempt_at: null, mail_last_error: null, mail_sent_at: null,
            request_id: null, read_at: k % 2 ? at : null, handled_at: k % 5 ? null : at,
          };
        });
        await db.insertInto('contact_messages').values(rows).execute();
      }
      await sql`analyze`.execute(db);
      // The SQL the repository runs, caught on its way to the database.
      const caught: RootOperationNode[] = [];
      const catcher: KyselyPlugin = { transformQuery: ({ node }) => (caught.push(node), node), transformResult: async ({ result }) => result };
      const spied = createLeadsRepository(db.withPlugin(catcher));
      for (const filter of FILTERS) {
        const first = await spied.keysetPage({ filter, limit: 25 });
        const last = first.leads[first.leads.length - 1]!;
        await spied.keysetPage({ filter, limit: 25, older: last });
        await spied.keysetPage({ filter, limit: 25, newer: last });
      }
      expect(caught).toHaveLength(15);
      for (const [i, node] of caught.entries()) {
        const filter = FILTERS[Math.floor(i / 3)]!;
        const compiled = db.getExecutor().compileQuery(node, { queryId: 'plan' } as never);
        const plan =
          backend.name === 'sqlite'
            ? (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]))).rows.map((r) => r.detail)
            : (await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]))).rows.map((r) => r['QUERY PLAN']);
        const text = plan.join('\n');
        if (backend.name === 'sqlite') {
          // Each filter reads its own partial index (migration 0020), so a sparse filter never walks the others.
          expect(text, compiled.sql).toMatch(filter === 'all' ? /USING (COVERING )?INDEX contact_messages_created/ : new RegExp(`USING (COVERING )?INDEX contact_messages_${filter}_idx`));
          expect(plan.some((line) => /^SCAN contact_messages$/.test(line.trim())), text).toBe(false);
        } else {
          expect(text, compiled.sql).toMatch(/Index (Only )?Scan/);
          expect(text, compiled.sql).not.toMatch(/Seq Scan/);
        }
      }
    }, 60_000);
  });
}
