import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../lib/logger';
import { testBackends, type TestDatabase } from '../../test-support/databases';
import { listenToPostgres, schemaChannel, schemaChannelSql, type PgListener } from '../pg-listen';

/*
 * Several sites (or test runs) in schemas of one PostgreSQL database: each hears only its own notices (content changes,
 * release moves). Before, every site in the database shared `site_content` and `site_releases`, so a change in one
 * dropped the others' cached pages and made them sync.
 */
const postgres = testBackends().find((b) => b.name === 'postgres');

describe.skipIf(!postgres)('NOTIFY channels per schema (PostgreSQL: needs TEST_DATABASE_URL)', () => {
  const sites: TestDatabase[] = [];
  const listeners: PgListener[] = [];
  beforeAll(async () => {
    sites.push(await postgres!.open(), await postgres!.open());
  });
  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.close()));
    await Promise.all(sites.map((s) => s.dispose()));
  });

  it('names a channel the same in the server and in SQL, one per schema, and the plain name in public', async () => {
    const [a, b] = sites as [TestDatabase, TestDatabase];
    const inSql = async (site: TestDatabase) => (await sql<{ name: string }>`select ${schemaChannelSql('site_content')} as name`.execute(site.handle.db)).rows[0]!.name;
    expect(await inSql(a)).toBe(schemaChannel('site_content', a.handle.pgSchema));
    expect(await inSql(b)).toBe(schemaChannel('site_content', b.handle.pgSchema));
    expect(schemaChannel('site_content', a.handle.pgSchema)).not.toBe(schemaChannel('site_content', b.handle.pgSchema));
    expect(schemaChannel('site_content', 'public')).toBe('site_content');
    expect(schemaChannel('site_content', a.handle.pgSchema).length).toBeLessThan(64);
  });

  it("delivers a notice to its own schema's listeners only", async () => {
    const [a, b] = sites as [TestDatabase, TestDatabase];
    const heard: Record<'a' | 'b', string[]> = { a: [], b: [] };
    const connected: Array<Promise<void>> = [];
    for (const [name, site] of [['a', a], ['b', b]] as const) {
      let ready!: () => void;
      connected.push(new Promise<void>((resolve) => (ready = resolve)));
      listeners.push(
        listenToPostgres({
          connectionString: process.env.TEST_DATABASE_URL!,
          channels: [schemaChannel('site_releases', site.handle.pgSchema)],
          onNotification: (_channel, payload) => heard[name].push(payload ?? ''),
          onConnect: ready,
          logger: createLogger({ level: 'silent' }),
        }),
      );
    }
    await Promise.all(connected);
    await sql`select pg_notify(${schemaChannelSql('site_releases')}, 'blog')`.execute(a.handle.db);
    // A notice to b after the one to a: once b has its own, a's would have reached b before it (one server, in order).
    await sql`select pg_notify(${schemaChannelSql('site_releases')}, 'marker')`.execute(b.handle.db);
    await expect.poll(() => heard.b).toEqual(['marker']);
    await expect.poll(() => heard.a).toEqual(['blog']);
  });
});
