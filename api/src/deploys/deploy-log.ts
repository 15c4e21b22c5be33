import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { InvalidInputError } from '../lib/domain-errors';
import type { AppName, DeployLogEntry, DeployLogPage } from '@site/contracts/deploys';
import type { Database } from '../db/schema';

/*
 * The deploy log (issue 33): every deploy, rollback and refusal, over HTTP or from `npm run deploy` on the serving
 * machine, written at the moment it happens (not found later by a periodic check: a release served for 30 s is in
 * it). The admin dashboard reads it newest first, a page at a time (keyset on (at, id): the cost of a page does not
 * grow with the log).
 */

export const INVALID_DEPLOY_CURSOR = 'The cursor is not valid. Start again from the first page.';

export type NewDeployLogEntry = Omit<DeployLogEntry, 'id' | 'at'> & { at?: string };

type Position = { at: string; id: string };

const encodeCursor = (entry: Position) => Buffer.from(JSON.stringify([entry.at, entry.id]), 'utf8').toString('base64url');
function decodeCursor(cursor: string): Position {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { at: value[0], id: value[1] };
  } catch {
    // fall through
  }
  throw new InvalidInputError(INVALID_DEPLOY_CURSOR, { code: 'invalid_cursor' });
}

const toEntry = (row: Database['deploy_log']): DeployLogEntry => ({
  id: row.id,
  at: row.at,
  app: row.app as AppName,
  action: row.action as DeployLogEntry['action'],
  version: row.version,
  previous: row.previous,
  result: row.result as DeployLogEntry['result'],
  by: row.by,
  from: row.from_address,
  message: row.message,
  notes: row.notes,
  commit: row.commit_sha,
  ciUrl: row.ci_url,
});

/** Where a release came from: its upload's notes, commit and pipeline run (null each when not named). */
export type Provenance = { notes: string | null; commit: string | null; ciUrl: string | null };
/** Entries about a stored release (not its upload): they carry its upload's provenance when not given their own. */
const ABOUT_A_RELEASE = new Set(['promote', 'canary', 'canary_rollback', 'rollback']);
const hasProvenance = (entry: Partial<Provenance>) => Boolean(entry.notes || entry.commit || entry.ciUrl);

export interface DeployLog {
  record(entry: NewDeployLogEntry): Promise<DeployLogEntry>;
  page(query: { app?: AppName; cursor?: string; limit: number }): Promise<DeployLogPage>;
  /** Who made each of these releases of `app` (the newest successful deploy of each), for the releases list. */
  deployedBy(app: AppName, versions: readonly string[]): Promise<Map<string, string>>;
  /** Where these releases of `app` came from (each one's newest successful upload naming any), for the status. */
  provenance(app: AppName, versions: readonly string[]): Promise<Map<string, Provenance>>;
}

export function createDeployLog(db: Kysely<Database>, clock: () => Date = () => new Date()): DeployLog {
  // Ids sort in the order entries were written (within one millisecond too): a time part, then a counter.
  let counter = 0;
  const nextId = () => `dep_${Date.now().toString(36).padStart(9, '0')}${(counter++ % 46656).toString(36).padStart(3, '0')}${randomUUID().slice(0, 6)}`;
  async function provenance(app: AppName, versions: readonly string[]): Promise<Map<string, Provenance>> {
    const found = new Map<string, Provenance>();
    if (versions.length === 0) return found;
    const rows = await db
      .selectFrom('deploy_log')
      .select(['version', 'notes', 'commit_sha', 'ci_url'])
      .where('app', '=', app)
      .where('action', 'in', ['deploy', 'stage'])
      .where('result', '=', 'ok')
      .where('version', 'in', [...versions].slice(0, 500))
      .where((eb) => eb.or([eb('notes', 'is not', null), eb('commit_sha', 'is not', null), eb('ci_url', 'is not', null)]))
      .orderBy('at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    for (const row of rows) if (row.version) found.set(row.version, { notes: row.notes, commit: row.commit_sha, ciUrl: row.ci_url });
    return found;
  }

  return {
    async record(entry) {
      // A promotion, canary or rollback of a release says where that release came from (its upload's provenance).
      const inherited =
        !hasProvenance(entry) && entry.version && ABOUT_A_RELEASE.has(entry.action) ? (await provenance(entry.app, [entry.version]).catch(() => undefined))?.get(entry.version) : undefined;
      const from = inherited ?? entry;
      const row: Database['deploy_log'] = {
        id: nextId(),
        at: entry.at ?? clock().toISOString(),
        app: entry.app,
        action: entry.action,
        version: entry.version,
        previous: entry.previous,
        result: entry.result,
        by: entry.by.slice(0, 200),
        from_address: entry.from,
        // In full, as the caller was told (bounded: one line of a log, not a file).
        message: entry.message === null ? null : entry.message.slice(0, 4000),
        notes: from.notes ?? null,
        commit_sha: from.commit ?? null,
        ci_url: from.ciUrl ?? null,
      };
      await db.insertInto('deploy_log').values(row).execute();
      return toEntry(row);
    },
    async page({ app, cursor, limit }) {
      let query = db.selectFrom('deploy_log').selectAll();
      if (app) query = query.where('app', '=', app);
      if (cursor) {
        const at = decodeCursor(cursor);
        query = query.where((eb) => eb.or([eb('at', '<', at.at), eb.and([eb('at', '=', at.at), eb('id', '<', at.id)])]));
      }
      const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
      const entries = rows.slice(0, limit).map(toEntry);
      return { entries, nextCursor: rows.length > limit ? encodeCursor(entries.at(-1)!) : null };
    },
    async deployedBy(app, versions) {
      const by = new Map<string, string>();
      if (versions.length === 0) return by;
      const rows = await db
        .selectFrom('deploy_log')
        .select(['version', 'by', 'at'])
        .where('app', '=', app)
        .where('action', 'in', ['deploy', 'stage'])
        .where('result', '=', 'ok')
        .where('version', 'in', [...versions].slice(0, 500))
        .orderBy('at', 'asc')
        .execute();
      for (const row of rows) if (row.version) by.set(row.version, row.by);
      return by;
    },
    provenance,
  };
}
