import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../db/database';

export interface TestDatabase {
  handle: DatabaseHandle;
  /** Another connection to the same database, as a second instance has (closed by dispose). */
  another(): Promise<DatabaseHandle>;
  /** Closes the database and removes everything the test created. */
  dispose(): Promise<void>;
}

export interface TestBackend {
  name: 'sqlite' | 'postgres';
  open(): Promise<TestDatabase>;
}

/** A schema name of its own per test database, so parallel or repeated runs never collide. */
export const uniqueSchema = () => `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [
    {
      name: 'sqlite',
      async open() {
        const dataDir = await mkdtemp(path.join(tmpdir(), 'api-test-db-'));
        const handle = await openDatabase({ dataDir, databaseUrl: undefined });
        return {
          handle,
          // SQLite is one process's database (several instances need PostgreSQL): a second connection in this process
          // would wait for the write lock synchronously, blocking the event loop of the connection that holds it.
          // "Another instance" shares the connection, and its calls interleave with the first's as two instances' would.
          async another() {
            return handle;
          },
          async dispose() {
            await handle.close();
            await rm(dataDir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    backends.push({
      name: 'postgres',
      async open() {
        const schema = uniqueSchema();
        const handle = await openDatabase({ dataDir: tmpdir(), databaseUrl: url }, { pgSchema: schema });
        const others: DatabaseHandle[] = [];
        return {
          handle,
          async another() {
            const other = await openDatabase({ dataDir: tmpdir(), databaseUrl: url }, { pgSchema: schema });
            others.push(other);
            return other;
          },
          async dispose() {
            for (const other of others) await other.close();
            await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(handle.db);
            await handle.close();
          },
        };
      },
    });
  }
  return backends;
}
