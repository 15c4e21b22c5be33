import type { Kysely } from 'kysely';

/**
 * One schema change. Migrations only ever append: never edit one that has shipped.
 * They take `Kysely<any>` because they describe the schema of their own moment, not today's.
 */
export interface Migration {
  /** Sortable and unique: `NNNN-what`. The Migrator applies them in name order. */
  name: string;
  up(db: Kysely<any>): Promise<void>;
  down?(db: Kysely<any>): Promise<void>;
}
