import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import { asDatabaseUnavailable, DatabaseUnavailableError } from './db-errors';

export interface GuardOptions {
  /** Told of every statement the database answered (readiness: the last contact). */
  onAnswer?: () => void;
  /**
   * How long a request may wait for a connection, in ms. PostgreSQL's pool has its own (connectionTimeoutMillis); the
   * SQLite driver's file mutex has none, so this bounds it (a long transaction would otherwise hold every request).
   */
  acquireTimeoutMs?: number;
}

/** Throws `error` as a DatabaseUnavailableError naming `query` when it means the database is not answering. */
function rethrow(error: unknown, query?: string): never {
  throw asDatabaseUnavailable(error, query) ?? error;
}

function guarded(connection: DatabaseConnection, options: GuardOptions): DatabaseConnection {
  const execute = connection.executeQuery.bind(connection);
  connection.executeQuery = async <R>(compiled: CompiledQuery): Promise<QueryResult<R>> => {
    try {
      const result = await execute<R>(compiled);
      options.onAnswer?.();
      return result;
    } catch (error) {
      rethrow(error, compiled.sql);
    }
  };
  const stream = connection.streamQuery.bind(connection);
  connection.streamQuery = async function* <R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      for await (const chunk of stream<R>(compiled, chunkSize)) {
        options.onAnswer?.();
        yield chunk;
      }
    } catch (error) {
      rethrow(error, compiled.sql);
    }
  };
  return connection;
}

/**
 * The dialect whose failures say what they are: a statement the database did not answer (down, a statement timeout,
 * a lock, a full pool) throws a DatabaseUnavailableError with its SQL (no parameters), which the error middleware
 * answers 503 `database_unavailable` and logs with the query that waited (db-errors.ts). Other errors pass unchanged.
 */
export function guardedDialect(dialect: Dialect, options: GuardOptions = {}): Dialect {
  const wrapped = new WeakSet<DatabaseConnection>();
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      const acquire = driver.acquireConnection.bind(driver);
      const acquireInTime = async (): Promise<DatabaseConnection> => {
        const timeoutMs = options.acquireTimeoutMs;
        if (!timeoutMs) return acquire();
        const pending = acquire();
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            // The connection still comes, later: handed straight back, so the queue keeps moving.
            pending.then((late) => driver.releaseConnection(late), () => undefined);
            reject(new DatabaseUnavailableError({ reason: 'busy', query: '(waiting for a connection)' }));
          }, timeoutMs);
        });
        try {
          return await Promise.race([pending, timedOut]);
        } finally {
          clearTimeout(timer);
        }
      };
      driver.acquireConnection = async () => {
        let connection: DatabaseConnection;
        try {
          connection = await acquireInTime();
        } catch (error) {
          rethrow(error, '(waiting for a connection)');
        }
        if (!wrapped.has(connection)) {
          wrapped.add(connection);
          guarded(connection, options);
        }
        return connection;
      };
      return driver;
    },
  };
}
