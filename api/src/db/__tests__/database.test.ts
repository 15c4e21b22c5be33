import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { migrations } from '../migrations/all-migrations';

const row = (id: string) => ({ id, name: 'page_view', props: null, path: '/', at: 'x', received_at: 'x' });

describe.each(testBackends())('database on $name', (backend) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await backend.open();
  });
  afterAll(() => database.dispose());

  it('has applied every migration, and applying again changes nothing', async () => {
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.handle.db);
    expect(applied.rows.map((r) => r.name)).toEqual(migrations.map((m) => m.name));
    expect(await database.handle.migrate()).toEqual([]);
  });

  it('commits a transaction and rolls back a failed one', async () => {
    const { db } = database.handle;
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('events').values(row('t1')).execute();
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('events').values(row('t2')).execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const ids = await db.selectFrom('events').select('id').where('id', 'in', ['t1', 't2']).execute();
    expect(ids).toEqual([{ id: 't1' }]);
  });

  it('keeps concurrent transactions apart', async () => {
    const { db } = database.handle;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    // Each transaction reads, waits, then writes what it read plus one row: interleaving would show up
    // as an aborted transaction (SQLite) or a lost count.
    const work = (prefix: string) =>
      db.transaction().execute(async (trx) => {
        for (let i = 0; i < 3; i++) {
          await trx.insertInto('events').values(row(`${prefix}-${i}`)).execute();
          await pause();
        }
        const mine = await trx.selectFrom('events').select('id').where('id', 'like', `${prefix}-%`).execute();
        if (prefix === 'bad') throw new Error('roll me back');
        return mine.length;
      });
    const results = await Promise.allSettled([work('c1'), work('bad'), work('c2'), db.selectFrom('events').selectAll().execute()]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[0] as PromiseFulfilledResult<number>).value).toBe(3);
    const count = await db.selectFrom('events').select('id').where('id', 'like', 'bad-%').execute();
    expect(count).toEqual([]);
  });

  it('reports affected rows for updates and deletes', async () => {
    const { db } = database.handle;
    const updated = await db.updateTable('events').set({ path: '/changed' }).where('id', 'in', ['c1-0', 'c1-1']).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const deleted = await db.deleteFrom('events').where('id', '=', 'c2-0').executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(1n);
  });

  it('supports savepoints inside a transaction', async () => {
    const { db } = database.handle;
    const trx = await db.startTransaction().execute();
    await trx.insertInto('events').values(row('sp-1')).execute();
    const sp = await trx.savepoint('inner').execute();
    await sp.insertInto('events').values(row('sp-2')).execute();
    await sp.rollbackToSavepoint('inner').execute();
    await trx.commit().execute();
    const ids = await db.selectFrom('events').select('id').where('id', 'like', 'sp-%').execute();
    expect(ids).toEqual([{ id: 'sp-1' }]);
  });
});
