#!/usr/bin/env node
// Deploys one app (a remote or the shell) as a versioned release, or rolls it back:
//   npm run deploy -- blog [--from mfe-blog/dist] [--version X]      on this machine's SITE_ROOT (default: this repo),
//   npm run rollback -- blog [--to X]                                 or, with DATABASE_URL on PostgreSQL, the shared
//   node scripts/deploy-remote.mjs list blog                          release store of every instance
//   npm run deploy -- blog --to <site URL> --token <token>            over HTTP, from any clone (a team's CI)
//
// On this machine it runs the server's own deployer (api/src/site/releases/release-deployer.ts, imported built as
// api/dist/release-deployer.js), the one implementation of deploy and rollback that POST /api/releases/{app} and the
// first start's import of the builds use too: the same checks (the release format, the routes and limits of
// APP_ROUTES_<APP> and RELEASE_MAX_*, fit with the serving shell, the signature with RELEASE_TRUSTED_KEYS, the server
// module loading), the same layout and lock, with its two backends:
//   SITE_ROOT (one instance; lock file mfe-<name>/.deploy.lock):
//     mfe-<name>/releases/<version>/   a full dist; never changed after it is renamed into place
//     mfe-<name>/current               one line, the served version; replaced by write-temp-then-rename
//     mfe-<name>/history.json          { stack: versions deployed, oldest first (rollback pops), keptDist, builds }
//   PostgreSQL (every instance; an advisory lock per app): the release store (releases-repository.ts), each instance
//     copying the pointer's release into its own SITE_ROOT when told (release-sync.ts).
// A release is checked in a hidden folder before anything is switched, and history is written before the pointer.
// What happened goes to the site's deploy log (the admin's Deploys screen), the one log, as for a deploy over HTTP.
// The first deploy of an app whose built dist was served (no release yet) keeps that dist as releases/<version>+dist/,
// below the new release, so the first rollback returns to exactly what was served.
// This script reads the command line, builds or reads the dist, signs it (--key) and prints what happened.
import { spawnSync } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { runOnNode24 } from './node24.mjs';

// Runs on Node 24, like the server whose deployer it uses: an older Node fetches it once and runs this script under it.
await runOnNode24(import.meta.url);

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The pnpm the repo pins (package.json's packageManager). */
const PNPM_VERSION = '10.34.9';

/** Newest modification time of the files under `dir` (recursively) whose name ends with one of `endings`. */
async function newestUnder(dir, endings) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const times = await Promise.all(
    entries
      .filter((entry) => entry.isFile() && endings.some((ending) => entry.name.endsWith(ending)) && !(entry.parentPath ?? entry.path).includes('__tests__'))
      .map((entry) => stat(path.join(entry.parentPath ?? entry.path, entry.name)).then((s) => s.mtimeMs, () => 0)),
  );
  return Math.max(0, ...times);
}

/**
 * The server's own release code, built as api/dist/release-deployer.js: its deployer, and the release format, store,
 * signatures and release policy it re-exports. This tool copies none of it. Built here first when it is missing or
 * older than the API's sources, so a fresh checkout can deploy.
 */
async function loadServerBundle() {
  const built = path.join(REPO_ROOT, 'api', 'dist', 'release-deployer.js');
  const builtAt = await stat(built).then((s) => s.mtimeMs, () => 0);
  const newest = Math.max(
    await newestUnder(path.join(REPO_ROOT, 'api', 'src'), ['.ts']),
    await newestUnder(path.join(REPO_ROOT, 'packages', 'contracts', 'src'), ['.ts']),
    await stat(path.join(REPO_ROOT, 'api', 'build.mjs')).then((s) => s.mtimeMs, () => 0),
    await stat(path.join(REPO_ROOT, 'api', 'build-site-deploy.mjs')).then((s) => s.mtimeMs, () => 0),
  );
  // The deploy tool (site-deploy.mjs) is built with it: the commands over HTTP are its.
  const toolBuilt = await stat(path.join(REPO_ROOT, 'api', 'dist', 'site-deploy.mjs')).then(() => true, () => false);
  if (builtAt === 0 || newest > builtAt || !toolBuilt) {
    const result = spawnSync(process.execPath, ['build.mjs'], { cwd: path.join(REPO_ROOT, 'api'), encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`could not build api/dist/release-deployer.js:\n${result.stderr || result.stdout}`);
  }
  return import(pathToFileURL(built).href);
}
const server = await loadServerBundle();
const { REMOTE_NAMES: REMOTES } = server;

// What a release may declare on this site (APP_ROUTES_<APP>, RELEASE_MAX_*), read from this environment by the server's
// own code: a release this tool accepts is one the server started with the same environment loads.
try {
  server.useReleasePolicy(server.loadReleasePolicy(process.env));
} catch (error) {
  console.error(`✖ ${error.message}`);
  process.exit(1);
}

class DeployError extends Error {}

const USAGE = `Usage:
  npm run deploy -- <remote> --to <site URL> --token <deploy token> [--key <private key file>] [--from <dist folder>] [--version <name>] [--stage] [--allow-downgrade]
  npm run promote -- <remote> --version <staged version> --to <site URL> --token <deploy token> [--percent <1-100>] [--promote-after <time>] [--allow-downgrade]
  npm run rollback -- <remote> --to <site URL> --token <deploy token> [--version <name>]
  node scripts/deploy-remote.mjs list <remote> --to <site URL> --token <deploy token>
      over HTTP, from any clone (a team's CI): the site checks and switches it (DEPLOY_TOKEN may hold the token)
      with the options of the one-file tool the site serves at /site-deploy.mjs (node site-deploy.mjs --help): deploy's
      --dry-run, --notes, --commit and --ci-url, promote's --wait [--timeout <s>], and status <remote> [--json]
  npm run deploy -- <remote> [--from <dist folder>] [--version <name>] [--key <private key file>] [--skip-load-check] [--stage]
               [--notes <text>] [--commit <sha>] [--ci-url <url>]
  npm run promote -- <remote> --version <staged version>
  npm run rollback -- <remote> [--to <version>] [--skip-load-check]
  node scripts/deploy-remote.mjs list <remote>
  npm run deploy -- shell --from <shell dist>     npm run rollback -- shell
  npm run deploy -- --all --key <operator key file>
      signs and deploys, here, every built app that RELEASE_TRUSTED_KEYS leaves without a signed release (all built
      apps when it is not set): run it before turning signing on (docs/deploying-a-remote.md, "Signed releases")
<remote>: ${REMOTES.join(', ')}. SITE_ROOT (default: the repo) is where the server reads mfe-<remote>/.
Without --from, the remote is built in this clone first, and that build is deployed.
--key (or RELEASE_SIGNING_KEY, the PEM itself): the team's Ed25519 key (npm run release-key); the release is signed
with it. With RELEASE_TRUSTED_KEYS set (as the servers have it), a release it does not verify is refused here first.
APP_ROUTES_<APP> and RELEASE_MAX_ROUTES/_PAGES/_MANIFEST_KB (as the servers have them; docs/configuration.md) say
which routes each app owns and how much one release may carry: a release declaring a route outside its app's, or over
a limit, is refused here as the server refuses it (deploy, rollback and promote alike).
--stage: stored and checked the same, served to no one; the last line is its preview link (on this machine with the
site's PUBLIC_ORIGIN and PREVIEW_SECRET), which shows it to that browser only. npm run promote serves it to everyone;
with --percent 1-99, to that share of visitors as a canary (rolled back by itself if its error rate passes the threshold;
--promote-after <ISO time> serves it to everyone then; npm run rollback ends it). A canary is started on the running
site (--to), or here with DATABASE_URL on PostgreSQL.
--allow-downgrade: serve a version below the served one (semver; refused without it, recorded in the deploy log when
used). A rollback to a stored release needs no flag.`;

const rel = (file) => {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative || '.';
};
const size = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);

async function readPointer(remoteDir) {
  try {
    const version = (await readFile(path.join(remoteDir, server.POINTER_FILE), 'utf8')).trim();
    return version || null;
  } catch {
    return null;
  }
}

/** The deploy's signing key (--key file, else RELEASE_SIGNING_KEY), read and checked up front. */
async function readSigning(keyFile, name) {
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
const isPostgres = (url) => /^postgres(?:ql)?:\/\//i.test(url ?? '');

async function openStore(databaseUrl) {
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
async function readDistFiles(dir) {
  try {
    return await server.readFolder(dir);
  } catch (error) {
    throw new DeployError(`cannot read ${rel(dir)}: ${error.code === 'ENOENT' ? 'no such folder (build it first, or pass --from)' : error.message}`);
  }
}

/** Where an app lives on this machine: shell/ or mfe-<name>/. */
const appDir = server.remoteDir;
const quiet = { info() {}, warn() {}, error() {}, debug() {}, child() { return quiet; } };

/** Where the deployer writes each outcome while a command runs: the site's deploy log (`logged` opens it). */
let recordOutcome = async () => undefined;

/**
 * The server's one deployer (api/dist/release-deployer.js), on this machine's SITE_ROOT, or on the shared store with
 * DATABASE_URL on PostgreSQL. It writes the deploy log through `logged` and tells nothing: this tool prints.
 */
async function openDeployer(siteRoot, store, stage = false) {
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

/** What a canary's start says: who gets what, and how to end it either way. */
const canaryLine = (name, change, where, options = '') =>
  `${name} ${change.version} serves ${change.percent}% of visitors on ${where} as a canary (sticky per visitor); the others keep ${change.previous}.` +
  ` It is rolled back by itself if its error rate passes the threshold${change.promoteAfter ? `, and served to everyone at ${change.promoteAfter}` : ''}.` +
  ` Serve it to everyone: npm run promote -- ${name} --version ${change.version}${options}; end it: npm run rollback -- ${name}${options}`;

/** --percent as a number (1 to 100), or undefined. */
function percentOf(value) {
  if (value === undefined) return undefined;
  const percent = Number(value);
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) throw new DeployError(`--percent is a whole number from 1 to 100 (the share of visitors; 100: everyone), not ${JSON.stringify(value)}`);
  return percent;
}

/** A deployer's refusal as this tool's (exit 1, the message in full). */
const asDeployError = (error) => {
  if (!(error && typeof error === 'object' && 'kind' in error)) return error;
  const hint = / would not run: /.test(error.message) ? ' (the server would keep serving the last known good release; --skip-load-check switches to it anyway)' : '';
  return new DeployError(`${error.message.replace(/\.$/, '')}${hint}. Nothing was changed.`);
};

async function promote({ name, siteRoot, version, percent, promoteAfter, skipLoadCheck, store, allowDowngrade }) {
  if (!version) throw new DeployError(`name the staged release: npm run promote -- ${name} --version <version> (node scripts/deploy-remote.mjs list ${name} marks staged ones)`);
  const deployer = await openDeployer(siteRoot, store);
  const change = await deployer.promote(name, { by: 'npm run promote', from: null }, { version, skipLoadCheck, allowDowngrade, ...(percent !== undefined ? { percent } : {}), ...(promoteAfter ? { promoteAfter } : {}) }).catch((error) => {
    throw asDeployError(error);
  });
  if (change.percent !== undefined) {
    console.log(canaryLine(name, change, 'every instance'));
    return change;
  }
  console.log(`${name}: promoted ${change.version}; verified ${change.checked.join(', ')}`);
  console.log(`  ${store ? 'shared pointer' : 'current'}: ${change.previous ?? '(none)'} -> ${change.version}`);
  console.log(`${name} ${change.version} ${store ? 'is live on every instance within seconds' : 'is live within a second (the server looks at the folder every second)'}, no restart.${change.previous ? ` Undo with: npm run rollback -- ${name}` : ''}`);
  return change;
}

async function deploy({ name, siteRoot, from, version, skipLoadCheck, store, signing, stage, allowDowngrade, provenance }) {
  const deployer = await openDeployer(siteRoot, store, stage);
  const files = await readDistFiles(from);
  files.delete(server.SIGNATURE_FILE);
  const built = server.manifestVersion(name, files) ?? null;
  if (signing?.key) {
    // Signed under the name it is deployed as: --version, else the name the deployer would give it.
    if (!version) {
      const taken = new Set((await deployer.list(name)).releases.map((release) => release.version));
      version = await server.freeReleaseName(name, files, async (v) => taken.has(v));
    }
    files.set(server.SIGNATURE_FILE, server.signFiles(files, name, version, signing.key));
  }
  const bytes = [...files.values()].reduce((sum, file) => sum + file.length, 0);
  const where = store ? 'the shared release store (every instance)' : rel(appDir(siteRoot, name));
  console.log(`${name}: deploying ${rel(from)} (${built ?? 'no version'}${version && version !== built ? ` as ${version}` : ''}, ${files.size} files, ${size(bytes)}) to ${where}`);
  const dist = rel(path.join(appDir(siteRoot, name), 'dist'));
  let kept = null;
  const keptDist = (notice) => {
    if ('notKept' in notice) return console.warn(`  ${notice.notKept}`);
    kept = notice.kept.version;
    const as = store ? kept : rel(path.join(appDir(siteRoot, name), 'releases', kept));
    console.log(`  kept ${dist}, served until now, as ${as} (${notice.kept.files} files, ${size(notice.kept.bytes)}): the rollback target`);
  };
  const change = await deployer.deploy(name, files, { by: 'npm run deploy', from: null }, { version, skipLoadCheck, keptDist, stage, allowDowngrade, provenance }).catch((error) => {
    throw asDeployError(error);
  });
  console.log(`  verified ${change.checked.join(', ')}`);
  if (stage) {
    console.log(`${name} ${change.version} is stored staged: served to no one (${change.previous ?? 'nothing'} stays served). Serve it with: npm run promote -- ${name} --version ${change.version}`);
    // The last line: what a person opens.
    console.log(change.previewUrl ?? `Preview link: the site's Deploys screen lists it (with the site's PUBLIC_ORIGIN and PREVIEW_SECRET set here, it is printed here)`);
    return change;
  }
  const before = change.previous === null ? '(none)' : kept && change.previous === kept ? `(none: ${path.basename(appDir(siteRoot, name))}/dist was served, kept as ${kept})` : change.previous;
  console.log(`  ${store ? 'shared pointer' : 'current'}: ${before} -> ${change.version}`);
  const undo = change.previous ? `Undo with: npm run rollback -- ${name}` : 'Nothing was served before it, so there is nothing to roll back to.';
  const live = store ? 'is live on every instance within seconds, no restart (/api/health lists what each serves)' : 'is live within a second, no restart (/api/health lists it)';
  console.log(`${name} ${change.version} ${live}. ${undo}`);
  return change;
}

async function rollback({ name, siteRoot, to, skipLoadCheck, store }) {
  const deployer = await openDeployer(siteRoot, store);
  const change = await deployer.rollback(name, { by: 'npm run rollback', from: null }, { version: to, skipLoadCheck }).catch((error) => {
    throw asDeployError(error);
  });
  console.log(`${name}: rolled back to ${change.version}; verified ${change.checked.join(', ')}`);
  const again = change.previous ? ` (${change.previous} stays ${store ? 'stored' : 'on disk'}: npm run rollback -- ${name} --to ${change.previous} serves it again)` : '';
  console.log(`  ${store ? 'shared pointer' : 'current'}: ${change.previous ?? '(none)'} -> ${change.version}${again}`);
  console.log(`${name} ${change.version} is live again${store ? ' on every instance within seconds' : ' within a second'}, no restart.`);
  return change;
}

async function list({ name, siteRoot, store }) {
  const deployer = await openDeployer(siteRoot, store);
  const [releases, history] = await Promise.all([deployer.list(name), deployer.history(name)]);
  const below = history ? history.stack[history.stack.lastIndexOf(history.version) - 1] : undefined;
  const kept = history?.keptDist;
  const dist = `${path.basename(appDir(siteRoot, name))}/dist`;
  const { served } = releases;
  const since = (at) => at.slice(0, 16).replace('T', ' ');
  const head = served ? `${store ? 'shared pointer' : 'current'} ${served.version} since ${since(served.since)} UTC` : `no release yet: ${store ? `each instance serves its own ${dist}` : `${dist} is served`}`;
  console.log(`${name}: ${head} (${store ? 'PostgreSQL' : rel(appDir(siteRoot, name))})`);
  for (const release of releases.releases) {
    const notes = [
      release.current && 'current',
      release.version === below && `rollback target (npm run rollback -- ${name})`,
      release.version === kept && `${dist} as served before the first release`,
      release.staged && `staged: served to no one (npm run promote -- ${name} --version ${release.version})`,
    ].filter(Boolean);
    console.log(`${release.current ? '*' : ' '} ${release.version.padEnd(24)} ${since(release.createdAt)}  ${release.files} files  ${notes.join(', ')}`);
  }
  if (releases.releases.length === 0) console.log('  no releases yet');
}

/**
 * Without --from, `npm run deploy -- <remote>` builds the remote in this clone first and deploys what it built: one
 * command from an edit to the site (a build alone never changes what is served). Returns the built dist.
 */
function buildHere(name) {
  const pnpm = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  const [cmd, ...pre] = pnpm.status === 0 && pnpm.stdout.trim() === PNPM_VERSION ? ['pnpm'] : ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
  console.log(`${name}: building mfe-${name} (pass --from <dist> to deploy a build made elsewhere)`);
  const result = spawnSync(cmd, [...pre, '--filter', `mfe-${name}`, 'run', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new DeployError(`the build of mfe-${name} failed (exit ${result.status}): nothing was deployed`);
  return path.join(REPO_ROOT, `mfe-${name}`, 'dist');
}

/*
 * Over HTTP (issues 33 and 52): the commands of the one-file deploy tool the site serves at /site-deploy.mjs
 * (api/src/site/releases/deploy-over-http.ts, built as api/dist/site-deploy.mjs beside the deployer), run with this clone's
 * build and, before anything is sent, the server's own format and policy check with this environment (APP_ROUTES_*,
 * RELEASE_MAX_*). Nothing but the site's URL, the token and the key is needed.
 */
async function overHttp(command, name, values) {
  const tool = await import(pathToFileURL(path.join(REPO_ROOT, 'api', 'dist', 'site-deploy.mjs')).href);
  const from = command === 'deploy' ? (values.from ? path.resolve(values.cwd, values.from) : buildHere(name)) : undefined;
  const check = async (dir, app) => {
    const result = app === 'shell' ? await server.checkShellRelease(dir) : await server.checkRelease(dir, app);
    return result.ok ? { ok: true, version: app === 'shell' ? result.version : result.manifest.version } : result;
  };
  const hint = (next, app, args) => (next === 'list' || next === 'status' ? `node scripts/deploy-remote.mjs ${next} ${app} ${args}` : `npm run ${next} -- ${app} ${args}`);
  try {
    return await tool.runOverHttp(
      command,
      name,
      {
        to: values.to,
        token: values.token,
        from,
        key: values.key ? path.resolve(values.cwd, values.key) : undefined,
        version: values.version,
        stage: values.stage,
        dryRun: values['dry-run'],
        allowDowngrade: values['allow-downgrade'],
        notes: values.notes,
        commit: values.commit,
        ciUrl: values['ci-url'],
        percent: values.percent,
        promoteAfter: values['promote-after'],
        wait: values.wait,
        timeout: values.timeout,
        json: values.json,
      },
      { env: process.env, cwd: values.cwd, out: (line) => console.log(line), hint, check },
    );
  } catch (error) {
    throw error instanceof tool.DeployToolError ? new DeployError(error.message) : error;
  }
}

/** --notes, --commit and --ci-url checked as the site checks an upload's (the contract's schema); undefined when none. */
function provenanceOf(values) {
  const given = { notes: values.notes, commit: values.commit, ciUrl: values['ci-url'] };
  if (!Object.values(given).some((value) => value !== undefined)) return undefined;
  const parsed = server.releaseProvenanceSchema.safeParse(given);
  if (!parsed.success) throw new DeployError(parsed.error.issues.map((issue) => issue.message).join(' '));
  return parsed.data;
}

/**
 * Runs a deploy or rollback on this machine with the site's deploy log open (PostgreSQL with DATABASE_URL, else
 * DATA_DIR's SQLite file when the site has one): the deployer writes each outcome to it as over HTTP (what it kept,
 * a downgrade, a canary), and what this tool refused before reaching the deployer is written here. A log that cannot
 * be written is said, not fatal.
 */
async function logged(command, app, cwd, work, action = command) {
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

/**
 * `npm run deploy -- --all --key <file>` (issue 51): signs and deploys, on this machine, each app's build (shell first)
 * that the trusted keys leave without a signed release (every built app when RELEASE_TRUSTED_KEYS is not set here):
 * what to run before turning signing on, or when the server refused to start naming these apps.
 */
async function deployAll(command, values, positionals) {
  if (command !== 'deploy' || positionals.length > 0 || /^https?:\/\//i.test(values.to ?? '')) {
    console.error(`--all deploys every built app on this machine: npm run deploy -- --all --key <operator key file>\n\n${USAGE}`);
    return 2;
  }
  const cwd = process.env.INIT_CWD || process.cwd();
  const siteRoot = path.resolve(cwd, process.env.SITE_ROOT || REPO_ROOT);
  try {
    if (!values.key && !process.env.RELEASE_SIGNING_KEY) throw new DeployError('--all signs what it deploys: --key <operator key file> (npm run release-key -- --app "*" --out <dir> makes one)');
    const { appsWithoutTrustedSignature } = server;
    const trusted = server.parseTrustedKeys(process.env.RELEASE_TRUSTED_KEYS);
    const apps = [];
    if (trusted.length > 0) apps.push(...(await appsWithoutTrustedSignature(siteRoot, trusted)).map((u) => u.app));
    else {
      for (const app of ['shell', ...REMOTES]) {
        const dist = path.join(appDir(siteRoot, app), 'dist');
        if ((app === 'shell' ? await server.checkShellRelease(dist) : await server.checkRelease(dist, app)).ok) apps.push(app);
      }
    }
    if (apps.length === 0) {
      console.log(trusted.length > 0 ? 'Every app with a release is signed by a key RELEASE_TRUSTED_KEYS trusts for it: nothing to deploy.' : 'No app is built here: nothing to deploy.');
      return 0;
    }
    console.log(`Signing and deploying ${apps.join(', ')} with ${values.key ? rel(path.resolve(cwd, values.key)) : 'RELEASE_SIGNING_KEY'}`);
    let failed = 0;
    for (const app of apps) {
      try {
        const signing = await readSigning(values.key ? path.resolve(cwd, values.key) : undefined, app);
        const from = path.join(appDir(siteRoot, app), 'dist');
        await logged('deploy', app, cwd, () => deploy({ name: app, siteRoot, from, skipLoadCheck: values['skip-load-check'], signing, allowDowngrade: values['allow-downgrade'] }));
      } catch (error) {
        if (!(error instanceof DeployError)) throw error;
        failed++;
        console.error(`✖ ${app}: ${error.message}`);
      }
    }
    return failed > 0 ? 1 : 0;
  } catch (error) {
    if (!(error instanceof DeployError)) throw error;
    console.error(`✖ ${error.message}`);
    return 1;
  }
}

async function main(argv) {
  const [command, ...rest] = argv;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        from: { type: 'string' },
        version: { type: 'string' },
        to: { type: 'string' },
        key: { type: 'string' },
        token: { type: 'string' },
        'skip-load-check': { type: 'boolean' },
        stage: { type: 'boolean' },
        percent: { type: 'string' },
        'promote-after': { type: 'string' },
        'allow-downgrade': { type: 'boolean' },
        all: { type: 'boolean' },
        // Here too: where the release came from, in the site's deploy log.
        notes: { type: 'string' },
        commit: { type: 'string' },
        'ci-url': { type: 'string' },
        // Over HTTP only (--to <site URL>): what the one-file tool takes (api/src/site/releases/site-deploy-cli.ts).
        'dry-run': { type: 'boolean' },
        wait: { type: 'boolean' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    console.error(`${error.message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const name = positionals[0];
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.all) return deployAll(command, values, positionals);
  const isShell = name === 'shell';
  const overHttpOnly = command === 'status' && /^https?:\/\//i.test(values.to ?? '');
  if (!(['deploy', 'rollback', 'promote', 'list'].includes(command) || overHttpOnly) || !(REMOTES.includes(name) || isShell) || positionals.length > 1) {
    console.error(`${name && !REMOTES.includes(name) ? `Unknown remote ${JSON.stringify(name)}.\n` : ''}${USAGE}`);
    return 2;
  }
  // npm runs scripts from the repo root; paths on the command line are relative to where it was typed.
  const cwd = process.env.INIT_CWD || process.cwd();
  // --to <site URL>: over HTTP, with a deploy token (rollback's --to <version> is --version there).
  if (/^https?:\/\//i.test(values.to ?? '')) {
    try {
      return await overHttp(command, name, { ...values, cwd });
    } catch (error) {
      if (!(error instanceof DeployError)) throw error;
      console.error(`✖ ${error.message}`);
      return 1;
    }
  }
  const siteRoot = path.resolve(cwd, process.env.SITE_ROOT || REPO_ROOT);
  // DATABASE_URL on PostgreSQL (as the server is given): the release goes to every instance through the database.
  const store = isPostgres(process.env.DATABASE_URL) ? await openStore(process.env.DATABASE_URL) : undefined;
  try {
    const signing = command === 'deploy' ? await readSigning(values.key ? path.resolve(cwd, values.key) : undefined, name) : undefined;
    const options = { name, siteRoot, skipLoadCheck: values['skip-load-check'], store, signing, allowDowngrade: values['allow-downgrade'] };
    if (command === 'list') {
      await list(options);
      return 0;
    }
    // Written to the site's deploy log as it happens, like a deploy over HTTP (the admin dashboard shows it).
    return await logged(
      command,
      name,
      cwd,
      async () => {
        if (command === 'deploy') {
          // Without --from: the shell's dist as built in this clone; a remote is built here first.
          const from = values.from ? path.resolve(cwd, values.from) : isShell ? path.join(REPO_ROOT, 'shell', 'dist') : buildHere(name);
          return deploy({ ...options, from, version: values.version, stage: values.stage, provenance: provenanceOf(values) });
        }
        if (command === 'promote') return promote({ ...options, version: values.version, percent: percentOf(values.percent), promoteAfter: values['promote-after'] });
        return rollback({ ...options, to: values.to });
      },
      command === 'deploy' && values.stage ? 'stage' : command === 'promote' && values.percent !== undefined && Number(values.percent) < 100 ? 'canary' : command,
    );
  } catch (error) {
    if (!(error instanceof DeployError)) throw error;
    console.error(`✖ ${error.message}`);
    return 1;
  } finally {
    await store?.close();
  }
}

// Exit explicitly: an imported server module may leave timers or handles behind.
process.exit(await main(process.argv.slice(2)));