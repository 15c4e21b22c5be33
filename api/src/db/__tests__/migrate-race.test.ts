import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database';
import { uniqueSchema } from '../../test-support/databases';

/*
 * Several sites (or parallel test runs) share one PostgreSQL database, each in its own schema. Kysely's migrator lists
 * the tables of every schema; one dropped by another site at that moment made our start fail with "schema … does not
 * exist". Opening must succeed while other schemas come and go.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('migrations while other schemas are dropped (postgres)', () => {
  it('opens and migrates every time', async () => {
    // Three other "sites" creating and dropping schemas as fast as they can.
    const admins = await Promise.all([1, 2, 3].map(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }));
    let churning = true;
    const churn = Promise.all(
      admins.map(async (admin) => {
        while (churning) {
          const other = `${uniqueSchema()}_churn`;
          // Each its own statement (a multi-statement query is one transaction: no one would see the schema).
          await admin.query(`CREATE SCHEMA "${other}"`);
          await admin.query(`CREATE TABLE "${other}".t (id int)`);
          await admin.query(`DROP SCHEMA "${other}" CASCADE`);
        }
      }),
    );
    const opened: string[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        const schema = uniqueSchema();
        const handle = await openDatabase({ dataDir: '/tmp', databaseUrl: url }, { pgSchema: schema });
        opened.push(schema);
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(handle.db);
        await handle.close();
      }
    } finally {
      churning = false;
      await churn;
      await Promise.all(admins.map((admin) => admin.end()));
    }
    expect(opened).toHaveLength(6);
  }, 120_000);
});
