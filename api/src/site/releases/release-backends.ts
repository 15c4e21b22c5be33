/*
 * Where the deployer's releases are kept (release-deployer.ts): one interface, two backends.
 * - local (SQLite, one instance): the release format on SITE_ROOT (release-format.ts), the same folders, history.json
 *   and `current` that `npm run deploy` writes on that machine, under the same lock file;
 * - shared (PostgreSQL, every instance): the release store (releases-repository.ts); each instance copies the
 *   pointer's release into its own SITE_ROOT when told (release-sync.ts).
 */
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Canary } from '../../deploys/deployer-port';
import { ConflictError } from '../../lib/domain-errors';
import { refreshStats } from '../../lib/stat-shared';
import { endCanary, insertCanary, readRunningCanary, updateCanary, type CanaryOutcome } from './canaries-repository';
import { exists, manifestFile, readFolder, ReleaseRefusedError } from './release-checks';
import {
  HISTORY_FILE,
  historyFacts,
  historyText,
  pointerHistory,
  POINTER_FILE,
  RELEASE_NAME,
  RELEASES_DIR,
  readHistory,
  releaseDir,
  remoteDir,
  STAGED_DIR,
  stagedDir,
  writeAtomically,
  type AppName,
  type ReleaseHistory,
} from './release-format';
import {
  listStoredReleases,
  movePointer,
  notifyReleases,
  readBlobs,
  readSharedPointer,
  readStoredRelease,
  releaseTransaction,
  storeRelease,
  unstageRelease,
  type ReleasesDb,
  type ReleasesTransaction,
} from './releases-repository';

/** A release's history: the stack of versions served (oldest first, a rollback pops) and its facts; no log (the deploy log is it). */
export type History = ReleaseHistory;
/** The history after a deploy, rollback or promote moved the pointer to the top of `stack`: no imported build is served. */
export const moved = (history: History, stack: string[]): History => ({ ...history, stack, servedBuild: undefined });

/** What a backend reads and switches; the checks and the log are the deployer's, the same for both. */
export interface ReleaseBackend {
  /** Runs `work` while holding the app's deploy lock (one deploy or rollback of an app at a time, across processes). */
  locked<T>(app: AppName, work: (store: LockedStore) => Promise<T>): Promise<T>;
  /** Whether `version` of `app` is a staged release (cheap: one stat, or one row). */
  isStaged(app: AppName, version: string): Promise<boolean>;
  list(app: AppName): Promise<{ pointer: { version: string; since: string; history: History } | null; releases: Array<{ version: string; createdAt: string; files: number; staged: boolean }> }>;
}

export interface LockedStore {
  pointer(): Promise<{ version: string; history: History } | null>;
  /** The history, also where no pointer names a release (an emptied `current` that a rollback to a version repairs). */
  history(): Promise<History>;
  /** Whether a release, staged or not, has that name (a name never changes what it holds). */
  taken(version: string): Promise<boolean>;
  /** The files of a stored release (not a staged one), or null when none has that name. */
  files(version: string): Promise<Map<string, Buffer> | null>;
  /** Stores a checked release (its folder `checked`, its files) under `version`; nothing is served yet. */
  store(version: string, checked: string, files: ReadonlyMap<string, Buffer>, createdAt: Date): Promise<void>;
  /** Stores a checked release staged: served to no one but a preview (issue 34). */
  stage(version: string, checked: string, files: ReadonlyMap<string, Buffer>, createdAt: Date): Promise<void>;
  /** The files of a staged release, or null when no staged release has that name. */
  staged(version: string): Promise<Map<string, Buffer> | null>;
  /** A staged release, checked again in `checked`, becomes a release like any other (the pointer is moved after). */
  unstage(version: string, checked: string, createdAt: Date): Promise<void>;
  /** Makes `version` the served one, with `history`. */
  point(version: string, history: History): Promise<void>;
  /** The app's running canary (issue 34), or null. */
  canary(): Promise<Canary | null>;
  /** Starts a canary, changes its share, or ends it; every instance is told (on PostgreSQL, on commit). */
  startCanary(canary: Canary): Promise<void>;
  changeCanary(id: string, change: { percent: number; promoteAfter: string | null }): Promise<void>;
  endCanary(id: string, end: { outcome: CanaryOutcome; reason: string; at: string }): Promise<void>;
}

/** Where the canaries of a local backend are kept: the site's database (absent for `npm run deploy` on SQLite). */
export type CanaryDb = ReleasesDb | undefined;
const CANARY_NEEDS_SERVER = (app: AppName) =>
  `a canary is started on the running site, which keeps it in its database: npm run promote -- ${app} --version <v> --percent <n> --to <site URL> --token <token> (POST /api/releases/${app}/promote)`;

/** The canary methods of a store over one database handle (a transaction on PostgreSQL, which then notifies). */
function canaryMethods(db: CanaryDb | ReleasesTransaction, app: AppName, told?: () => Promise<void>): Pick<LockedStore, 'canary' | 'startCanary' | 'changeCanary' | 'endCanary'> {
  const need = () => {
    if (!db) throw new ReleaseRefusedError(CANARY_NEEDS_SERVER(app));
    return db;
  };
  return {
    canary: async () => (db ? readRunningCanary(db, app) : null),
    async startCanary(canary) {
      await insertCanary(need(), canary);
      await told?.();
    },
    async changeCanary(id, change) {
      await updateCanary(need(), id, change);
      await told?.();
    },
    async endCanary(id, end) {
      await endCanary(need(), id, end);
      await told?.();
    },
  };
}

/** The local backend: the release format on this machine's SITE_ROOT, as `npm run deploy` writes it. */
export function localBackend(siteRoot: string, canaryDb: CanaryDb): ReleaseBackend {
  const tails = new Map<AppName, Promise<unknown>>();
  async function fileLock(app: AppName): Promise<() => Promise<void>> {
    const dir = remoteDir(siteRoot, app);
    await mkdir(dir, { recursive: true });
    const lock = path.join(dir, '.deploy.lock');
    for (let attempt = 0; ; attempt++) {
      try {
        const handle = await open(lock, 'wx');
        await handle.writeFile(String(process.pid));
        await handle.close();
        return () => rm(lock, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
        const pid = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
        let alive: boolean;
        try {
          alive = pid > 0 && pid !== process.pid && process.kill(pid, 0);
        } catch {
          alive = false;
        }
        if (alive) throw new ConflictError(`another deploy or rollback of ${app} is running (pid ${pid}); try again when it is done`, { code: 'deploy_in_progress' });
        await rm(lock, { force: true });
      }
    }
  }
  const dirOf = (app: AppName) => remoteDir(siteRoot, app);
  const localHistory = (app: AppName): Promise<History> => readHistory(dirOf(app));
  return {
    async locked(app, work) {
      // In this process, deploys of one app take turns; the lock file keeps `npm run deploy` on this machine out.
      const previous = tails.get(app) ?? Promise.resolve();
      const run = previous.catch(() => undefined).then(async () => {
        const release = await fileLock(app);
        try {
          return await work({
            async pointer() {
              const version = (await readFile(path.join(dirOf(app), POINTER_FILE), 'utf8').catch(() => '')).trim();
              return version ? { version, history: await localHistory(app) } : null;
            },
            history: () => localHistory(app),
            taken: async (version) => (await exists(releaseDir(siteRoot, app, version))) || (await exists(stagedDir(siteRoot, app, version))),
            async files(version) {
              if (!RELEASE_NAME.test(version) || !(await exists(releaseDir(siteRoot, app, version)))) return null;
              return readFolder(releaseDir(siteRoot, app, version));
            },
            async stage(version, checked, _files, createdAt) {
              // staged/ beside releases/: nothing that reads releases/ (serving order, earlier chunks) can name it.
              await mkdir(path.dirname(stagedDir(siteRoot, app, version)), { recursive: true });
              await rename(checked, stagedDir(siteRoot, app, version));
              await utimes(stagedDir(siteRoot, app, version), createdAt, createdAt);
            },
            async staged(version) {
              if (!RELEASE_NAME.test(version) || !(await exists(stagedDir(siteRoot, app, version)))) return null;
              return readFolder(stagedDir(siteRoot, app, version));
            },
            async unstage(version, checked, createdAt) {
              // What was checked again is what is served; the staged copy goes (its previews end).
              await rename(checked, releaseDir(siteRoot, app, version));
              await utimes(releaseDir(siteRoot, app, version), createdAt, createdAt);
              await rm(stagedDir(siteRoot, app, version), { recursive: true, force: true });
            },
            async store(version, checked, _files, createdAt) {
              // The checked folder is renamed into place: what was checked is what is served.
              await rename(checked, releaseDir(siteRoot, app, version));
              await utimes(releaseDir(siteRoot, app, version), createdAt, createdAt);
            },
            async point(version, history) {
              // History first, then the pointer (one rename), as npm run deploy does.
              await writeAtomically(path.join(dirOf(app), HISTORY_FILE), historyText(history));
              await writeAtomically(path.join(dirOf(app), POINTER_FILE), `${version}\n`);
            },
            // This one instance reads them again when the deployer tells it (options.switched).
            ...canaryMethods(canaryDb, app),
          });
        } finally {
          await release();
          // What this process serves may have changed: its next request reads the files again (lib/stat-shared.ts).
          refreshStats();
        }
      });
      tails.set(app, run);
      return run;
    },
    isStaged: (app, version) => exists(stagedDir(siteRoot, app, version)),
    async list(app) {
      const version = (await readFile(path.join(dirOf(app), POINTER_FILE), 'utf8').catch(() => '')).trim();
      const since = version ? (await stat(path.join(dirOf(app), POINTER_FILE))).mtime.toISOString() : '';
      const releases: Array<{ version: string; createdAt: string; files: number; staged: boolean }> = [];
      const entries = await readdir(path.join(dirOf(app), RELEASES_DIR), { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (!entry.isDirectory() || !RELEASE_NAME.test(entry.name)) continue;
        const dir = path.join(dirOf(app), RELEASES_DIR, entry.name);
        const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
        releases.push({ version: entry.name, createdAt: (await stat(dir)).mtime.toISOString(), files, staged: false });
      }
      const staged = await readdir(path.join(dirOf(app), STAGED_DIR), { withFileTypes: true }).catch(() => []);
      for (const entry of staged) {
        if (!entry.isDirectory() || !RELEASE_NAME.test(entry.name)) continue;
        const dir = path.join(dirOf(app), STAGED_DIR, entry.name);
        const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).length;
        releases.push({ version: entry.name, createdAt: (await stat(dir)).mtime.toISOString(), files, staged: true });
      }
      releases.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
      return { pointer: version ? { version, since, history: await localHistory(app) } : null, releases };
    },
  };
}

/** The shared backend: the release store in PostgreSQL, every instance told on commit. */
export function sharedBackend(db: ReleasesDb): ReleaseBackend {
  return {
    locked(app, work) {
      return releaseTransaction(db, app, (trx) =>
        work({
          async pointer() {
            const pointer = await readSharedPointer(trx, app);
            return pointer ? { version: pointer.version, history: pointerHistory(pointer) } : null;
          },
          async history() {
            const pointer = await readSharedPointer(trx, app);
            return pointer ? pointerHistory(pointer) : { stack: [] };
          },
          taken: async (version) => (await readStoredRelease(trx, app, version)) !== null,
          async files(version) {
            const release = await readStoredRelease(trx, app, version);
            if (!release || release.stagedAt !== null) return null;
            const blobs = await readBlobs(trx, Object.values(release.files));
            return new Map(Object.entries(release.files).map(([file, hash]) => [file, blobs.get(hash)!]));
          },
          async store(version, checked, files, createdAt) {
            const manifest = JSON.parse(files.get(manifestFile(app))!.toString('utf8')) as never;
            await storeRelease(trx, { remote: app, version, manifest: { ...(manifest as object), version } as never, files }, createdAt);
            // Each instance copies it from the store (release-sync.ts); the checked folder was only for the checks.
            await rm(checked, { recursive: true, force: true });
          },
          async stage(version, checked, files, createdAt) {
            const manifest = JSON.parse(files.get(manifestFile(app))!.toString('utf8')) as never;
            await storeRelease(trx, { remote: app, version, manifest: { ...(manifest as object), version } as never, files, staged: true }, createdAt);
            // An instance copies it when a preview asks for it (release-sync.ts stagedCopy).
            await rm(checked, { recursive: true, force: true });
          },
          async staged(version) {
            const release = await readStoredRelease(trx, app, version);
            if (!release || release.stagedAt === null) return null;
            const blobs = await readBlobs(trx, Object.values(release.files));
            return new Map(Object.entries(release.files).map(([file, hash]) => [file, blobs.get(hash)!]));
          },
          async unstage(version, checked) {
            await unstageRelease(trx, app, version);
            await rm(checked, { recursive: true, force: true });
          },
          async point(version, history) {
            await movePointer(trx, app, { version, stack: history.stack, facts: historyFacts(history) }, new Date());
          },
          // In the same transaction, and every instance told on its commit (release-sync.ts reads them again).
          ...canaryMethods(trx, app, () => notifyReleases(trx, app)),
        }),
      );
    },
    isStaged: async (app, version) => ((await readStoredRelease(db, app, version))?.stagedAt ?? null) !== null,
    async list(app) {
      const [pointer, releases] = await Promise.all([readSharedPointer(db, app), listStoredReleases(db, app)]);
      return { pointer: pointer ? { version: pointer.version, since: pointer.since, history: pointerHistory(pointer) } : null, releases };
    },
  };
}
