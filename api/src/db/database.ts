import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import type { Logger } from '../lib/logger';
import { LibsqlDialect } from './libsql-dialect';
import { migrateToLatest } from './migrate';
import type { Database } from './schema';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Applies pending migrations; returns the names applied. `openDatabase` already did. */
  migrate(): Promise<string[]>;
  /** True when a trivial query answers within `timeoutMs`. Never throws. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Closes the pool or file; safe to call twice. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL schema to work in (created if missing). Tests use one per run; default `public`. */
  pgSchema?: string;
  /** Run pending migrations before returning (default true). */
  migrate?: boolean;
  logger?: Logger;
}

export const SQLITE_FILE_NAME = 'site.db';

/**
 * Opens the configured database and brings its schema up to date: PostgreSQL when
 * `databaseUrl` is set, otherwise the SQLite file `${dataDir}/site.db` (directory created).
 */
export async function openDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  options: OpenDatabaseOptions = {},
): Promise<DatabaseHandle> {
  const { dialect, db, migrationTableSchema } = config.databaseUrl
    ? await openPostgres(config.databaseUrl, options)
    : await openSqlite(config.dataDir);

  let closing: Promise<void> | undefined;
  const handle: DatabaseHandle = {
    db,
    dialect,
    migrate: () => migrateToLatest(db, { migrationTableSchema }),
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const query = sql`select 1 as ok`.execute(db).then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([query, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      closing ??= db.destroy();
      return closing;
    },
  };

  if (options.migrate ?? true) {
    try {
      const applied = await handle.migrate();
      if (applied.length > 0) options.logger?.info({ applied }, 'database migrated');
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return handle;
}

async function openSqlite(dataDir: string) {
  await mkdir(dataDir, { recursive: true });
  const db = new Kysely<Database>({ dialect: new LibsqlDialect({ path: path.join(dataDir, SQLITE_FILE_NAME) }) });
  return { dialect: 'sqlite' as const, db, migrationTableSchema: undefined };
}

async function openPostgres(connectionString: string, options: OpenDatabaseOptions) {
  const quoted = options.pgSchema === undefined ? undefined : `"${options.pgSchema.replace(/"/g, '""')}"`;
  // A schema from the caller is every connection's search_path from its start (a startup parameter: no query of ours
  // races the first one on a new connection). Backslash-escaped, as the server splits `options` on spaces.
  const pool = new pg.Pool({ connectionString, max: 10, ...(quoted ? { options: `-c search_path=${quoted.replace(/[\\ ]/g, '\\$&')}` } : {}) });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', (error) => options.logger?.error({ err: error }, 'postgres pool error'));
  // Without a schema from the caller, the site lives in the connection's current schema: `public`, or the one a
  // DATABASE_URL names with `?options=-c%20search_path%3D<schema>` (several sites or test runs on one database).
  const schema = options.pgSchema ?? (await currentSchema(pool));
  if (quoted) {
    try {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    } catch (error) {
      await pool.end();
      throw error;
    }
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // Kysely looks for its migration tables in every schema unless told which one is ours.
  return { dialect: 'postgres' as const, db, migrationTableSchema: schema };
}

async function currentSchema(pool: pg.Pool): Promise<string> {
  let schema: string | null | undefined;
  try {
    schema = (await pool.query<{ schema: string | null }>('select current_schema() as schema')).rows[0]?.schema;
  } catch (error) {
    await pool.end();
    throw error;
  }
  if (!schema) {
    await pool.end();
    throw new Error('DATABASE_URL: no schema of its search_path exists (create it first, e.g. CREATE SCHEMA site)');
  }
  return schema;
}
