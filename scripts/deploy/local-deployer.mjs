// The deployer on this machine's SITE_ROOT (or the shared store with DATABASE_URL on PostgreSQL), and the deploy log
// each command writes to.
import { readFile } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import path from 'node:path';
import { DeployError, isPostgres, rel } from './common.mjs';
import { REMOTES, server } from './server.mjs';

async function readPointer(remoteDir) {
  try {
    const version = (await readFile(path.join(remoteDir, server.POINTER_FILE), 'utf8')).trim();
    return version || null;
  } catch {
    return null;
  }
}

/** The deploy's signing key (--key file, else RELEASE_SIGNING_KEY), read and checked up front. */
export async function readSigning(keyFile, name) {
  let key = process.env.RELEASE_SIGNING_KEY || undefined;
  if (keyFile) {
    try {
      key = await readFile(keyFile, 'utf8');
    } catch (error) {
      throw new DeployError(`cannot read the signing key ${rel(keyFile)}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    }
  }
  try {
    if (key) server.signFiles(new Map(), name, 'check', key);
  } catch (error) {
    throw new DeployError(error.message);
  }
  return { key };
}

/*
 * Releases shared by every instance: with DATABASE_URL on PostgreSQL, a deploy or rollback goes to the database
 * (api/src/site/releases/releases-repository.ts, in api/dist/release-deployer.js), never to this machine's folders.
 * The files are stored by content hash and the pointer moves in the same transaction: killed before the commit,
 * nothing changed.
 * On commit every instance is told, copies the release into its own SITE_ROOT and serves it from its next request
 * (api/src/site/releases/release-sync.ts). The checks are the same as for a local deploy, against this machine's shell.
 */
export async function openStore(databaseUrl) {
  const { db, close } = await server.openReleaseStore(databaseUrl);
  return { db, close, readSharedPointer: server.readSharedPointer, readStoredRelease: server.readStoredRelease };
}

/** The manifests of the remotes served from `siteRoot` (the pointer's release, else the dist), and the shared pointers'. */
async function servedManifests(siteRoot, store) {
  const manifests = [];
  for (const name of REMOTES) {
    const remoteDir = server.remoteDir(siteRoot, name);
    const pointer = await readPointer(remoteDir);
    const read = await server.readManifest(pointer ? server.releaseDir(siteRoot, name, pointer) : path.join(remoteDir, 'dist'), name);
    if ('manifest' in read) manifests.push({ ...read.manifest, version: pointer ?? read.manifest.version });
    const shared = store && (await store.readSharedPointer(store.db, name));
    const release = shared && (await store.readStoredRelease(store.db, name, shared.version));
    if (release && release.version !== pointer) manifests.push({ ...release.manifest, version: `${release.version} (shared)` });
  }
  return manifests;
}


/** Every file of a dist (relative path with / -> bytes), read as the server reads one. */
export async function readDistFiles(dir) {
  try {
    return await server.readFolder(dir);
  } catch (error) {
    throw new DeployError(`cannot read ${rel(dir)}: ${error.code === 'ENOENT' ? 'no such folder (build it first, or pass --from)' : error.message}`);
  }
}

/** Where an app lives on this machine: shell/ or mfe-<name>/. */
export const appDir = server.remoteDir;
const quiet = { info() {}, warn() {}, error() {}, debug() {}, child() { return quiet; } };

/** Where the deployer writes each outcome while a command runs: the site's deploy log (`logged` opens it). */
let recordOutcome = async () => undefined;

/**
 * The server's one deployer (api/dist/release-deployer.js), on this machine's SITE_ROOT, or on the shared store with
 * DATABASE_URL on PostgreSQL. It writes the deploy log through `logged` and tells nothing: this tool prints.
 */
export async function openDeployer(siteRoot, store, stage = false) {
  const { createReleaseDeployer, createPreviewTokens, PREVIEW_PARAM } = server;
  // A staged release's preview link, signed as the server signs it (the same PREVIEW_SECRET), to its public origin.
  const origin = process.env.PUBLIC_ORIGIN ? new URL(process.env.PUBLIC_ORIGIN).origin : undefined;
  const previews = stage && origin && process.env.PREVIEW_SECRET ? createPreviewTokens({ secret: process.env.PREVIEW_SECRET, clock: () => new Date() }) : undefined;
  const previewLink = async (app, version) => {
    const manifest = (await servedManifests(siteRoot, store)).find((m) => m.name === app);
    const page = manifest?.routes?.find((route) => !route.includes(':') && !route.includes('*')) ?? '/';
    return `${origin}${page}?${PREVIEW_PARAM}=${previews.issue(app, version).token}`;
  };
  let trustedKeys;
  try {
    trustedKeys = server.parseTrustedKeys(process.env.RELEASE_TRUSTED_KEYS);
  } catch (error) {
    throw new DeployError(error.message);
  }
  return createReleaseDeployer({
    siteRoot,
    ...(store ? { shared: store.db } : {}),
    trustedKeys,
    sharedModules: async () => undefined,
    // A shell release must not strand a served remote.
    servedManifests: async () => (await servedManifests(siteRoot, store)).map((manifest) => ({ ...manifest, version: String(manifest.version) })),
    record: (entry) => recordOutcome(entry),
    alert: () => undefined,
    listedBy: (app) => `node scripts/deploy-remote.mjs list ${app}`,
    ...(previews ? { previewLink } : {}),
    logger: quiet,
    clock: () => new Date(),
  });
}

/** A deployer's refusal as this tool's (exit 1, the message in full). */
export const asDeployError = (error) => {
  if (!(error && typeof error === 'object' && 'kind' in error)) return error;
  const hint = / would not run: /.test(error.message) ? ' (the server would keep serving the last known good release; --skip-load-check switches to it anyway)' : '';
  return new DeployError(`${error.message.replace(/\.$/, '')}${hint}. Nothing was changed.`);
};

/**
 * Runs a deploy or rollback on this machine with the site's deploy log open (PostgreSQL with DATABASE_URL, else
 * DATA_DIR's SQLite file when the site has one): the deployer writes each outcome to it as over HTTP (what it kept,
 * a downgrade, a canary), and what this tool refused before reaching the deployer is written here. A log that cannot
 * be written is said, not fatal.
 */
export async function logged(command, app, cwd, work, action = command) {
  const by = `npm run ${command} (${userInfo().username}@${hostname()})`;
  const unwritten = (error) => console.warn(`  (the deploy log could not be written: ${error.message})`);
  let log;
  try {
    // As the server reads it: DATA_DIR, else ./data where the command runs (npm start's, from the repo).
    const dataDir = path.resolve(cwd, process.env.DATA_DIR || 'data');
    log = await server.openDeployLog({ databaseUrl: isPostgres(process.env.DATABASE_URL) ? process.env.DATABASE_URL : undefined, dataDir });
  } catch (error) {
    unwritten(error);
  }
  let written = false;
  recordOutcome = async (entry) => {
    written = true;
    await log?.record({ ...entry, by }).catch(unwritten);
  };
  try {
    await work();
    return 0;
  } catch (error) {
    if (!written) await recordOutcome({ app, action, version: null, previous: null, result: error instanceof DeployError ? 'refused' : 'failed', from: null, message: error.message });
    throw error;
  } finally {
    recordOutcome = async () => undefined;
    await log?.close().catch(unwritten);
  }
}
