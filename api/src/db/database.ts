import { chmod, mkdir, open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Kysely, PostgresDialect, sql, type LogEvent } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import type { Logger } from '../lib/logger';
import { guardedDialect } from './guarded-dialect';
import { LibsqlDialect, sqliteQueueLength } from './libsql-dialect';
import { withSchemaScopedIntrospector } from './pg-introspector';
import { tracedDialect } from './traced-dialect';
import { migrateToLatest } from './migrate';
import type { Database } from './schema';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** PostgreSQL: the schema the site lives in (`public`, or one of several sites' or test runs' on one database). */
  pgSchema?: string;
  /** Applies pending migrations; returns the names applied. `openDatabase` already did. */
  migrate(): Promise<string[]>;
  /**
   * True when a trivial query answers within `timeoutMs`. Never throws. On PostgreSQL it goes over a connection of its
   * own, outside the pool: a pool full of requests waiting on a lock does not make the database look down.
   */
  ping(timeoutMs?: number): Promise<boolean>;
  /** When the database last answered anything (a statement or a ping), as Date.now(); undefined before the first. */
  lastAnswerAt(): number | undefined;
  /** Closes the pool or file; safe to call twice. */
  close(): Promise<void>;
  /**
   * Connection use now (the metrics): PostgreSQL's pool (connections open, idle, queries waiting for one); on SQLite
   * the one connection's queue (statements and transactions waiting for the file's mutex).
   */
  poolStats(): { total?: number; idle?: number; waiting: number };
}

export interface OpenDatabaseOptions {
  /** PostgreSQL schema to work in (created if missing). Tests use one per run; default `public`. */
  pgSchema?: string;
  /** Run pending migrations before returning (default true). */
  migrate?: boolean;
  logger?: Logger;
  /** A span per query (OpenTelemetry tracing is on): db/traced-dialect.ts. */
  trace?: boolean;
  /** Told of every query run (Kysely's `log`): tests count what a request reads. */
  onQuery?: (event: LogEvent) => void;
}

/** DB_STATEMENT_TIMEOUT_MS and DB_ACQUIRE_TIMEOUT_MS when the config does not say (config.ts documents them). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 5000;
/** A transaction left open this long between statements is ended by PostgreSQL (its locks with it). */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;

type DatabaseConfig = Pick<Config, 'dataDir' | 'databaseUrl'> & Partial<Pick<Config, 'dbStatementTimeoutMs' | 'dbAcquireTimeoutMs'>>;

export const SQLITE_FILE_NAME = 'site.db';

/**
 * Opens the configured database and brings its schema up to date: PostgreSQL when
 * `databaseUrl` is set, otherwise the SQLite file `${dataDir}/site.db` (directory created).
 */
export async function openDatabase(config: DatabaseConfig, options: OpenDatabaseOptions = {}): Promise<DatabaseHandle> {
  let lastAnswer: number | undefined;
  const answered = () => {
    lastAnswer = Date.now();
  };
  const { dialect, db, migrationTableSchema, poolStats, probe, migrator, closeExtra } = config.databaseUrl
    ? await openPostgres(config.databaseUrl, config, options, answered)
    : await openSqlite(config.dataDir, config, options, answered);

  let closing: Promise<void> | undefined;
  const handle: DatabaseHandle = {
    db,
    dialect,
    ...(migrationTableSchema ? { pgSchema: migrationTableSchema } : {}),
    migrate: () => migrator(),
    lastAnswerAt: () => lastAnswer,
    async ping(timeoutMs = 2000) {
      if (probe) {
        const ok = await probe(timeoutMs);
        if (ok) answered();
        return ok;
      }
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
      closing ??= Promise.all([db.destroy(), closeExtra?.()]).then(() => undefined);
      return closing;
    },
    poolStats,
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

/** The files SQLite keeps beside the database: write-ahead log, its shared-memory index, a rollback journal. */
const SQLITE_FILES = ['', '-wal', '-shm', '-journal'].map((suffix) => `${SQLITE_FILE_NAME}${suffix}`);

/**
 * The SQLite file holds contact messages, so only our user may read it: the directory 0700 and the files 0600,
 * whatever the umask. Files: SQLite creates -wal/-shm/-journal with the database file's own mode, so creating that
 * file 0600 before SQLite opens it covers them; files left 0644 by an older version are tightened at every start.
 * Directory: tightened when we create it, or when it is ours and holds nothing but our files (the `./data` an older
 * version created). A directory the operator made for more than this (a volume, a home, shared with a backup
 * agent) keeps its mode: it is theirs to set, and our 0600 files are private inside it anyway.
 */
async function securePrivateDataDir(dataDir: string, logger?: Logger): Promise<void> {
  const existed = await stat(dataDir).then(
    (s) => s,
    () => undefined,
  );
  if (!existed) await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const entries = await readdir(dataDir);
  // `media`: the media library's files (media/media-store.ts), ours too.
  const onlyOurs = entries.every((name) => SQLITE_FILES.includes(name) || name === 'media');
  const ownedByUs = !existed || typeof process.getuid !== 'function' || existed.uid === process.getuid();
  const targets: Array<[string, number]> = [];
  if (!existed || (onlyOurs && ownedByUs)) targets.push([dataDir, 0o700]);
  for (const name of SQLITE_FILES.filter((n) => entries.includes(n))) targets.push([path.join(dataDir, name), 0o600]);
  for (const [target, mode] of targets) {
    try {
      if (((await stat(target)).mode & 0o777) !== mode) await chmod(target, mode);
    } catch (error) {
      // Not ours to change (another owner, a read-only mount): the site still runs, and the operator is told.
      logger?.warn({ err: error, path: target }, 'could not restrict the permissions of a data file');
    }
  }
  if (!entries.includes(SQLITE_FILE_NAME)) {
    // Created empty here (0600; a umask only removes bits), SQLite then makes it a database. 'wx' never truncates
    // a database another process created meanwhile.
    await open(path.join(dataDir, SQLITE_FILE_NAME), 'wx', 0o600).then(
      (file) => file.close(),
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      },
    );
  }
}

async function openSqlite(dataDir: string, config: DatabaseConfig, options: OpenDatabaseOptions, answered: () => void) {
  await securePrivateDataDir(dataDir, options.logger);
  const file = path.join(dataDir, SQLITE_FILE_NAME);
  // A writer of another process holding the file past busy_timeout is SQLITE_BUSY (503); a long transaction of this
  // process holds the file's mutex, which a request waits for at most the acquire timeout.
  const base = new LibsqlDialect({ path: file, busyTimeoutMs: config.dbStatementTimeoutMs || DEFAULT_STATEMENT_TIMEOUT_MS });
  const dialect = guardedDialect(options.trace ? tracedDialect(base, 'sqlite') : base, {
    onAnswer: answered,
    acquireTimeoutMs: config.dbAcquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS,
  });
  const db = new Kysely<Database>({ dialect, ...(options.onQuery ? { log: options.onQuery } : {}) });
  return {
    dialect: 'sqlite' as const,
    db,
    migrationTableSchema: undefined,
    poolStats: () => ({ waiting: sqliteQueueLength(file) }),
    probe: undefined,
    migrator: () => migrateToLatest(db),
    closeExtra: undefined,
  };
}

async function openPostgres(connectionString: string, config: DatabaseConfig, options: OpenDatabaseOptions, answered: () => void) {
  const quoted = options.pgSchema === undefined ? undefined : `"${options.pgSchema.replace(/"/g, '""')}"`;
  const statementMs = config.dbStatementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const acquireMs = config.dbAcquireTimeoutMs ?? DEFAULT_ACQUIRE_TIMEOUT_MS;
  // A schema from the caller is every connection's search_path from its start (a startup parameter: no query of ours
  // races the first one on a new connection). Backslash-escaped, as the server splits `options` on spaces.
  const schemaOptions = quoted ? { options: `-c search_path=${quoted.replace(/[\\ ]/g, '\\$&')}` } : {};
  // No request waits past the timeouts: for a connection (pool full, or the server not answering the connect), for a
  // statement (the server cancels it: a lock, a slow plan), and, should the server not even answer the cancel (a
  // network cut), for the reply on the socket. A statement timeout of 0 turns the last two off.
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: acquireMs,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    ...(statementMs > 0 ? { statement_timeout: statementMs, query_timeout: statementMs + 2000 } : {}),
    ...schemaOptions,
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', (error) => options.logger?.warn({ err: error }, 'postgres connection lost while idle; the pool opens a new one when needed'));
  // A client checked out of the pool has no 'error' listener of pg-pool's (node-postgres #1324, #2439): the server
  // going away between two statements of a transaction would be an uncaught 'error' and end the process. The query
  // that uses it next fails (a 503), and the pool drops it when it is released.
  pool.on('connect', (client) => {
    client.on('error', (error) => options.logger?.warn({ err: error }, 'postgres connection lost while in use'));
  });
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
  // The migrator's table lookups read our schema only (pg-introspector.ts): another site's schema dropped meanwhile
  // cannot fail our start.
  const base = withSchemaScopedIntrospector(new PostgresDialect({ pool }), schema);
  const dialect = guardedDialect(options.trace ? tracedDialect(base, 'postgresql') : base, { onAnswer: answered });
  const db = new Kysely<Database>({ dialect, ...(options.onQuery ? { log: options.onQuery } : {}) });
  const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  // Migrations (at start, or `migrate()`) may build an index over a large table: one connection of their own, without
  // the request's statement timeout. Kysely looks for its migration tables in every schema unless told which one is ours.
  const migrator = async () => {
    const migrationPool = new pg.Pool({ connectionString, max: 1, connectionTimeoutMillis: acquireMs, ...schemaOptions });
    migrationPool.on('error', (error) => options.logger?.warn({ err: error }, 'postgres migration connection lost'));
    const migrationDb = new Kysely<Database>({ dialect: withSchemaScopedIntrospector(new PostgresDialect({ pool: migrationPool }), schema) });
    try {
      return await migrateToLatest(migrationDb, { migrationTableSchema: schema });
    } finally {
      await migrationDb.destroy();
    }
  };
  const probe = createProbe(connectionString, options.logger);
  return { dialect: 'postgres' as const, db, migrationTableSchema: schema, poolStats, probe: probe.ping, migrator, closeExtra: probe.close };
}

/**
 * `select 1` over one connection of its own, opened when first needed and again after a failure: whether the server
 * answers, whatever the pool is doing. One ping at a time; callers meanwhile share its answer.
 */
function createProbe(connectionString: string, logger?: Logger) {
  let client: pg.Client | undefined;
  let inFlight: Promise<boolean> | undefined;
  let closed = false;
  const drop = () => {
    const old = client;
    client = undefined;
    void old?.end().catch(() => undefined);
  };
  const attempt = async (timeoutMs: number): Promise<boolean> => {
    if (closed) return false;
    try {
      if (!client) {
        const next = new pg.Client({ connectionString, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
        next.on('error', (error) => {
          logger?.debug({ err: error }, 'database probe connection lost');
          if (client === next) client = undefined;
        });
        client = next;
        await next.connect();
      }
      await client.query('select 1');
      return true;
    } catch {
      drop();
      return false;
    }
  };
  return {
    ping(timeoutMs: number): Promise<boolean> {
      inFlight ??= attempt(timeoutMs).finally(() => (inFlight = undefined));
      return inFlight;
    },
    async close() {
      closed = true;
      const old = client;
      client = undefined;
      await old?.end().catch(() => undefined);
    },
  };
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
