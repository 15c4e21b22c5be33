import { Migrator, type Kysely, type Migration as KyselyMigration } from 'kysely';
import { migrations } from './migrations/all-migrations';

/** Applies every pending migration; throws naming the migration that failed. */
export async function migrateToLatest(db: Kysely<any>, options: { migrationTableSchema?: string } = {}): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: {
      async getMigrations() {
        const byName: Record<string, KyselyMigration> = {};
        for (const m of migrations) byName[m.name] = { up: m.up, ...(m.down ? { down: m.down } : {}) };
        return byName;
      },
    },
    ...(options.migrationTableSchema ? { migrationTableSchema: options.migrationTableSchema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${describe(error)}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
