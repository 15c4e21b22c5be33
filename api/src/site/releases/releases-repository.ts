/*
 * The releases' SQL (the release code's repository; canaries: canaries-repository.ts). Releases shared by every
 * instance (DATABASE_URL on PostgreSQL): the deployer (release-deployer.ts, also for `npm run deploy`) stores a
 * remote's checked release here, as files named by their SHA-256, and moves the remote's pointer in the same
 * transaction, which notifies every instance (NOTIFY site_releases). Each instance copies the pointer's release into
 * its own SITE_ROOT in the release format (release-sync.ts), where its registry verifies, imports and serves it as if
 * it had been deployed there, and reports here what it serves. Tables: migrations/0007-releases.ts.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AppName } from '@site/contracts/deploys';
import type { MfeManifest } from '@site/contracts/manifest';
import { openDatabase } from '../../db/database';
import { schemaChannelSql } from '../../db/pg-listen';
import type { Database } from '../../db/schema';

/** The site's database as the release code is handed it (its other files pass it to these functions). */
export type ReleasesDb = Kysely<Database>;
/** One deploy's transaction (releaseTransaction). */
export type ReleasesTransaction = Transaction<Database>;

/** The channel every instance listens on; the payload is the remote's name. */
export const RELEASES_CHANNEL = 'site_releases';
export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A release's files: path inside the dist (with `/`) -> SHA-256 of its bytes. */
export type FileHashes = Record<string, string>;

/** The digest of a release: its sorted file list and their hashes. Same files, same digest. */
export function releaseDigest(files: FileHashes): string {
  return sha256(Buffer.from(JSON.stringify(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))));
}

/** A remote's pointer: the served version, since when, and its history as stored (release-format.ts pointerHistory reads it). */
export interface SharedPointer {
  version: string;
  since: string;
  /** Versions served, oldest first (a rollback walks down it), as history.json's stack. */
  stack: string[];
  /** The history's other facts, as a JSON object (a row written before issue 51 held a log here: given as `{ log }`). */
  facts: Record<string, unknown>;
}

export interface StoredRelease {
  remote: AppName;
  version: string;
  digest: string;
  manifest: MfeManifest;
  files: FileHashes;
  createdAt: string;
  /** Uploaded staged and not promoted (issue 34): served to no one but a browser with its preview link. */
  stagedAt: string | null;
}

/** One instance's report of what it serves of a remote (health's InstanceServing). */
export interface InstanceReport {
  instance: string;
  remote: AppName;
  version: string | null;
  since: string | null;
  problem: string | null;
  reportedAt: string;
}

type Db = ReleasesDb | ReleasesTransaction;

// The `log` column (migration 0007) holds the history's facts, no log: the deploy log is the one log.
const toPointer = (row: Database['release_pointers']): SharedPointer => {
  const facts = JSON.parse(row.log) as unknown;
  const stored = Array.isArray(facts) ? { log: facts } : ((facts ?? {}) as Record<string, unknown>);
  return { version: row.version, since: row.since, stack: JSON.parse(row.stack) as string[], facts: stored };
};

export async function readSharedPointer(db: Db, remote: AppName): Promise<SharedPointer | null> {
  const row = await db.selectFrom('release_pointers').selectAll().where('remote', '=', remote).executeTakeFirst();
  return row ? toPointer(row) : null;
}

export async function readSharedPointers(db: Db): Promise<Map<AppName, SharedPointer>> {
  const rows = await db.selectFrom('release_pointers').selectAll().execute();
  return new Map(rows.map((row) => [row.remote as AppName, toPointer(row)]));
}

export async function readStoredRelease(db: Db, remote: AppName, version: string): Promise<StoredRelease | null> {
  const row = await db.selectFrom('releases').selectAll().where('remote', '=', remote).where('version', '=', version).executeTakeFirst();
  if (!row) return null;
  return {
    remote,
    version: row.version,
    digest: row.digest,
    manifest: JSON.parse(row.manifest) as MfeManifest,
    files: JSON.parse(row.files) as FileHashes,
    createdAt: row.created_at,
    stagedAt: row.staged_at ?? null,
  };
}

/** Every stored release of a remote, newest first. */
export async function listStoredReleases(db: Db, remote: AppName): Promise<Array<{ version: string; createdAt: string; files: number; staged: boolean }>> {
  const rows = await db.selectFrom('releases').select(['version', 'created_at', 'files', 'staged_at']).where('remote', '=', remote).orderBy('created_at', 'desc').execute();
  return rows.map((row) => ({ version: row.version, createdAt: row.created_at, files: Object.keys(JSON.parse(row.files) as object).length, staged: row.staged_at !== null }));
}

/** Every staged release of every app (issue 34): what an instance may keep a copy of for previews. */
export async function listStagedReleases(db: Db): Promise<Array<{ remote: AppName; version: string }>> {
  const rows = await db.selectFrom('releases').select(['remote', 'version']).where('staged_at', 'is not', null).execute();
  return rows.map((row) => ({ remote: row.remote as AppName, version: row.version }));
}

/** A staged release promoted: from now on a release like any other (the caller moves the pointer to it). */
export async function unstageRelease(trx: ReleasesTransaction, remote: AppName, version: string): Promise<void> {
  await trx.updateTable('releases').set({ staged_at: null }).where('remote', '=', remote).where('version', '=', version).execute();
}

/** The bytes of the given hashes, checked against their names (a corrupted row is an error, not a file). */
export async function readBlobs(db: Db, hashes: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  const wanted = [...new Set(hashes)];
  for (let i = 0; i < wanted.length; i += 200) {
    const rows = await db.selectFrom('release_blobs').select(['hash', 'content']).where('hash', 'in', wanted.slice(i, i + 200)).execute();
    for (const row of rows) {
      const bytes = Buffer.from(row.content, 'base64');
      if (sha256(bytes) !== row.hash) throw new Error(`stored file ${row.hash.slice(0, 12)}… does not match its hash`);
      blobs.set(row.hash, bytes);
    }
  }
  const missing = wanted.filter((hash) => !blobs.has(hash));
  if (missing.length > 0) throw new Error(`${missing.length} stored file(s) are missing (${missing[0]!.slice(0, 12)}…)`);
  return blobs;
}

/**
 * One deploy or rollback of a remote: takes the remote's lock for the transaction (concurrent deploys of one remote
 * take turns), runs `work`, and commits, which is when every instance is told. Killed or failed before the commit,
 * nothing changed.
 */
export async function releaseTransaction<T>(db: ReleasesDb, remote: AppName, work: (trx: ReleasesTransaction) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`site-release:${remote}`}))`.execute(trx);
    return work(trx);
  });
}

/**
 * Stores a release (files by hash, then the release row). An existing release of that name is kept as it is: the
 * caller checks its digest first (a name never changes what it holds).
 */
export async function storeRelease(
  trx: ReleasesTransaction,
  release: { remote: AppName; version: string; manifest: MfeManifest; files: ReadonlyMap<string, Buffer>; staged?: boolean },
  now: Date,
): Promise<{ digest: string; stored: number; bytes: number }> {
  const hashes: FileHashes = {};
  let stored = 0;
  let bytes = 0;
  const rows: Array<{ hash: string; size: number; content: string }> = [];
  for (const [file, content] of release.files) {
    const hash = sha256(content);
    hashes[file] = hash;
    bytes += content.length;
    rows.push({ hash, size: content.length, content: content.toString('base64') });
  }
  const unique = [...new Map(rows.map((row) => [row.hash, row])).values()];
  for (let i = 0; i < unique.length; i += 50) {
    const result = await trx
      .insertInto('release_blobs')
      .values(unique.slice(i, i + 50))
      .onConflict((oc) => oc.column('hash').doNothing())
      .executeTakeFirst();
    stored += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  const digest = releaseDigest(hashes);
  await trx
    .insertInto('releases')
    .values({
      remote: release.remote,
      version: release.version,
      digest,
      manifest: JSON.stringify(release.manifest),
      files: JSON.stringify(hashes),
      created_at: now.toISOString(),
      staged_at: release.staged ? now.toISOString() : null,
    })
    .onConflict((oc) => oc.columns(['remote', 'version']).doNothing())
    .execute();
  return { digest, stored, bytes };
}

/** Moves a remote's pointer (with its history's stack and facts) and tells every instance, on commit. */
export async function movePointer(
  trx: ReleasesTransaction,
  remote: AppName,
  next: { version: string; stack: string[]; facts?: Record<string, unknown> },
  now: Date,
): Promise<void> {
  const row = { version: next.version, since: now.toISOString(), stack: JSON.stringify(next.stack), log: JSON.stringify(next.facts ?? {}) };
  await trx
    .insertInto('release_pointers')
    .values({ remote, ...row })
    .onConflict((oc) => oc.column('remote').doUpdateSet(row))
    .execute();
  // On the channel of the connection's schema (another site in the same database has its own).
  await sql`select pg_notify(${schemaChannelSql(RELEASES_CHANNEL)}, ${remote})`.execute(trx);
}

/** Tells every instance, on commit, that something of `remote`'s releases changed (a canary: issue 34). */
export async function notifyReleases(trx: ReleasesTransaction, remote: AppName): Promise<void> {
  await sql`select pg_notify(${schemaChannelSql(RELEASES_CHANNEL)}, ${remote})`.execute(trx);
}

/** What an instance serves of a remote, as it says (one row per instance and remote). */
export async function reportServed(db: Db, report: InstanceReport): Promise<void> {
  const row = { version: report.version, since: report.since, problem: report.problem, reported_at: report.reportedAt };
  await db
    .insertInto('release_instances')
    .values({ instance: report.instance, remote: report.remote, ...row })
    .onConflict((oc) => oc.columns(['instance', 'remote']).doUpdateSet(row))
    .execute();
}

/** What every instance said it serves, most recent reports first. */
export async function readInstanceReports(db: Db): Promise<InstanceReport[]> {
  const rows = await db.selectFrom('release_instances').selectAll().orderBy('reported_at', 'desc').execute();
  return rows.map((row) => ({
    instance: row.instance,
    remote: row.remote as InstanceReport['remote'],
    version: row.version,
    since: row.since,
    problem: row.problem,
    reportedAt: row.reported_at,
  }));
}

/** For npm run deploy/rollback: the site's PostgreSQL database, migrated (as the server opens it). */
export async function openReleaseStore(databaseUrl: string) {
  const handle = await openDatabase({ databaseUrl, dataDir: '' });
  return { db: handle.db, close: () => handle.close() };
}

/** The random key that signs page-view tokens when no PREVIEW_SECRET is set (migration 0038: the same on every instance). */
export async function readVisitorTokenKey(db: ReleasesDb): Promise<Buffer> {
  const row = await db.selectFrom('contact_settings').select('value').where('key', '=', 'visitor_token_key').executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'hex');
}
