/*
 * One instance's side of releases shared through PostgreSQL (releases-repository.ts). When a deploy or rollback commits,
 * PostgreSQL notifies every instance (LISTEN site_releases), which runs its `release-sync` job (a job of the app's
 * runner, lib/job-runner.ts: one run at a time, and a poll every RELEASE_POLL_MS covers a lost connection).
 * The instance then copies the pointer's release, and the earlier ones whose chunks open tabs may still ask for, from
 * the store into its own SITE_ROOT in the release format (checking every file against its hash and the release
 * against release-format's checkRelease before renaming it into place), writes history.json, then `current`. From
 * there its registry does what it does for a local deploy: imports the server module, serves it from the next
 * request, or keeps the last good release and says why. What it serves is written back to the store, so health and
 * the admin dashboard show every instance. Each sync also reads the running canaries again (release-choice.ts), which
 * a canary's start, change or end notifies on the same channel.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { refreshStats } from '../../lib/stat-shared';
import path from 'node:path';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import { listenToPostgres, schemaChannel } from '../../db/pg-listen';
import type { Clock } from '../../lib/clock';
import type { JobRunner } from '../../lib/job-runner';
import type { Logger } from '../../lib/logger';
import type { RemotesSnapshot, ServedShell, SharedReleases } from '../../health/deployed-remotes';
import { HISTORY_FILE, POINTER_FILE, PREVIOUS_RELEASES_SERVED, RELEASE_NAME, checkRelease, checkShellRelease, type AppName, errorText, historyText, pointerHistory, releaseDir, remoteDir, servingOrder, STAGED_DIR, stagedDir, writeAtomically } from './release-format';
import { RELEASES_CHANNEL, listStagedReleases, readBlobs, readInstanceReports, readSharedPointers, readStoredRelease, reportServed, sha256, type ReleasesDb, type SharedPointer } from './releases-repository';

export interface ReleaseSync {
  /** This process's name in the store's reports. */
  readonly instance: string;
  /** Brings the local release folders and pointers up to the store's, then reports what is served. */
  sync(): Promise<void>;
  /**
   * Copies a release staged in the store into staged/<version>/ here (a preview asked for it; issue 34). Nothing when it
   * is not staged there (promoted, removed): the registry then finds no staged release and serves none.
   */
  stagedCopy(name: RemoteName, version: string): Promise<void>;
  /** The shared pointers and what each instance that reported lately serves (health, the admin dashboard). */
  status(): Promise<SharedReleases>;
  close(): Promise<void>;
}

const readText = (file: string) => readFile(file, 'utf8').catch(() => undefined);
const exists = (file: string) => stat(file).then(
  () => true,
  () => false,
);

/**
 * Copies one stored release into releases/<version>/ (a staged one: staged/<version>/) unless it is there; throws why
 * it cannot. A staged release is never copied to releases/, nor a served one to staged/. The registry calls it (its
 * `stagedCopy`) for a preview's staged release, before any sync exists.
 */
export async function copyStoredRelease(
  { db, siteRoot, logger }: { db: ReleasesDb; siteRoot: string; logger: Logger },
  name: AppName,
  version: string,
  where: 'releases' | 'staged' = 'releases',
): Promise<void> {
  if (!RELEASE_NAME.test(version)) throw new Error(`${JSON.stringify(version)} is not a release name`);
  const target = where === 'staged' ? stagedDir(siteRoot, name, version) : releaseDir(siteRoot, name, version);
  if (await exists(target)) return;
  const release = await readStoredRelease(db, name, version);
  if (!release) throw new Error(`release ${version} is not in the store`);
  if ((release.stagedAt !== null) !== (where === 'staged')) throw new Error(`release ${version} is ${release.stagedAt !== null ? 'staged: promote it' : 'not staged'}`);
  await mkdir(path.dirname(target), { recursive: true });
  const blobs = await readBlobs(db, Object.values(release.files));
  const incoming = path.join(path.dirname(target), `.incoming-${version}-${process.pid}-${randomUUID().slice(0, 6)}`);
  try {
    for (const [file, hash] of Object.entries(release.files)) {
      const destination = path.resolve(incoming, file);
      if (!destination.startsWith(incoming + path.sep)) throw new Error(`${file} is outside the release`);
      await mkdir(path.dirname(destination), { recursive: true });
      await writeFile(destination, blobs.get(hash)!);
      // What is on disk is what was stored.
      if (sha256(await readFile(destination)) !== hash) throw new Error(`${file} did not copy intact`);
    }
    const check = name === 'shell' ? await checkShellRelease(incoming) : await checkRelease(incoming, name);
    if (!check.ok) throw new Error(check.problems.join('; '));
    // Dated by its deploy: the registry answers old hashed chunks from the newest earlier releases.
    const at = new Date(release.createdAt);
    await utimes(incoming, at, at);
    await rename(incoming, target);
    refreshStats();
    logger.info({ remote: name, version, files: Object.keys(release.files).length }, 'copied a shared release to this instance');
  } catch (error) {
    await rm(incoming, { recursive: true, force: true });
    throw error;
  }
}

export function createReleaseSync(options: {
  db: ReleasesDb;
  /** The PostgreSQL URL (LISTEN needs a connection of its own). */
  databaseUrl: string;
  /** The site's schema (its channel: db/pg-listen.ts). */
  schema?: string;
  siteRoot: string;
  /** What this instance serves (the registry, and the shell), reported after each sync. */
  remotes: { snapshot(): Promise<RemotesSnapshot> };
  shell?: () => Promise<ServedShell>;
  logger: Logger;
  clock: Clock;
  /** The poll behind LISTEN (ms). */
  pollMs: number;
  /** The app's job runner, which runs the sync as its `release-sync` job. */
  jobs: Pick<JobRunner, 'add'>;
  /** The running canaries this instance splits visitors by (release-choice.ts): read again at every sync. */
  canaries?: { refresh(): Promise<void> };
}): ReleaseSync {
  const { db, logger, siteRoot } = options;
  const instance = `${process.env.HOSTNAME || 'instance'}-${process.pid}-${randomUUID().slice(0, 6)}`;
  let closed = false;
  /** Why a remote's stored release could not be copied here (reported with what is served). */
  const problems = new Map<AppName, string>();

  const materialise = (name: AppName, version: string, where: 'releases' | 'staged' = 'releases') => copyStoredRelease({ db, siteRoot, logger }, name, version, where);

  async function syncRemote(name: AppName, pointer: SharedPointer): Promise<void> {
    const dir = remoteDir(siteRoot, name);
    await mkdir(path.join(dir, 'releases'), { recursive: true });
    try {
      await materialise(name, pointer.version);
      problems.delete(name);
    } catch (error) {
      // The pointer stays where it was here: this instance keeps serving its last good release.
      const reason = `release ${pointer.version} could not be copied here: ${errorText(error)}`;
      if (problems.get(name) !== reason) logger.error({ remote: name, version: pointer.version, err: error }, reason);
      problems.set(name, reason);
      return;
    }
    // The releases below it, in the order the registry falls back to them (it answers their chunks to open tabs too).
    for (const version of servingOrder(pointer.version, undefined, pointer.stack).slice(1, 1 + PREVIOUS_RELEASES_SERVED)) {
      await materialise(name, version).catch((error: unknown) =>
        logger.warn({ remote: name, version, err: error }, 'an earlier shared release could not be copied here'),
      );
    }
    // History first, then the pointer, as the deploy script does on one machine.
    const history = historyText(pointerHistory(pointer));
    if ((await readText(path.join(dir, HISTORY_FILE))) !== history) await writeAtomically(path.join(dir, HISTORY_FILE), history);
    if ((await readText(path.join(dir, POINTER_FILE)))?.trim() !== pointer.version) {
      await writeAtomically(path.join(dir, POINTER_FILE), `${pointer.version}\n`);
      logger.info({ remote: name, version: pointer.version }, 'the shared pointer moved: serving its release from the next request');
    }
  }

  async function report(pointers: Map<AppName, SharedPointer>): Promise<void> {
    const snapshot = await options.remotes.snapshot();
    const reportedAt = options.clock().toISOString();
    for (const name of REMOTE_NAMES) {
      if (!pointers.has(name)) continue;
      const served = snapshot.served?.[name];
      const problem =
        problems.get(name) ??
        (served?.rejected ? `serves ${served.version}: ${served.rejected.version} ${served.rejected.reason}` : served?.serverError) ??
        (served ? null : 'nothing of this remote is served');
      await reportServed(db, { instance, remote: name, version: served?.version ?? null, since: served?.since ?? null, problem, reportedAt });
    }
    // The shell's, like a remote's: each instance says which shell release it serves.
    const pointer = pointers.get('shell');
    if (pointer && options.shell) {
      const shell = await options.shell();
      const problem =
        problems.get('shell') ??
        (shell.version === pointer.version
          ? null
          : `serves ${shell.version ?? 'shell/dist'}: release ${pointer.version} is incomplete here or not signed by a key trusted for the shell`);
      await reportServed(db, { instance, remote: 'shell', version: shell.version, since: shell.since, problem, reportedAt });
    }
  }

  /** Staged copies here of releases no longer staged in the store (promoted, removed) go: their previews end. */
  async function dropStaleStaged(): Promise<void> {
    const staged = new Set((await listStagedReleases(db)).map((r) => `${r.remote}@${r.version}`));
    for (const name of ['shell', ...REMOTE_NAMES] as AppName[]) {
      const dir = path.join(remoteDir(siteRoot, name), STAGED_DIR);
      for (const version of await readdir(dir).catch(() => [] as string[])) {
        if (!RELEASE_NAME.test(version) || staged.has(`${name}@${version}`)) continue;
        await rm(path.join(dir, version), { recursive: true, force: true });
        logger.info({ remote: name, version }, 'a staged release is no longer staged in the store: its copy here is removed');
      }
    }
  }

  async function syncOnce(): Promise<void> {
    // First: a canary started, changed or ended on another instance splits visitors here from the next request.
    await options.canaries?.refresh();
    await dropStaleStaged();
    const pointers = await readSharedPointers(db);
    for (const [name, pointer] of pointers) {
      if (name === 'shell' || (REMOTE_NAMES as readonly string[]).includes(name)) await syncRemote(name, pointer);
    }
    if (pointers.size > 0) await report(pointers);
  }

  // One sync at a time; a notice during one runs another right after it (nothing notified is missed).
  const job = options.jobs.add({ name: 'release-sync', pollMs: options.pollMs, run: syncOnce });
  const sync = async (): Promise<void> => {
    if (!closed) await job.kick();
  };

  // Told at each commit of a deploy or rollback; the poll covers a lost connection.
  const listener = listenToPostgres({
    connectionString: options.databaseUrl,
    channels: [schemaChannel(RELEASES_CHANNEL, options.schema)],
    onNotification: () => void sync(),
    // Whatever was committed while not listening.
    onConnect: () => void sync(),
    logger,
  });

  async function status(): Promise<SharedReleases> {
    const [pointers, reports] = await Promise.all([readSharedPointers(db), readInstanceReports(db)]);
    // Every instance reports at each poll: one silent for three polls (and a minute) has stopped.
    const fresh = options.clock().getTime() - Math.max(60_000, 3 * options.pollMs);
    return {
      self: instance,
      pointers: Object.fromEntries([...pointers].map(([name, pointer]) => [name, { version: pointer.version, since: pointer.since }])),
      instances: reports.filter((report) => Date.parse(report.reportedAt) >= fresh || report.instance === instance),
    };
  }

  return {
    instance,
    sync,
    async stagedCopy(name, version) {
      await materialise(name, version, 'staged');
    },
    status,
    /** Stops listening (the job runner stops the job itself). */
    async close() {
      closed = true;
      await listener.close();
    },
  };
}
