import Database from 'libsql';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import { Mutex } from '../lib/mutex';

export interface LibsqlDialectConfig {
  /** Absolute path of the database file. */
  path: string;
  /** How long a statement waits for a lock held by another process, in ms. */
  busyTimeoutMs?: number;
}

/**
 * Kysely dialect for a local SQLite file through libsql (SQLite with a better-sqlite3-style synchronous API; the
 * engine under @libsql/client, used directly: statements are prepared once and kept, and rows come out as the
 * plain objects Kysely wants, where the client prepared every statement again and copied every row twice).
 *
 * One connection, and every Kysely connection (one query, or a whole transaction) holds a process-wide mutex, so
 * concurrent requests never interleave statements inside each other's transactions. SQLite allows one writer at a
 * time anyway. The mutex is the file's, shared by every handle this process opens on it: a second handle's statement
 * would otherwise wait for the first's open transaction synchronously (busy_timeout blocks the thread), and the first
 * could never finish it on the blocked event loop ("database is locked" after the timeout).
 */
export class LibsqlDialect implements Dialect {
  constructor(private readonly config: LibsqlDialectConfig) {}

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new LibsqlDriver(this.config);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/** One mutex per database file in this process (see LibsqlDialect). */
const FILE_MUTEXES = new Map<string, Mutex>();
function mutexOf(file: string): Mutex {
  let mutex = FILE_MUTEXES.get(file);
  if (!mutex) FILE_MUTEXES.set(file, (mutex = new Mutex()));
  return mutex;
}

/** Statements waiting for a database file's mutex in this process (the metrics' SQLite queue). */
export function sqliteQueueLength(file: string): number {
  return FILE_MUTEXES.get(file)?.waiting ?? 0;
}

/** Prepared statements kept per connection (the SQL Kysely compiles repeats: a few dozen distinct statements). */
const STATEMENT_CACHE_SIZE = 256;

class LibsqlDriver implements Driver {
  #db: Database.Database | undefined;
  readonly #statements = new Map<string, Database.Statement>();
  readonly #mutex: Mutex;

  constructor(private readonly config: LibsqlDialectConfig) {
    this.#mutex = config.path === ':memory:' ? new Mutex() : mutexOf(config.path);
  }

  /** A statement failed on a lock (SQLITE_BUSY): the connection is opened again once released (see #open). */
  #reopen = false;

  async init(): Promise<void> {
    this.#open();
  }

  /**
   * Opens the connection. Also after a statement failed with SQLITE_BUSY: libsql leaves such a statement active (it
   * has no reset), and while it is, every COMMIT of this connection fails ("SQL statements in progress"): closing
   * the connection finalizes it, so one lock held too long by another process does not wedge this one for good.
   */
  #open(): void {
    this.#statements.clear();
    const busyTimeoutMs = this.config.busyTimeoutMs ?? 5000;
    // One connection: the pragmas below are per connection, and the mutex is what serialises access.
    const db = new Database(this.config.path);
    db.exec('PRAGMA journal_mode = WAL');
    // With WAL, NORMAL only fsyncs at checkpoints: safe against a crashed process, far faster per write.
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec(`PRAGMA busy_timeout = ${Math.floor(busyTimeoutMs)}`);
    db.exec('PRAGMA foreign_keys = ON');
    this.#db = db;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock();
    return new LibsqlConnection(
      (sql) => this.#prepare(sql),
      () => {
        try {
          if (this.#reopen && this.#db) {
            this.#reopen = false;
            this.#db.close();
            this.#open();
          }
        } finally {
          release();
        }
      },
      (error) => {
        if (/^SQLITE_(?:BUSY|LOCKED)/.test(String((error as { code?: unknown } | null)?.code))) this.#reopen = true;
      },
    );
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    asLibsql(connection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    asLibsql(connection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    asLibsql(connection).rollback();
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteIdentifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteIdentifier(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    asLibsql(connection).release();
  }

  async destroy(): Promise<void> {
    // Wait for the statement in flight, then close; later callers get "the database is closed".
    const release = await this.#mutex.lock();
    try {
      const db = this.#db;
      this.#db = undefined;
      this.#statements.clear();
      if (db?.open) {
        // Fold the WAL into the main file now, so that site.db alone is a complete copy once the process has exited.
        try {
          db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
        } catch {
          // A checkpoint that cannot run now (another process reading) leaves a valid -wal file: nothing is lost.
        }
        db.close();
      }
    } finally {
      release();
    }
  }

  /** The statement for this SQL, prepared once and kept (the least recently used is dropped past the cache size). */
  #prepare(sql: string): Database.Statement {
    const db = this.#db;
    if (!db) throw new Error('The database is closed');
    let statement = this.#statements.get(sql);
    if (statement) {
      // Re-inserted: a Map keeps insertion order, so its first key is the least recently used.
      this.#statements.delete(sql);
    } else {
      statement = db.prepare(sql);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
    }
    this.#statements.set(sql, statement);
    return statement;
  }
}

class LibsqlConnection implements DatabaseConnection {
  #inTransaction = false;

  constructor(
    private readonly prepare: (sql: string) => Database.Statement,
    private readonly releaseLock: () => void,
    /** Told of every statement that failed (the driver reopens the connection after a lock failure). */
    private readonly failed: (error: unknown) => void = () => undefined,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.prepare(compiledQuery.sql);
    const args = compiledQuery.parameters.map(toSqlValue);
    try {
      if (statement.reader) return { rows: statement.all(args) as R[] };
      const info = statement.run(args);
      return { rows: [], numAffectedRows: BigInt(info.changes), insertId: BigInt(info.lastInsertRowid) };
    } catch (error) {
      this.failed(error);
      throw withCode(error);
    }
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (let i = 0; i < rows.length; i += chunkSize) {
      yield { rows: rows.slice(i, i + chunkSize) };
    }
  }

  begin(): void {
    if (this.#inTransaction) throw new Error('A transaction is already open on this connection');
    // BEGIN IMMEDIATE: take the write lock up front, so a transaction never fails half-way on a lock.
    try {
      this.prepare('BEGIN IMMEDIATE').run();
    } catch (error) {
      this.failed(error);
      throw error;
    }
    this.#inTransaction = true;
  }

  commit(): void {
    this.#end('COMMIT');
  }

  rollback(): void {
    this.#end('ROLLBACK');
  }

  release(): void {
    // A transaction left open (should not happen through Kysely) is rolled back before unlocking.
    try {
      if (this.#inTransaction) this.#end('ROLLBACK');
    } finally {
      this.releaseLock();
    }
  }

  #end(sql: 'COMMIT' | 'ROLLBACK'): void {
    if (!this.#inTransaction) {
      // Kysely rolls back after a BEGIN that failed (SQLITE_BUSY past busy_timeout): nothing to end, and the BEGIN's
      // error is the one the caller must see (a 503), not this.
      if (sql === 'ROLLBACK') return;
      throw new Error('No transaction is open on this connection');
    }
    // A COMMIT that fails (SQLITE_BUSY) leaves the transaction open: Kysely's ROLLBACK that follows ends it.
    try {
      this.prepare(sql).run();
    } catch (error) {
      this.failed(error);
      throw error;
    }
    this.#inTransaction = false;
  }
}

function asLibsql(connection: DatabaseConnection): LibsqlConnection {
  if (!(connection instanceof LibsqlConnection)) throw new Error('Not a libsql connection');
  return connection;
}

/** A parameter as SQLite takes it: booleans as 0/1, dates as milliseconds, byte arrays as Buffers. */
function toSqlValue(value: unknown): unknown {
  if (value === undefined) throw new TypeError('undefined cannot be bound to a SQL parameter');
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.valueOf();
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

/** SQLite's error with its code in the message as well (`SQLITE_CONSTRAINT_UNIQUE: UNIQUE constraint failed: …`). */
function withCode(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && typeof code === 'string' && !error.message.startsWith(code)) error.message = `${code}: ${error.message}`;
  return error;
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
