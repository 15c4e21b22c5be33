import { createClient, type Client, type InValue, type ResultSet, type Transaction } from '@libsql/client';
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
 * Kysely dialect for a local SQLite file through @libsql/client.
 *
 * The client is opened with a single connection, and every Kysely connection (one query, or a
 * whole transaction) holds a process-wide mutex, so concurrent requests never interleave
 * statements inside each other's transactions. SQLite allows one writer at a time anyway.
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

class LibsqlDriver implements Driver {
  #client: Client | undefined;
  readonly #mutex = new Mutex();

  constructor(private readonly config: LibsqlDialectConfig) {}

  async init(): Promise<void> {
    const busyTimeoutMs = this.config.busyTimeoutMs ?? 5000;
    // One connection: the pragmas below are per connection, and the mutex is what serialises access.
    const client = createClient({ url: `file:${this.config.path}`, concurrency: 1, timeout: busyTimeoutMs });
    await client.execute('PRAGMA journal_mode = WAL');
    // With WAL, NORMAL only fsyncs at checkpoints: safe against a crashed process, far faster per write.
    await client.execute('PRAGMA synchronous = NORMAL');
    await client.execute(`PRAGMA busy_timeout = ${Math.floor(busyTimeoutMs)}`);
    await client.execute('PRAGMA foreign_keys = ON');
    this.#client = client;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#mutex.lock();
    return new LibsqlConnection(this.#requireClient(), release);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await asLibsql(connection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await asLibsql(connection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await asLibsql(connection).rollback();
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
    // Wait for the statement in flight, then close; later callers get "client is closed".
    const release = await this.#mutex.lock();
    try {
      if (this.#client && !this.#client.closed) {
        // Fold the WAL into the main file now: libsql finishes closing the file lazily, and a process
        // that exits right after would leave the -wal file behind (still valid, but site.db alone
        // would then not be a complete copy).
        await this.#client.execute('PRAGMA wal_checkpoint(TRUNCATE)').catch(() => undefined);
        this.#client.close();
      }
    } finally {
      release();
    }
  }

  #requireClient(): Client {
    if (!this.#client) throw new Error('The database driver is not initialised');
    return this.#client;
  }
}

class LibsqlConnection implements DatabaseConnection {
  // While a transaction is open, statements go to the connection it holds.
  #transaction: Transaction | undefined;

  constructor(
    private readonly client: Client,
    private readonly releaseLock: () => void,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const statement = { sql: compiledQuery.sql, args: compiledQuery.parameters as InValue[] };
    const result = await (this.#transaction ?? this.client).execute(statement);
    return toQueryResult<R>(result);
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (let i = 0; i < rows.length; i += chunkSize) {
      yield { rows: rows.slice(i, i + chunkSize) };
    }
  }

  async begin(): Promise<void> {
    if (this.#transaction) throw new Error('A transaction is already open on this connection');
    // BEGIN IMMEDIATE: take the write lock up front, so a transaction never fails half-way on a lock.
    this.#transaction = await this.client.transaction('write');
  }

  async commit(): Promise<void> {
    const tx = this.#takeTransaction();
    await tx.commit();
  }

  async rollback(): Promise<void> {
    const tx = this.#takeTransaction();
    await tx.rollback();
  }

  release(): void {
    // A transaction left open (should not happen through Kysely) is rolled back before unlocking.
    this.#transaction?.close();
    this.#transaction = undefined;
    this.releaseLock();
  }

  #takeTransaction(): Transaction {
    const tx = this.#transaction;
    if (!tx) throw new Error('No transaction is open on this connection');
    this.#transaction = undefined;
    return tx;
  }
}

function asLibsql(connection: DatabaseConnection): LibsqlConnection {
  if (!(connection instanceof LibsqlConnection)) throw new Error('Not a libsql connection');
  return connection;
}

function toQueryResult<R>(result: ResultSet): QueryResult<R> {
  if (result.columns.length > 0) {
    // libsql rows carry both index and name keys; spread keeps only the enumerable column names.
    const rows = result.rows.map((row) => {
      const plain: Record<string, unknown> = { ...row };
      for (const key of Object.keys(plain)) {
        const value = plain[key];
        if (value instanceof ArrayBuffer) plain[key] = Buffer.from(value);
      }
      return plain as R;
    });
    return { rows };
  }
  return {
    rows: [],
    numAffectedRows: BigInt(result.rowsAffected),
    ...(result.lastInsertRowid === undefined ? {} : { insertId: result.lastInsertRowid }),
  };
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
