import type { Kysely } from 'kysely';
import type { AppName } from '@site/contracts/deploys';
import type { Database } from '../db/schema';

type Row = Database['deploy_tokens'];

/** A deploy token as stored: its hash, never the token. */
export interface StoredDeployToken {
  id: string;
  name: string;
  apps: AppName[];
  tokenHash: string;
  createdAt: string;
  lastUsedAt: string | null;
  lastUsedFrom: string | null;
  revokedAt: string | null;
}

export interface DeployTokensRepository {
  insert(token: StoredDeployToken): Promise<void>;
  /** Deletes a row outright: only a create that went over the limit takes its row back this way. */
  remove(id: string): Promise<void>;
  /** Live (not revoked) tokens, newest first. */
  listLive(): Promise<StoredDeployToken[]>;
  countLive(): Promise<number>;
  /** The token with this hash, revoked or not (a revoked one is named in the warning). */
  findByHash(tokenHash: string): Promise<StoredDeployToken | undefined>;
  /** Marks a live token revoked; false when no live token has this id. */
  revoke(id: string, at: string): Promise<boolean>;
  markUsed(id: string, at: string, from: string | null): Promise<void>;
}

const toStored = (row: Row): StoredDeployToken => ({
  id: row.id,
  name: row.name,
  apps: JSON.parse(row.apps) as AppName[],
  tokenHash: row.token_hash,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  lastUsedFrom: row.last_used_from,
  revokedAt: row.revoked_at,
});

export function createDeployTokensRepository(db: Kysely<Database>): DeployTokensRepository {
  return {
    async insert(token) {
      await db
        .insertInto('deploy_tokens')
        .values({
          id: token.id,
          name: token.name,
          apps: JSON.stringify(token.apps),
          token_hash: token.tokenHash,
          created_at: token.createdAt,
          last_used_at: token.lastUsedAt,
          last_used_from: token.lastUsedFrom,
          revoked_at: token.revokedAt,
        })
        .execute();
    },
    async remove(id) {
      await db.deleteFrom('deploy_tokens').where('id', '=', id).execute();
    },
    async listLive() {
      const rows = await db.selectFrom('deploy_tokens').selectAll().where('revoked_at', 'is', null).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
      return rows.map(toStored);
    },
    async countLive() {
      const row = await db.selectFrom('deploy_tokens').select((eb) => eb.fn.countAll<number | string>().as('n')).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async findByHash(tokenHash) {
      const row = await db.selectFrom('deploy_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      return row ? toStored(row) : undefined;
    },
    async revoke(id, at) {
      const result = await db.updateTable('deploy_tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async markUsed(id, at, from) {
      await db.updateTable('deploy_tokens').set({ last_used_at: at, last_used_from: from }).where('id', '=', id).execute();
    },
  };
}
