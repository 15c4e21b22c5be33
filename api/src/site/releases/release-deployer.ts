/*
 * Deploys and rollbacks of a remote, done by the server itself (issue 33): what `POST /api/releases/{app}` and
 * `POST /api/releases/{app}/rollback` call, so a team's CI needs the site's URL, a deploy token and its key, not the
 * serving machine's disk or the database.
 *
 * One store, two backends behind one interface (ReleaseBackend):
 * - local (SQLite, one instance): the release format on SITE_ROOT (release-format.ts), the same folders, history.json
 *   and `current` that `npm run deploy` writes on that machine, under the same lock file;
 * - shared (PostgreSQL, every instance): the release store (releases-repository.ts); each instance copies the
 *   pointer's release into its own SITE_ROOT when told (release-sync.ts).
 * Either way the registry (remote-registry.ts) serves what the pointer names, from the next request.
 *
 * Before anything changes, the release is written to a hidden folder of its own and checked as the registry will
 * check it: the release format, fit with the serving shell, the signature (RELEASE_TRUSTED_KEYS), and its server
 * module loading with the shell's shared modules. A refusal names the cause in full (file, line, the module's error)
 * and leaves nothing behind. Every outcome, refusals included, goes to the deploy log as it happens.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, utimes, writeFile } from 'node:fs/promises';
import { refreshStats } from '../../lib/stat-shared';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReleaseChange } from '@site/contracts/deploys';
import { REMOTE_NAMES, type MfeManifest } from '@site/contracts/manifest';
import type { ShellServerEntry } from '@site/contracts/server-render';
import { openDatabase, SQLITE_FILE_NAME } from '../../db/database';
import { createDeployLog, type DeployLog, type NewDeployLogEntry } from '../../deploys/deploy-log';
import type { DeployActor, DeployOptions, KeptDistNotice, ReleaseDeployer } from '../../deploys/deployer-port';
import { ConflictError, DomainError, InvalidInputError, NotFoundError, RefusedError } from '../../lib/domain-errors';
import type { Logger } from '../../lib/logger';
import {
  HISTORY_FILE,
  historyFacts,
  historyText,
  pointerHistory,
  POINTER_FILE,
  RELEASE_NAME,
  RELEASES_DIR,
  checkRelease,
  checkShellRelease,
  loadErrorText,
  strands,
  type AppName,
  distDir,
  importRelease,
  judgeRelease,
  readHistory,
  type ReleaseHistory,
  releaseDir,
  remoteDir,
  STAGED_DIR,
  stagedDir,
  writeAtomically,
  type SharedModules,
} from './release-format';
import { SIGNATURE_FILE, verifyRelease, type TrustedKey } from './release-signature';
import { compareVersions, isSemver } from './release-version';
import {
  listStoredReleases,
  movePointer,
  notifyReleases,
  readBlobs,
  readSharedPointer,
  readStoredRelease,
  releaseDigest,
  releaseTransaction,
  sha256,
  storeRelease,
  unstageRelease,
  type ReleasesDb,
  type ReleasesTransaction,
} from './releases-repository';
import { endCanary, insertCanary, readRunningCanaries, readRunningCanary, updateCanary, type CanaryOutcome } from './canaries-repository';
import type { Canary } from '../../deploys/deployer-port';
import { createSmokeRenderer, type SmokeRenderer } from './smoke-render';

// npm run deploy -- <app> --stage prints the preview link with the server's signer (PREVIEW_SECRET) from this bundle.
export { createPreviewTokens, PREVIEW_PARAM } from './preview-tokens';
// npm run deploy -- --all signs and deploys the apps trusted keys would leave unsigned (issue 51).
export { appsWithoutTrustedSignature } from './signing-gate';
// npm run deploy/rollback/promote import all they need from this one bundle (issue 51), nothing copied: the release
// format and store, and the site's release policy read from the environment as the server reads it.
export { loadReleasePolicy } from '../../config';
export {
  checkRelease,
  checkShellRelease,
  packReleaseTarball,
  parseTrustedKeys,
  POINTER_FILE,
  readManifest,
  RELEASE_NAME,
  REMOTE_NAMES,
  releaseDir,
  remoteDir,
  SIGNATURE_FILE,
  signFiles,
  useReleasePolicy,
} from './release-format';
export { openReleaseStore, readSharedPointer, readStoredRelease } from './releases-repository';
// npm run deploy --notes/--commit/--ci-url are checked as an upload's query is.
export { releaseProvenanceSchema } from '@site/contracts/deploys';
// What the services see of it (deploys/deployer-port.ts): deploy, rollback, list, import builds.
export type { DeployActor, DeployOptions, KeptDistNotice, ReleaseDeployer } from '../../deploys/deployer-port';

/**
 * For npm run deploy/rollback/promote on the serving machine: the site's deploy log (the admin dashboard's), written as
 * deploys over HTTP write it. The site's database: PostgreSQL with DATABASE_URL, else the SQLite file in DATA_DIR when
 * the site has one (a site that never started has no log to write to: undefined).
 */
export async function openDeployLog(options: { databaseUrl?: string; dataDir: string }): Promise<{ record: DeployLog['record']; close(): Promise<void> } | undefined> {
  if (!options.databaseUrl && !(await exists(path.join(options.dataDir, SQLITE_FILE_NAME)))) return undefined;
  const handle = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  const log = createDeployLog(handle.db);
  return { record: (entry) => log.record(entry), close: () => handle.close() };
}

/** A refusal of a release: a 400 whose message names the cause in full. */
export class ReleaseRefusedError extends RefusedError {
  constructor(message: string) {
    super(message, { code: 'release_refused' });
  }
}

const exists = (file: string) => stat(file).then(
  () => true,
  () => false,
);

/** A release's history: the stack of versions served (oldest first, a rollback pops) and its facts; no log (the deploy log is it). */
type History = ReleaseHistory;
/** The history after a deploy, rollback or promote moved the pointer to the top of `stack`: no imported build is served. */
const moved = (history: History, stack: string[]): History => ({ ...history, stack, servedBuild: undefined });

/** What a backend reads and switches; the checks and the log are the deployer's, the same for both. */
interface ReleaseBackend {
  /** Runs `work` while holding the app's deploy lock (one deploy or rollback of an app at a time, across processes). */
  locked<T>(app: AppName, work: (store: LockedStore) => Promise<T>): Promise<T>;
  /** Whether `version` of `app` is a staged release (cheap: one stat, or one row). */
  isStaged(app: AppName, version: string): Promise<boolean>;
  list(app: AppName): Promise<{ pointer: { version: string; since: string; history: History } | null; releases: Array<{ version: string; createdAt: string; files: number; staged: boolean }> }>;
}

interface LockedStore {
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
type CanaryDb = ReleasesDb | undefined;
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

/** The next free name: `base`, else base+2, base+3… (base.2… when it has build metadata already). */
export async function freeName(taken: (version: string) => Promise<boolean>, base: string): Promise<string> {
  if (!(await taken(base))) return base;
  const separator = base.includes('+') ? '.' : '+';
  for (let n = 2; n < 10_000; n++) {
    const candidate = `${base}${separator}${n}`;
    if (!(await taken(candidate))) return candidate;
  }
  throw new ConflictError(`every name after ${base} is taken: pass a version`);
}

const APPS: readonly AppName[] = ['shell', ...REMOTE_NAMES];
/** The manifest a build of `app` carries: the shell's shell-manifest.json, a remote's mfe-manifest.json. */
const manifestFile = (app: AppName) => (app === 'shell' ? 'shell-manifest.json' : 'mfe-manifest.json');

/** The version a build's manifest names (the shell's shell-manifest.json, a remote's mfe-manifest.json), if any. */
export function manifestVersion(app: AppName, files: ReadonlyMap<string, Buffer>): string | undefined {
  try {
    const version = (JSON.parse(files.get(manifestFile(app))?.toString('utf8') ?? '') as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The name a build is deployed under when none is asked for: its manifest's version (else `release`), made free. */
export function freeReleaseName(app: AppName, files: ReadonlyMap<string, Buffer>, taken: (version: string) => Promise<boolean>): Promise<string> {
  const version = manifestVersion(app, files);
  // checkRelease names what is wrong with the manifest.
  return freeName(taken, version !== undefined && RELEASE_NAME.test(version) ? version : 'release');
}

/** The version of the whole build of `app` in `dir`, or null when there is none. */
async function builtVersion(dir: string, app: AppName): Promise<{ version: string } | null> {
  if (app === 'shell') {
    const check = await checkShellRelease(dir).catch(() => null);
    return check?.ok ? { version: check.version } : null;
  }
  const check = await checkRelease(dir, app).catch(() => null);
  return check?.ok ? { version: check.manifest.version } : null;
}

/** Files of a dist folder (path with `/` -> bytes); links and special files are refused. */
export async function readFolder(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, full).split(path.sep).join('/');
    if (entry.isFile()) files.set(relative, await readFile(full));
    else if (!entry.isDirectory()) throw new Error(`${relative} is not a file or folder`);
  }
  return files;
}

/** The local backend: the release format on this machine's SITE_ROOT, as `npm run deploy` writes it. */
function localBackend(siteRoot: string, canaryDb: CanaryDb): ReleaseBackend {
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
function sharedBackend(db: ReleasesDb): ReleaseBackend {
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

export function createReleaseDeployer(options: {
  siteRoot: string;
  /** PostgreSQL: releases go to the shared store (every instance). Absent: this machine's SITE_ROOT. */
  shared?: ReleasesDb;
  trustedKeys: readonly TrustedKey[];
  /** The serving shell's shared singletons, handed to the server module when it is loaded to check it. */
  sharedModules: () => Promise<SharedModules | undefined>;
  /** Writes one line of the deploy log (services.deployLog.record). */
  record: (entry: NewDeployLogEntry) => Promise<unknown>;
  /** Raises the owner's alert for a refused or failed deploy. */
  alert: (alert: { title: string; message: string; key: string }) => void;
  /** The manifests of the remotes served now (a shell release must not strand one). */
  servedManifests: () => Promise<readonly MfeManifest[]>;
  /** Who deployed these releases (the deploy log's successful deploys). */
  deployedBy?: (app: AppName, versions: string[]) => Promise<Map<string, string>>;
  /**
   * Told after a switch or a canary's change (the release sync of this instance, so it does not wait for its NOTIFY,
   * and its canaries read again), before the caller is answered.
   */
  switched?: (app: AppName) => void | Promise<void>;
  /** Where the caller finds the list of an app's releases, named in refusals (default: the HTTP endpoint). */
  listedBy?: (app: AppName) => string;
  /** A preview link of a staged release (site/releases/preview-tokens.ts); absent: staged releases have none. */
  previewLink?: (app: AppName, version: string) => Promise<string | undefined>;
  /**
   * The site's database, where canaries are kept on SQLite (on PostgreSQL: `shared`). Absent (npm run deploy on the
   * serving machine without PostgreSQL): a canary is refused, said to be started on the running site.
   */
  canaryDb?: ReleasesDb;
  /**
   * Renders every page of an uploaded release on a worker before it is stored (smoke-render.ts); default: with no site
   * data (`npm run deploy` on the serving machine), the pages' data left out as when the server has none.
   */
  smokeRender?: SmokeRenderer;
  logger: Logger;
  clock: () => Date;
}): ReleaseDeployer {
  const { siteRoot, logger } = options;
  const smoke = options.smokeRender ?? createSmokeRenderer({ logger });
  const backend = options.shared ? sharedBackend(options.shared) : localBackend(siteRoot, options.canaryDb);
  const listedBy = options.listedBy ?? ((app: AppName) => `GET /api/releases/${app}`);

  /**
   * Writes `files` into a hidden folder beside the releases and checks it as the registry will. Throws why not.
   * `skipLoadCheck` leaves out loading its server code (the registry will refuse it and keep the last good release).
   * `smokeRender`: an upload's pages are rendered first (a rollback, a promotion or a build already served are not).
   */
  async function checkedFolder(app: AppName, version: string, files: ReadonlyMap<string, Buffer>, skipLoadCheck = false, smokeRender = false): Promise<{ dir: string; checked: string[] }> {
    const releases = path.join(remoteDir(siteRoot, app), RELEASES_DIR);
    await mkdir(releases, { recursive: true });
    const dir = path.join(releases, `.incoming-${version}-${randomUUID().slice(0, 8)}`);
    try {
      for (const [file, bytes] of files) {
        const target = path.resolve(dir, file);
        if (!target.startsWith(dir + path.sep)) throw new ReleaseRefusedError(`${file} is outside the release`);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, bytes, { flag: 'wx' });
      }
      if (app === 'shell') return { dir, checked: await checkShell(dir, skipLoadCheck, smokeRender) };
      // The one judgement the registry makes too (release-format's judgeRelease): complete, fitting the shell, signed.
      const check = await judgeRelease(dir, app, { siteRoot, trustedKeys: options.trustedKeys });
      if (!check.ok) {
        if (check.part === 'format') throw new ReleaseRefusedError(`this is not a release of ${app} the site can serve: ${check.problems.join('; ')}`);
        if (check.part === 'shell') throw new ReleaseRefusedError(`${app} ${check.version} cannot be deployed: ${check.problem}`);
        throw new ReleaseRefusedError(`the release is ${check.problem}`);
      }
      const checked = check.checked;
      if (skipLoadCheck) return { dir, checked };
      // On a worker under a deadline, before this thread runs any of its code (a module that loops holds the worker).
      if (smokeRender) await smokeRendered(app, dir, { ...check.manifest, version }, checked);
      const loaded = await importRelease(dir, { ...check.manifest, version }, await options.sharedModules());
      if (!loaded.ok) throw new ReleaseRefusedError(`its server module would not run: ${loaded.reason}`);
      if (check.serverFiles.length > 0) checked.push(`${check.serverFiles.join(', ')} loads`);
      return { dir, checked };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  async function checkSignature(dir: string, app: AppName, checked: string[]): Promise<void> {
    if (options.trustedKeys.length === 0) return;
    const signature = await verifyRelease(dir, app, options.trustedKeys);
    if (!signature.ok) throw new ReleaseRefusedError(`the release is not signed by a key trusted for ${app}: ${signature.reason}`);
    checked.push(`${SIGNATURE_FILE} (key ${signature.key})`);
  }

  /**
   * A shell release: whole (index.html, shell-manifest.json), stranding no served remote (each must be able to run in
   * what it provides), signed when keys are trusted, and its server entry loading. Returns what was checked.
   */
  async function checkShell(dir: string, skipLoadCheck: boolean, smokeRender: boolean): Promise<string[]> {
    const check = await checkShellRelease(dir);
    if (!check.ok) throw new ReleaseRefusedError(`this is not a complete release of the shell: ${check.problems.join('; ')}`);
    const checked = [...check.checked];
    const stranded = (await options.servedManifests()).map((manifest) => strands(manifest, check.builtWith)).filter((problem): problem is string => Boolean(problem));
    if (stranded.length > 0) {
      throw new ReleaseRefusedError(`shell ${check.version} would strand ${stranded.length === 1 ? 'a served remote' : `${stranded.length} served remotes`}, which could not run in it: ${stranded.join('; ')}. Deploy remotes built against it first.`);
    }
    await checkSignature(dir, 'shell', checked);
    const entry = path.join(dir, 'server', 'entry.js');
    if (!skipLoadCheck && smokeRender) await smokeRendered('shell', dir, undefined, checked);
    if (!skipLoadCheck && (await exists(entry))) {
      try {
        // Loaded once under a name of its own (the server loads the served one by its own URL).
        const imported = (await import(/* @vite-ignore */ `${pathToFileURL(entry).href}?check=${randomUUID()}`)) as Partial<ShellServerEntry>;
        if (typeof imported.renderPage !== 'function') throw new Error('it does not export renderPage()');
      } catch (error) {
        throw new ReleaseRefusedError(`its server entry would not run: server/entry.js does not load: ${loadErrorText(error, entry, 'server/entry.js')}`);
      }
      checked.push('server/entry.js loads');
    }
    return checked;
  }

  /** The smoke render of an upload (smoke-render.ts): refuses a page that throws or runs past the deadline. */
  async function smokeRendered(app: AppName, dir: string, manifest: MfeManifest | undefined, checked: string[]): Promise<void> {
    const report = await smoke.render({ app, dir, ...(manifest ? { manifest } : {}), siteRoot, served: await options.servedManifests() });
    if (!report) return;
    const urls = report.pages.map((p) => p.url);
    const named = urls.length > 6 ? `${urls.slice(0, 5).join(', ')} and ${urls.length - 5} more` : urls.join(', ');
    checked.push(`${urls.length} ${urls.length === 1 ? 'page renders' : 'pages render'} (${named})`);
  }

  /**
   * Issue 51: a release only goes forward. Serving `version` below `served` (semver precedence; a name that is not a
   * semantic version stands for its manifest's version) is refused unless `allowed`, and then the log says so. Names
   * that compare as no version at all are let through: there is no order to keep. Returns the log's note, or null.
   */
  function downgrade(app: AppName, version: string, files: ReadonlyMap<string, Buffer>, served: string | null, allowed: boolean | undefined, how: string): string | null {
    if (!served) return null;
    let standsFor = version;
    if (!isSemver(version)) {
      try {
        const built = (JSON.parse(files.get(manifestFile(app))?.toString('utf8') ?? '') as { version?: unknown }).version;
        if (typeof built === 'string') standsFor = built;
      } catch {
        // checkRelease names what is wrong with the manifest.
      }
    }
    if (compareVersions(standsFor, served) !== -1) return null;
    if (!allowed) {
      throw new ConflictError(
        `${app} ${version}${standsFor !== version ? ` (version ${standsFor})` : ''} is below ${served}, which is served: a release only goes forward. To serve it anyway, ${how}; to serve a stored release again, roll back to it. Nothing was changed.`,
        { code: 'downgrade_refused' },
      );
    }
    return `a downgrade from ${served} to ${version}, allowed by allowDowngrade (--allow-downgrade)`;
  }

  /** The version a deploy is named: asked for, else what it was signed as, else its manifest's (made free). */
  async function pickVersion(app: AppName, files: ReadonlyMap<string, Buffer>, asked: string | undefined, taken: (v: string) => Promise<boolean>): Promise<string> {
    let signedAs: string | undefined;
    const signature = files.get(SIGNATURE_FILE);
    if (signature) {
      try {
        const version = (JSON.parse(signature.toString('utf8')) as { version?: unknown }).version;
        if (typeof version === 'string') signedAs = version;
      } catch {
        // The signature check says what is wrong with it.
      }
    }
    const named = asked ?? signedAs;
    if (named !== undefined) {
      if (!RELEASE_NAME.test(named)) throw new ReleaseRefusedError(`${JSON.stringify(named.slice(0, 100))} is not a release name: use letters, digits, . _ + - (not first), at most 100 characters`);
      if (signedAs !== undefined && named !== signedAs) throw new ReleaseRefusedError(`the release is signed as ${signedAs}, not ${named}`);
      if (await taken(named)) throw new ConflictError(`release ${named} of ${app} exists already: a name never changes what it holds. Deploy under another version.`, { code: 'release_exists' });
      return named;
    }
    return freeReleaseName(app, files, taken);
  }

  /** Records the outcome (and alerts on a refusal or failure), then answers or rethrows. */
  async function recorded<T extends ReleaseChange>(
    app: AppName,
    action: NewDeployLogEntry['action'],
    actor: DeployActor,
    version: () => string | null,
    work: () => Promise<T>,
    /** What the log says of a change that went through (a canary's share, why it ended); null says nothing. */
    describe: (change: T) => string | null = () => null,
    /** An upload's notes, commit and pipeline run (the log carries them to the entries about the release after). */
    provenance: DeployOptions['provenance'] = {},
  ): Promise<T> {
    try {
      const change = await work();
      const message = describe(change);
      await options.record({ app, action, version: change.version, previous: change.previous, result: 'ok', by: actor.by, from: actor.from, message, ...provenance });
      const outcome =
        message ?? (action === 'stage' ? `${change.version} stored staged, served to no one (still serving ${change.previous ?? 'nothing'})` : `now serving ${change.version}`);
      logger.info({ app, action, version: change.version, previous: change.previous, by: actor.by, from: actor.from }, `${app} ${action}: ${outcome}`);
      // Awaited: this instance reads the canaries again before the caller is answered (its next page has the split).
      await options.switched?.(app);
      return change;
    } catch (error) {
      const refused = error instanceof DomainError;
      const message = error instanceof Error ? error.message : String(error);
      await options
        .record({ app, action, version: version(), previous: null, result: refused ? 'refused' : 'failed', by: actor.by, from: actor.from, message, ...provenance })
        .catch((recordError: unknown) => logger.error({ err: recordError }, 'could not write the deploy log'));
      logger.warn({ app, action, by: actor.by, from: actor.from, err: error }, `${app} ${action} ${refused ? 'refused' : 'failed'}: ${message}`);
      options.alert({
        title: `${app} ${action} ${refused ? 'refused' : 'failed'}`,
        message: `${actor.by}${actor.from ? ` (${actor.from})` : ''}: ${message}`,
        key: `deploy:${app}:${action}`,
      });
      throw error;
    }
  }

  /** The release name of a build: its manifest version and the digest of its files. */
  function buildName(version: string, files: ReadonlyMap<string, Buffer>): string {
    const digest = releaseDigest(Object.fromEntries([...files].map(([file, bytes]) => [file, sha256(bytes)]))).slice(0, 8);
    const name = `${version}${version.includes('+') ? '.' : '+'}build.${digest}`;
    return RELEASE_NAME.test(name) ? name : `build.${digest}`;
  }

  async function importBuild(app: AppName, mode: 'first' | 'changed', by: string) {
    const dist = distDir(siteRoot, app);
    const check = await builtVersion(dist, app);
    if (!check) return { app, version: '', result: 'skipped' as const, reason: 'nothing built' };
    if (options.trustedKeys.length > 0) {
      // An unsigned build would not be served anyway: with keys, releases arrive signed, by a deploy.
      return { app, version: '', result: 'skipped' as const, reason: 'RELEASE_TRUSTED_KEYS is set: deploy it signed' };
    }
    // What is served is the store's to say: a build is imported only where the store has no release at all (no
    // pointer, no stored or staged release), whatever a database or a first start remembers.
    const listed = await backend.list(app);
    if (mode === 'first' && (listed.pointer || listed.releases.length > 0)) return { app, version: '', result: 'served' as const };
    const files = await readFolder(dist);
    const version = buildName(check.version, files);
    let previous: string | null = null;
    const result = await backend.locked(app, async (store) => {
      const pointer = await store.pointer();
      previous = pointer?.version ?? null;
      if (pointer && (mode === 'first' || pointer.version === version)) return 'served' as const;
      // `changed` (npm start) replaces only a release that was itself imported from a build: a deploy, a rollback or a
      // promote since then is the served release until the next deploy, never a rebuilt dist.
      if (pointer && pointer.history.servedBuild !== pointer.version) return 'deployed' as const;
      if (!pointer && (await backend.list(app)).releases.length > 0) return 'served' as const;
      const history: History = pointer ? { ...pointer.history, stack: [...pointer.history.stack] } : { stack: [] };
      const now = options.clock();
      if (!(await store.taken(version))) {
        const { dir } = await checkedFolder(app, version, files);
        try {
          await store.store(version, dir, files, now);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }
      if (pointer && history.stack.at(-1) !== pointer.version) history.stack.push(pointer.version);
      history.stack.push(version);
      // What `npm start` may replace, and what a rollback at the bottom says this release is (the deploy log has the rest).
      await store.point(version, { ...history, builds: [...(history.builds ?? []), version], servedBuild: version });
      return 'imported' as const;
    });
    if (result === 'imported') {
      await options.record({ app, action: 'deploy', version, previous, result: 'ok', by, from: null, message: `mfe-${app}/dist imported as a release` });
      logger.info({ app, version, previous }, `mfe-${app}/dist imported as release ${version}: a build changes what is served only through a deploy`);
      void options.switched?.(app);
    }
    if (result === 'deployed') {
      const reason = `${previous} was deployed: a build does not replace it (npm run deploy -- ${app} serves the build)`;
      logger.info({ app, version: previous, build: version }, `mfe-${app}/dist (${version}) is not imported: ${reason}`);
      return { app, version: previous ?? '', result: 'served' as const, reason };
    }
    return { app, version, result };
  }

  return {
    async importBuilds(mode, by) {
      const results = [];
      // The shell first: the remotes are then judged against the shell that will serve them.
      for (const app of APPS) {
        try {
          results.push(await importBuild(app, mode, by));
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          logger.error({ app, err: error }, `mfe-${app}/dist could not be imported as a release: ${reason}`);
          await options.record({ app, action: 'deploy', version: null, previous: null, result: 'failed', by, from: null, message: `mfe-${app}/dist could not be imported: ${reason}` }).catch(() => undefined);
          results.push({ app, version: '', result: 'skipped' as const, reason });
        }
      }
      return results;
    },

    deploy(app, files, actor, { version: asked, skipLoadCheck, keptDist, stage, allowDowngrade, dryRun, provenance } = {}) {
      if (dryRun) return dryRunDeploy(app, files, actor, { version: asked, skipLoadCheck, stage, allowDowngrade });
      let named: string | null = asked ?? null;
      let downgraded: string | null = null;
      // What became of the dist served before a first deploy: the deploy log says it (history.json keeps only the fact).
      let distNote: string | null = null;
      return recorded(app, stage ? 'stage' : 'deploy', actor, () => named, () =>
        backend.locked(app, async (store) => {
          const version = await pickVersion(app, files, asked, (v) => store.taken(v));
          named = version;
          // Staged or not, checked the same (format, shell fit, signature, server module, its pages rendered): only then stored.
          const { dir, checked } = await checkedFolder(app, version, files, skipLoadCheck, true);
          try {
            if (stage) {
              const pointer = await store.pointer();
              await store.stage(version, dir, files, options.clock());
              const previewUrl = await options.previewLink?.(app, version);
              return { app, version, previous: pointer?.version ?? null, checked, staged: true, ...(previewUrl ? { previewUrl } : {}) };
            }
            // A canary compares its release with the served one: the served one does not change under it.
            const running = await store.canary();
            if (running) throw canaryRunning(app, running, 'deploying another release');
            const pointer = await store.pointer();
            downgraded = downgrade(app, version, files, pointer?.version ?? null, allowDowngrade, `deploy it with --allow-downgrade (POST /api/releases/${app}?allowDowngrade=1)`);
            const history = moved(pointer?.history ?? { stack: [] }, [...(pointer?.history.stack ?? [])]);
            const now = options.clock();
            let kept: string | null = null;
            if (!pointer) {
              const notice = await keepServedDist(app, store, history, now, version);
              if (notice) keptDist?.(notice);
              kept = notice && 'kept' in notice ? notice.kept.version : null;
              if (notice) distNote = 'kept' in notice ? `${relativeDist(app)}, served until now, kept as ${notice.kept.version}: the rollback target` : notice.notKept;
            }
            await store.store(version, dir, files, now);
            const below = pointer?.version ?? kept;
            if (below && history.stack.at(-1) !== below) history.stack.push(below);
            history.stack.push(version);
            await store.point(version, history);
            return { app, version, previous: pointer?.version ?? kept, checked };
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        }),
        () => [distNote, downgraded].filter(Boolean).join('; ') || null,
        provenance,
      );
    },

    async rollback(app, actor, { version: asked, skipLoadCheck } = {}) {
      // With a canary running, a rollback without a version ends the canary: everyone gets the served release again.
      if (asked === undefined) {
        const stopped = await stopCanary(app, actor, { outcome: 'stopped', reason: `stopped by ${actor.by} (a rollback request)` });
        if (stopped) return stopped;
      }
      let target: string | null = asked ?? null;
      let endedCanary: Canary | null = null;
      return recorded(app, 'rollback', actor, () => target, () =>
        backend.locked(app, async (store) => {
          const pointer = await store.pointer();
          // With a version, a pointer that names nothing (emptied by hand) is repaired too.
          if (!pointer && asked === undefined) throw new ConflictError(`${app} has no release yet: nothing to roll back`, { code: 'nothing_to_roll_back' });
          const current = pointer?.version ?? null;
          const history = pointer?.history ?? (await store.history());
          const { stack } = history;
          const at = current === null ? -1 : stack.lastIndexOf(current);
          let nextStack: string[];
          if (asked !== undefined) {
            target = asked;
            const index = stack.lastIndexOf(asked);
            nextStack = index >= 0 ? stack.slice(0, index + 1) : [...stack, asked];
          } else if (at > 0) {
            target = stack[at - 1]!;
            nextStack = stack.slice(0, at);
          } else if (at < 0 && stack.length > 0 && stack.at(-1) !== current) {
            // A pointer set by hand to a release outside the history: back to the last one deployed.
            target = stack.at(-1)!;
            nextStack = stack;
          } else {
            const bottom = firstServed(app, history, current!);
            throw new ConflictError(`${app} has no release before ${current} to roll back to${bottom ? `: ${bottom}, nothing earlier was kept` : ''}. Name one (${listedBy(app)} lists them)`, {
              code: 'nothing_to_roll_back',
            });
          }
          if (target === current) throw new ConflictError(`${app} already serves ${target}`, { code: 'already_served' });
          if (!RELEASE_NAME.test(target)) throw new ReleaseRefusedError(`${JSON.stringify(target.slice(0, 100))} is not a release name`);
          if (await store.staged(target)) throw new ConflictError(`release ${target} of ${app} is staged: serve it with POST /api/releases/${app}/promote`, { code: 'not_served_yet' });
          const files = await store.files(target);
          if (!files) throw new NotFoundError(`no release of ${app} is named ${target} (${listedBy(app)} lists them)`, { code: 'release_not_found' });
          // Checked again as it will be served now (the shell or the trusted keys may have changed since).
          const { dir, checked } = await checkedFolder(app, target, files, skipLoadCheck).catch((error: unknown) => {
            if (error instanceof ReleaseRefusedError) throw new ReleaseRefusedError(`cannot roll back to ${target}: ${error.message}`);
            throw error;
          });
          await rm(dir, { recursive: true, force: true });
          const now = options.clock();
          // A canary compared its release with the one served until now: it ends with it.
          const running = await store.canary();
          if (running) {
            await store.endCanary(running.id, { outcome: 'stopped', reason: `${app} was rolled back to ${target} by ${actor.by}`, at: now.toISOString() });
            endedCanary = running;
          }
          await store.point(target, moved(history, nextStack));
          return { app, version: target, previous: current, checked };
        }),
        () => (endedCanary ? `the canary of ${endedCanary.version} (${endedCanary.percent}% of visitors) ended with it` : null),
      );
    },

    promote(app, actor, { version, percent, promoteAfter, skipLoadCheck, allowDowngrade }) {
      // 100, or no percent: everyone. Below: a canary of that share.
      if (percent !== undefined && percent < 100) return startCanary(app, actor, { version, percent, promoteAfter: promoteAfter ?? null, skipLoadCheck, allowDowngrade });
      let endedCanary: Canary | null = null;
      let downgraded: string | null = null;
      return recorded(app, 'promote', actor, () => version, () =>
        backend.locked(app, async (store) => {
          const pointer = await store.pointer();
          const running = await store.canary();
          if (running && running.version !== version) throw canaryRunning(app, running, `promoting ${version}`);
          const files = await store.staged(version);
          if (!files) {
            if (pointer?.version === version) throw new ConflictError(`${app} already serves ${version}`, { code: 'already_served' });
            if (await store.taken(version)) {
              throw new ConflictError(`release ${version} of ${app} is not staged: serve it again with POST /api/releases/${app}/rollback`, { code: 'not_staged' });
            }
            throw new NotFoundError(`no staged release of ${app} is named ${version} (${listedBy(app)} lists them)`, { code: 'release_not_found' });
          }
          if (promoteAfter !== undefined) throw new InvalidInputError(`promoteAfter goes with a canary (a percent below 100): ${version} would be served to everyone now`, { code: 'promote_after_without_canary' });
          // A canary of it was let through already (with the flag, if it was a downgrade).
          if (!running) downgraded = downgrade(app, version, files, pointer?.version ?? null, allowDowngrade, `promote it with --allow-downgrade ({"allowDowngrade": true})`);
          // Checked again as it will be served now (the shell or the trusted keys may have changed since it was staged).
          const { dir, checked } = await checkedFolder(app, version, files, skipLoadCheck).catch((error: unknown) => {
            if (error instanceof ReleaseRefusedError) throw new ReleaseRefusedError(`cannot promote ${version}: ${error.message}`);
            throw error;
          });
          try {
            const before = pointer?.history ?? (await store.history());
            const history = moved(before, [...before.stack]);
            const now = options.clock();
            await store.unstage(version, dir, now);
            if (pointer && history.stack.at(-1) !== pointer.version) history.stack.push(pointer.version);
            history.stack.push(version);
            // Its canary ends as it becomes the served release (in the same transaction on PostgreSQL).
            if (running) {
              await store.endCanary(running.id, { outcome: 'promoted', reason: `served to everyone by ${actor.by}`, at: now.toISOString() });
              endedCanary = running;
            }
            await store.point(version, history);
            return { app, version, previous: pointer?.version ?? null, checked };
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        }),
        (change) =>
          [endedCanary ? `served to everyone after a canary at ${endedCanary.percent}% since ${endedCanary.startedAt}; ${change.previous ?? 'nothing'} was served before` : null, downgraded]
            .filter(Boolean)
            .join('; ') || null,
      );
    },

    stopCanary: (app, actor, end) => stopCanary(app, actor, end),

    async canaries() {
      const db = options.shared ?? options.canaryDb;
      return db ? readRunningCanaries(db) : [];
    },

    refuse(app, actor, message) {
      return recorded(app, 'deploy', actor, () => null, () => Promise.reject(new ReleaseRefusedError(message)));
    },

    async list(app) {
      const { pointer, releases } = await backend.list(app);
      const shown = releases.slice(0, 100);
      const by = (await options.deployedBy?.(app, shown.map((release) => release.version))) ?? new Map<string, string>();
      return {
        app,
        served: pointer ? { version: pointer.version, since: pointer.since, by: by.get(pointer.version) ?? null } : null,
        releases: shown.map((release) => ({ ...release, current: release.version === pointer?.version, by: by.get(release.version) ?? null })),
      };
    },

    async previewUrl(app, version) {
      if (!options.previewLink) return null;
      return RELEASE_NAME.test(version) && (await backend.isStaged(app, version)) ? ((await options.previewLink(app, version)) ?? null) : null;
    },

    async history(app) {
      const { pointer } = await backend.list(app);
      return pointer ? { version: pointer.version, ...pointer.history } : null;
    },
  };

  /**
   * A staged release served to `percent` of visitors (issue 34): checked again as it will be served, then a canary row
   * (one per app). Promoting the running canary's release again with another share changes its share.
   */
  function startCanary(app: AppName, actor: DeployActor, request: { version: string; percent: number; promoteAfter: string | null; skipLoadCheck?: boolean; allowDowngrade?: boolean }): Promise<ReleaseChange> {
    const { version, percent, promoteAfter } = request;
    let changed: { canary: Canary; started: boolean } | undefined;
    let downgraded: string | null = null;
    return recorded(app, 'canary', actor, () => version, () =>
      backend.locked(app, async (store) => {
        const now = options.clock();
        const pointer = await store.pointer();
        const running = await store.canary();
        if (running && running.version !== version) throw canaryRunning(app, running, `a canary of ${version}`);
        const files = await store.staged(version);
        if (!files) {
          if (pointer?.version === version) throw new ConflictError(`${app} already serves ${version} to everyone`, { code: 'already_served' });
          if (await store.taken(version)) throw new ConflictError(`release ${version} of ${app} is not staged: a canary serves a staged release (POST /api/releases/${app}?stage=1)`, { code: 'not_staged' });
          throw new NotFoundError(`no staged release of ${app} is named ${version} (${listedBy(app)} lists them)`, { code: 'release_not_found' });
        }
        // Which release first (404, 409), then what is asked of it.
        if (app === 'shell') throw new ReleaseRefusedError(`the shell is served to everyone or to no one (a canary is for a remote): promote ${version} without percent`);
        if (promoteAfter !== null && Date.parse(promoteAfter) <= now.getTime()) throw new InvalidInputError(`promoteAfter (${promoteAfter}) has passed: name a time to come`, { code: 'promote_after_passed' });
        if (!pointer) throw new ConflictError(`${app} serves no release yet, so a canary has nothing to compare with: promote ${version} to everyone`, { code: 'nothing_served' });
        if (!running) downgraded = downgrade(app, version, files, pointer.version, request.allowDowngrade, `promote it with --allow-downgrade ({"allowDowngrade": true})`);
        // Checked again as it will be served now (the shell or the trusted keys may have changed since it was staged).
        const { dir, checked } = await checkedFolder(app, version, files, request.skipLoadCheck).catch((error: unknown) => {
          if (error instanceof ReleaseRefusedError) throw new ReleaseRefusedError(`cannot serve ${version} as a canary: ${error.message}`);
          throw error;
        });
        await rm(dir, { recursive: true, force: true });
        if (running) {
          await store.changeCanary(running.id, { percent, promoteAfter });
          changed = { canary: { ...running, percent, promoteAfter }, started: false };
        } else {
          const canary: Canary = { id: `can_${randomBytes(9).toString('base64url')}`, app: app as Canary['app'], version, current: pointer.version, percent, startedAt: now.toISOString(), promoteAfter, by: actor.by };
          await store.startCanary(canary);
          changed = { canary, started: true };
        }
        return { app, version, previous: pointer.version, checked, percent, ...(promoteAfter ? { promoteAfter } : {}) };
      }),
      (change) =>
        `${changed?.started ? 'serves' : 'now serves'} ${change.version} to ${percent}% of visitors (sticky per visitor); the others keep ${change.previous}` +
        (promoteAfter ? `; served to everyone at ${promoteAfter} unless rolled back before` : '') +
        (downgraded ? `; ${downgraded}` : ''),
    );
  }

  /**
   * A deploy's every check (issue 52): the name, format, shell fit, signature, smoke render and server module; unstaged,
   * also no canary running and no downgrade. Nothing is stored or logged (a pipeline may dry-run every change), and a
   * refusal raises no alert: the caller is told, as for a deploy.
   */
  async function dryRunDeploy(app: AppName, files: ReadonlyMap<string, Buffer>, actor: DeployActor, request: { version?: string; skipLoadCheck?: boolean; stage?: boolean; allowDowngrade?: boolean }): Promise<ReleaseChange> {
    const releases = path.join(remoteDir(siteRoot, app), RELEASES_DIR);
    const hadReleases = await exists(releases);
    try {
      const change = await backend.locked(app, async (store) => {
        const version = await pickVersion(app, files, request.version, (v) => store.taken(v));
        const pointer = await store.pointer();
        if (!request.stage) {
          const running = await store.canary();
          if (running) throw canaryRunning(app, running, 'deploying another release');
          downgrade(app, version, files, pointer?.version ?? null, request.allowDowngrade, `deploy it with --allow-downgrade (POST /api/releases/${app}?allowDowngrade=1)`);
        }
        const { dir, checked } = await checkedFolder(app, version, files, request.skipLoadCheck, true);
        await rm(dir, { recursive: true, force: true });
        return { app, version, previous: pointer?.version ?? null, checked, ...(request.stage ? { staged: true } : {}), dryRun: true as const };
      });
      logger.info({ app, version: change.version, by: actor.by, from: actor.from }, `${app} dry run: ${change.version} passed every check, nothing stored`);
      return change;
    } catch (error) {
      logger.info({ app, by: actor.by, from: actor.from, err: error }, `${app} dry run refused: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    } finally {
      // The checks' folder went with them; the releases folder too when the dry run made it (an app never deployed).
      if (!hadReleases) await rmdir(releases).catch(() => undefined);
    }
  }

  /**
   * Ends the running canary (only `end.id` when given): `canary_rollback` in the log; null when none runs. Answers as a
   * rollback does: `version` is what everyone is served now, `previous` the canary's release.
   */
  async function stopCanary(app: AppName, actor: DeployActor, end: { id?: string; outcome: 'rolled_back' | 'stopped'; reason: string }): Promise<ReleaseChange | null> {
    const canary = await backend.locked(app, async (store) => {
      const running = await store.canary();
      if (!running || (end.id !== undefined && running.id !== end.id)) return null;
      await store.endCanary(running.id, { outcome: end.outcome, reason: end.reason, at: options.clock().toISOString() });
      return running;
    });
    if (!canary) return null;
    // The log names the canary's release (what was rolled back) and the one everyone gets again.
    await recorded(
      app,
      'canary_rollback',
      actor,
      () => canary.version,
      async () => ({ app, version: canary.version, previous: canary.current, checked: [] }),
      () => `${end.reason}. Everyone gets ${canary.current} again (the canary served ${canary.version} to ${canary.percent}% of visitors since ${canary.startedAt}).`,
    );
    // The caller is told as for a rollback: what everyone is served now, and what (some) were served before.
    return { app, version: canary.current, previous: canary.version, checked: [] };
  }

  /** What a request that would change the app's served release, or start another canary, is told while one runs. */
  function canaryRunning(app: AppName, running: Canary, what: string): ConflictError {
    return new ConflictError(
      `a canary of ${app} ${running.version} runs (${running.percent}% of visitors since ${running.startedAt}), so ${what} must wait: serve it to everyone (POST /api/releases/${app}/promote {"version":"${running.version}"}) or end it (POST /api/releases/${app}/rollback) first`,
      { code: 'canary_running' },
    );
  }

  /** `<app>/dist` as a person names it: relative to the site's root, with `/`. */
  function relativeDist(app: AppName): string {
    return path.relative(siteRoot, distDir(siteRoot, app)).split(path.sep).join('/');
  }

  /** What the release `version` at the bottom of the history was, when it is the build served before any deploy. */
  function firstServed(app: AppName, history: History, version: string): string | undefined {
    const dist = relativeDist(app);
    if (history.keptDist === version) return `${version} is ${dist} as it was served before the first release`;
    if (history.builds?.includes(version)) return `${version} is ${dist} as built when the site first started`;
    return undefined;
  }

  /**
   * The first deploy of an app on a site that served its built dist: that dist is kept as a release below the new
   * one (`deploying`), so the first rollback returns to exactly what was served before (the history's `keptDist`).
   * Says what it kept, or why it could not; null when no build of this app was there.
   */
  async function keepServedDist(app: AppName, store: LockedStore, history: History, now: Date, deploying: string): Promise<KeptDistNotice | null> {
    const dist = distDir(siteRoot, app);
    const shown = relativeDist(app);
    const check = app === 'shell' ? await checkShellRelease(dist) : await checkRelease(dist, app);
    // Without its manifest there was nothing of this app to serve: nothing to keep, nothing promised.
    if (!check.ok && /-manifest\.json is missing$/.test(check.problems[0] ?? '')) return null;
    const notKept = (reason: string): KeptDistNotice => {
      const message = `${shown} was served but is not kept as a release, so a rollback cannot return to it: ${reason}`;
      logger.warn({ app }, message);
      return { notKept: message };
    };
    if (!check.ok) return notKept(check.problems.join('; '));
    // With trusted keys, an unsigned build was never served (release-signature.ts): there is nothing to return to.
    if (options.trustedKeys.length > 0 && !(await verifyRelease(dist, app, options.trustedKeys)).ok) return null;
    const built = app === 'shell' ? (check as { version: string }).version : (check as { manifest: MfeManifest }).manifest.version;
    const marked = `${built}${built.includes('+') ? '.' : '+'}dist`;
    const version = await freeName(async (v) => v === deploying || (await store.taken(v)), RELEASE_NAME.test(marked) ? marked : 'dist');
    const files = await readFolder(dist);
    let kept: { dir: string };
    try {
      kept = await checkedFolder(app, version, files);
    } catch (error) {
      return notKept(error instanceof Error ? error.message : String(error));
    }
    // Older than the new release (earlier releases answer old hashed chunks, newest first).
    await store.store(version, kept.dir, files, new Date(now.getTime() - 1000));
    history.keptDist = version;
    return { kept: { version, files: files.size, bytes: [...files.values()].reduce((sum, bytes) => sum + bytes.length, 0) } };
  }
}
