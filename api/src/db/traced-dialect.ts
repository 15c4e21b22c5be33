import type { CompiledQuery, DatabaseConnection, Dialect, Driver, OperationNode, QueryResult } from 'kysely';
import { SpanKind, withSpan } from '../lib/tracing';

/** Names of the table a query works on, as Kysely's operation tree holds it (undefined for raw SQL). */
function tableOf(node: OperationNode): string | undefined {
  const n = node as unknown as Record<string, unknown>;
  const target = (n.into ?? n.table ?? (n.from as { froms?: unknown[] } | undefined)?.froms?.[0]) as Record<string, unknown> | undefined;
  const table = (target?.kind === 'AliasNode' ? target.node : target) as { table?: { identifier?: { name?: unknown } } } | undefined;
  const name = table?.table?.identifier?.name;
  return typeof name === 'string' ? name : undefined;
}

const OPERATIONS: Record<string, string> = {
  SelectQueryNode: 'SELECT',
  InsertQueryNode: 'INSERT',
  UpdateQueryNode: 'UPDATE',
  DeleteQueryNode: 'DELETE',
};

/** One span per statement: `SELECT posts`, with the database, the operation and the SQL (parameters left out). */
function traced(connection: DatabaseConnection, system: string): DatabaseConnection {
  const execute = connection.executeQuery.bind(connection);
  connection.executeQuery = <R>(compiled: CompiledQuery): Promise<QueryResult<R>> => {
    const operation = OPERATIONS[compiled.query.kind] ?? compiled.sql.trimStart().split(/\s/, 1)[0]!.toUpperCase();
    const table = tableOf(compiled.query);
    return withSpan(
      table ? `${operation} ${table}` : operation,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'db.system.name': system,
          'db.operation.name': operation,
          ...(table ? { 'db.collection.name': table } : {}),
          'db.query.text': compiled.sql,
        },
      },
      () => execute<R>(compiled),
    );
  };
  return connection;
}

/**
 * The dialect with a span per query (OpenTelemetry tracing on): the same driver, each connection's `executeQuery`
 * wrapped once. For SQLite and PostgreSQL alike, as every statement goes through Kysely.
 */
export function tracedDialect(dialect: Dialect, system: 'sqlite' | 'postgresql'): Dialect {
  const wrapped = new WeakSet<DatabaseConnection>();
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      const acquire = driver.acquireConnection.bind(driver);
      driver.acquireConnection = async () => {
        const connection = await acquire();
        if (!wrapped.has(connection)) {
          wrapped.add(connection);
          traced(connection, system);
        }
        return connection;
      };
      return driver;
    },
  };
}
