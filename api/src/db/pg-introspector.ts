import { sql, type DatabaseIntrospector, type Dialect } from 'kysely';

/** The database handle Kysely gives an introspector (any schema type). */
type IntrospectedDb = Parameters<Dialect['createIntrospector']>[0];

/**
 * The introspector Kysely's migrator asks whether its tables exist, reading our schema only. The stock PostgreSQL one
 * lists the tables of every schema of the database and asks `has_schema_privilege` of each: when another site sharing
 * the database (or a parallel test run) drops its schema during that query, it fails with "schema … does not exist"
 * and our start failed with it. Only what the migrator reads is given (schema and table names, no columns).
 */
export function schemaScopedIntrospector(db: IntrospectedDb, schema: string): DatabaseIntrospector {
  const introspector: DatabaseIntrospector = {
    async getSchemas() {
      const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    async getTables() {
      const { rows } = await sql<{ name: string; schema: string; is_view: boolean }>`
        select c.relname as name, n.nspname as schema, c.relkind = 'v' as is_view
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'v', 'p')
        order by c.relname`.execute(db);
      return rows.map((r) => ({ name: r.name, schema: r.schema, isView: r.is_view, columns: [] }));
    },
    async getMetadata(options) {
      return { tables: await introspector.getTables(options) };
    },
  };
  return introspector;
}

/** `dialect` with the schema-scoped introspector above. */
export function withSchemaScopedIntrospector(dialect: Dialect, schema: string): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => dialect.createDriver(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => schemaScopedIntrospector(db, schema),
  };
}
