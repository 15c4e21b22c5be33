#!/usr/bin/env node
// Deploys one remote as a versioned release, or rolls it back, on SITE_ROOT (default: this repo):
//   npm run deploy -- blog [--from mfe-blog/dist] [--version X]
//   npm run rollback -- blog [--to X]
//   node scripts/deploy-remote.mjs list blog
//
// Layout (api/src/site/release-format.ts owns it, and this script imports it built, as api/dist/release-format.js;
// api/src/site/releases/remote-registry.ts serves it):
//   mfe-<name>/releases/<version>/   a full dist; never changed after it is renamed into place
//   mfe-<name>/current               one line, the served version; replaced by write-temp-then-rename
//   mfe-<name>/history.json          { stack: versions deployed, oldest first (rollback pops), log: what happened }
// A deploy copies the dist into releases/.incoming-*, verifies the copy, renames it to releases/<version>/ and
// only then swaps `current`: a half-copied release is never named by the pointer, so it is never served. Old
// releases stay on disk, so tabs still open on them get their hashed chunks. history.json is written before
// `current`, so whatever names the new release as served also finds the one below it.
// The first deploy (no `current` yet) also keeps the served mfe-<name>/dist as releases/<its version>+dist/, below
// the new release in the stack: the server serves that dist in place, so without a copy a rollback would have
// nothing to return to, and the dist itself may be rebuilt at any time.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, userInfo } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The pnpm the repo pins (package.json's packageManager). */
const PNPM_VERSION = '10.34.9';
const LOG_ENTRIES_KEPT = 100;

/**
 * The release format, as the server uses it (api/src/site/release-format.ts, built to api/dist/release-format.js).
 * Built here first when it is missing or older than its sources, so a fresh checkout can deploy.
 */
async function loadReleaseFormat() {
  const built = path.join(REPO_ROOT, 'api', 'dist', 'release-format.js');
  const sources = [
    'api/src/site/releases/release-format.ts',
    'api/src/site/releases/release-signature.ts',
    'api/src/site/releases/release-tarball.ts',
    'api/src/site/releases/release-deployer.ts',
    'api/src/site/releases/release-store.ts',
    'api/src/db/database.ts',
    'api/src/db/migrations/all-migrations.ts',
    'packages/contracts/src/manifest.ts',
    'packages/contracts/src/release-compat.ts',
  ];
  // The release store (api/dist/release-store.js, for PostgreSQL) is built with it.
  const builtAt = Math.min(...(await Promise.all([built, path.join(REPO_ROOT, 'api', 'dist', 'release-store.js'), path.join(REPO_ROOT, 'api', 'dist', 'release-deployer.js')].map((file) => stat(file).then((s) => s.mtimeMs, () => 0)))));
  const newest = Math.max(...(await Promise.all(sources.map((file) => stat(path.join(REPO_ROOT, file)).then((s) => s.mtimeMs, () => 0)))));
  if (builtAt === 0 || newest > builtAt) {
    const result = spawnSync(process.execPath, ['build.mjs'], { cwd: path.join(REPO_ROOT, 'api'), encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`could not build api/dist/release-format.js and release-store.js:\n${result.stderr || result.stdout}`);
  }
  return import(pathToFileURL(built).href);
}
const format = await loadReleaseFormat();
const { REMOTE_NAMES: REMOTES, RELEASE_NAME, KEPT_DIST_ACTION: KEPT_DIST } = format;

class DeployError extends Error {}

const USAGE = `Usage:
  npm run deploy -- <remote> --to <site URL> --token <deploy token> [--key <private key file>] [--from <dist folder>] [--version <name>]
  npm run rollback -- <remote> --to <site URL> --token <deploy token> [--version <name>]
  node scripts/deploy-remote.mjs list <remote> --to <site URL> --token <deploy token>
      over HTTP, from any clone (a team's CI): the site checks and switches it (DEPLOY_TOKEN may hold the token)
  npm run deploy -- <remote> [--from <dist folder>] [--version <name>] [--key <private key file>] [--skip-load-check]
  npm run rollback -- <remote> [--to <version>] [--skip-load-check]
  node scripts/deploy-remote.mjs list <remote>
  npm run deploy -- shell --from <shell dist>     npm run rollback -- shell
<remote>: ${REMOTES.join(', ')}. SITE_ROOT (default: the repo) is where the server reads mfe-<remote>/.
Without --from, the remote is built in this clone first, and that build is deployed.
--key (or RELEASE_SIGNING_KEY, the PEM itself): the team's Ed25519 key (npm run release-key); the release is signed
with it. With RELEASE_TRUSTED_KEYS set (as the servers have it), a release it does not verify is refused here first.`;

const exists = (file) => stat(file).then(
  () => true,
  () => false,
);
const rel = (file) => {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative || '.';
};
const size = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);

/** Every file below `dir` (relative path -> size). */
async function listFiles(dir) {
  const files = new Map();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    files.set(path.relative(dir, file), (await stat(file)).size);
  }
  return files;
}

/**
 * What the server needs of a dist (release-format's checkRelease: this remote's valid manifest, remoteEntry.js, every
 * server module it names), and that it can run in the shell serving from `siteRoot` (its shared singletons and server
 * contract). Returns the manifest and what was checked; throws with every problem.
 */
async function checkDist(dir, name, siteRoot) {
  const check = await format.checkRelease(dir, name);
  if (!check.ok) {
    const [first] = check.problems;
    if (first === 'mfe-manifest.json is missing' || first === 'mfe-manifest.json is not valid JSON') {
      throw new DeployError(`${rel(dir)} is not a built dist of ${name}: ${first}`);
    }
    throw new DeployError(`${rel(dir)} cannot be deployed:\n  - ${check.problems.join('\n  - ')}`);
  }
  const incompatible = format.incompatibility(check.manifest, await format.readShellBuiltWith(siteRoot));
  if (incompatible) throw new DeployError(`${rel(dir)} (${name} ${check.manifest.version}) cannot be deployed: ${incompatible}. Nothing was changed.`);
  return { manifest: check.manifest, checked: check.checked, serverModules: check.serverFiles };
}

/**
 * Loads each server module of the release where it lies, with the server's own importer (its react, react-dom and
 * react-router-dom resolve from the node_modules above SITE_ROOT/mfe-<name>/; the server hands it the shell's own). The server would refuse a release
 * whose module does not load and keep the last known good; refusing here says so before anything is switched.
 */
async function checkServerModulesLoad(dir, manifest) {
  const result = await format.importRelease(dir, manifest);
  if (!result.ok) {
    throw new DeployError(
      `the server module ${result.reason}\n` + '  (the server would keep serving the last known good release; --skip-load-check deploys it anyway)',
    );
  }
}

async function readPointer(remoteDir) {
  try {
    const version = (await readFile(path.join(remoteDir, 'current'), 'utf8')).trim();
    return version || null;
  } catch {
    return null;
  }
}

const readHistory = (remoteDir) => format.readHistory(remoteDir);

/** Replaces `file` in one step: readers see the old content or the new one, never a partial write. */
const writeAtomically = (file, content) => format.writeAtomically(file, content);

async function writeHistory(remoteDir, history) {
  await writeAtomically(path.join(remoteDir, 'history.json'), `${JSON.stringify({ stack: history.stack, log: history.log.slice(-LOG_ENTRIES_KEPT) }, null, 2)}\n`);
}

/** One deploy or rollback of a remote at a time. A lock left by a process that is gone is taken over. */
async function withLock(remoteDir, name, work) {
  const lock = path.join(remoteDir, '.deploy.lock');
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if (error.code !== 'EEXIST' || attempt > 0) throw error;
      const pid = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      let alive;
      try {
        alive = pid > 0 && process.kill(pid, 0);
      } catch {
        alive = false;
      }
      if (alive) throw new DeployError(`another deploy or rollback of ${name} is running (pid ${pid}); try again when it is done`);
      await rm(lock, { force: true });
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

/** Whether a release of that name exists in the folder `releases`. */
const inFolder = (releases) => (name) => exists(path.join(releases, name));

/** `base`, or the first of base+2, base+3… (base.2… when it has build metadata already) not `taken` yet. */
async function freeName(taken, base) {
  if (!(await taken(base))) return base;
  const separator = base.includes('+') ? '.' : '+';
  for (let n = 2; ; n++) {
    const candidate = `${base}${separator}${n}`;
    if (!(await taken(candidate))) return candidate;
  }
}

/** The version a deploy names its release: `explicit` (--version), else the manifest's `base`, made free. */
async function nextVersion(taken, base, explicit, label = (version) => `releases/${version}`) {
  if (explicit) {
    if (!RELEASE_NAME.test(explicit)) throw new DeployError(`--version ${JSON.stringify(explicit)}: use letters, digits, . _ + - (not first), at most 100 characters`);
    if (await taken(explicit)) throw new DeployError(`${label(explicit)} exists already: pick another --version`);
    return explicit;
  }
  if (!RELEASE_NAME.test(base)) throw new DeployError(`the manifest's version ${JSON.stringify(base)} cannot name a folder: pass --version`);
  // Same manifest version built again: a build number after it (semver build metadata).
  return freeName(taken, base);
}

/**
 * With RELEASE_TRUSTED_KEYS (the servers' value) in the environment, the release must verify as the servers will
 * check it: refused here, before anything changes, with the reason.
 */
async function checkSignature(dir, name, signing) {
  if (!signing?.trusted?.length) return;
  const check = await format.verifyRelease(dir, name, signing.trusted);
  if (!check.ok) throw new DeployError(`the release would not be served (RELEASE_TRUSTED_KEYS): ${check.reason}. Sign it with --key <the ${name} key>. Nothing was changed.`);
}

/** The deploy's signing key (--key file, else RELEASE_SIGNING_KEY) and the trusted keys, read and checked up front. */
async function readSigning(keyFile, name) {
  let key = process.env.RELEASE_SIGNING_KEY || undefined;
  if (keyFile) {
    try {
      key = await readFile(keyFile, 'utf8');
    } catch (error) {
      throw new DeployError(`cannot read the signing key ${rel(keyFile)}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    }
  }
  let trusted;
  try {
    trusted = format.parseTrustedKeys(process.env.RELEASE_TRUSTED_KEYS);
    if (key) format.signFiles(new Map(), name, 'check', key);
  } catch (error) {
    throw new DeployError(error.message);
  }
  return { key, trusted };
}

/**
 * Copies `from` into releases/<version>/ through a hidden incoming folder, checks the copy is the dist, whole,
 * and renames it into place. Returns what was copied and checked; leaves nothing behind when it throws.
 */
async function copyRelease(from, releases, version, name, siteRoot, signing) {
  const target = path.join(releases, version);
  const incoming = path.join(releases, `.incoming-${version}-${process.pid}`);
  try {
    await cp(from, incoming, { recursive: true, preserveTimestamps: true, errorOnExist: true, force: false });
    // The copy must be the dist, whole: same files, same sizes, and what the server needs is there.
    const [wanted, copied] = await Promise.all([listFiles(from), listFiles(incoming)]);
    const differing = [...wanted].filter(([file, bytes]) => copied.get(file) !== bytes).map(([file]) => file);
    if (differing.length > 0 || copied.size !== wanted.size) {
      throw new DeployError(`the copy differs from ${rel(from)} (${differing.slice(0, 5).join(', ') || 'extra files'}): was the dist changing during the deploy?`);
    }
    const { manifest, checked, serverModules } = await checkDist(incoming, name, siteRoot);
    if (signing?.key) {
      const signed = await format.signRelease(incoming, name, version, signing.key);
      checked.push(`${format.SIGNATURE_FILE} (key ${signed.key})`);
    }
    await checkSignature(incoming, name, signing);
    await rename(incoming, target);
    const bytes = [...copied.values()].reduce((a, b) => a + b, 0);
    // Served under its folder's name, as the server imports it.
    return { target, files: copied.size, bytes, checked, serverModules, manifest: { ...manifest, version } };
  } catch (error) {
    await rm(incoming, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Before the first release, the server serves mfe-<name>/dist in place. Keeps it as a release named after its
 * version (+dist), so that the first rollback returns to exactly those files. Returns the release's name, or null
 * when no dist of this remote is there (nothing was served) or it cannot be kept (said on stderr).
 */
async function keepServedDist(remoteDir, releases, name, siteRoot) {
  const dist = path.join(remoteDir, 'dist');
  let manifest;
  try {
    manifest = JSON.parse(await readFile(path.join(dist, 'mfe-manifest.json'), 'utf8'));
  } catch {
    manifest = undefined;
  }
  // The server ignores a dist without a manifest of this remote: the remote was absent, there is nothing to keep.
  if (manifest?.name !== name) return null;
  try {
    await checkDist(dist, name, siteRoot);
  } catch (error) {
    console.warn(`  ${rel(dist)} was served but is not kept as a release, so a rollback cannot return to it: ${error.message}`);
    return null;
  }
  const marked = `${manifest.version}${manifest.version.includes('+') ? '.' : '+'}dist`;
  const version = await freeName(inFolder(releases), RELEASE_NAME.test(marked) ? marked : 'dist');
  const kept = await copyRelease(dist, releases, version, name, siteRoot).catch((error) => {
    throw new DeployError(`could not keep ${rel(dist)}, served until now, as a release (the rollback target): ${error.message}`);
  });
  // Older than the new release (the server answers old hashed chunks from the newest earlier releases first): the
  // time of its build.
  const built = (await stat(path.join(dist, 'mfe-manifest.json'))).mtime;
  await utimes(kept.target, built, built);
  console.log(`  kept ${rel(dist)}, served until now, as ${rel(kept.target)} (${kept.files} files, ${size(kept.bytes)}): the rollback target`);
  return version;
}

/** Releases that hold a dist served before a first release (their names are ordinary, the log says which). */
const keptDists = (history) => new Set(history.log.filter((entry) => entry?.action === KEPT_DIST).map((entry) => entry.version));

async function deploy({ name, siteRoot, from, version: explicit, skipLoadCheck, signing }) {
  const remoteDir = path.join(siteRoot, `mfe-${name}`);
  const releases = path.join(remoteDir, 'releases');
  const source = await checkDist(from, name, siteRoot);
  await mkdir(releases, { recursive: true });

  return withLock(remoteDir, name, async () => {
    const version = await nextVersion(inFolder(releases), source.manifest.version, explicit);
    const target = path.join(releases, version);
    console.log(`${name}: deploying ${rel(from)} (${source.manifest.version}) as ${rel(target)}`);
    const copied = await copyRelease(from, releases, version, name, siteRoot, signing);
    let kept = null;
    try {
      console.log(`  copied ${copied.files} files (${size(copied.bytes)}); verified ${copied.checked.join(', ')}`);
      // The folder's time is the deploy's: the server answers old hashed chunks from the newest earlier releases.
      const now = new Date();
      await utimes(target, now, now);
      if (!skipLoadCheck && copied.serverModules.length > 0) {
        await checkServerModulesLoad(target, copied.manifest);
        console.log(`  ${copied.serverModules.join(', ')} loads`);
      }
      // The server serves the dist only while there is no pointer at all: then it is kept before the switch, and
      // after the new release's checks, so that a refused deploy leaves no copy of the dist behind.
      if (!(await exists(path.join(remoteDir, 'current')))) kept = await keepServedDist(remoteDir, releases, name, siteRoot);
    } catch (error) {
      // Never named by the pointer: remove it so the version can be deployed again once fixed.
      await rm(target, { recursive: true, force: true });
      throw error;
    }

    // History first, then the switch (one rename): a server that sees the new pointer finds the release below it,
    // and a deploy killed between the two leaves the old pointer, which the history still holds. Until the rename,
    // the server served the previous release (or the dist) untouched.
    const previous = await readPointer(remoteDir);
    const history = await readHistory(remoteDir);
    const below = previous ?? kept;
    if (below && history.stack.at(-1) !== below) history.stack.push(below);
    history.stack.push(version);
    const at = new Date().toISOString();
    if (kept) history.log.push({ at, action: KEPT_DIST, version: kept, from: path.join(remoteDir, 'dist') });
    history.log.push({ at, action: 'deploy', version, previous, from: path.resolve(from) });
    await writeHistory(remoteDir, history);
    await writeAtomically(path.join(remoteDir, 'current'), `${version}\n`);

    const before = previous ?? (kept ? `(none: mfe-${name}/dist was served, kept as ${kept})` : '(none)');
    console.log(`  current: ${before} -> ${version}`);
    const undo = history.stack.length > 1
      ? `Undo with: npm run rollback -- ${name}`
      : 'Nothing was served before it, so there is nothing to roll back to.';
    console.log(`${name} ${version} is live: the next request serves it, no restart (/api/health lists it). ${undo}`);
    return { version, previous };
  });
}

/**
 * Where a rollback of `name` goes from `current`: `to`, else the release below it in the history's stack. Returns the
 * target and the stack after the rollback; throws `nothingBefore()` (or why) when there is nowhere to go.
 */
function pickRollback(name, history, current, to, nothingBefore) {
  const at = history.stack.lastIndexOf(current);
  let target;
  let stack;
  if (to) {
    target = to;
    const index = history.stack.lastIndexOf(to);
    stack = index >= 0 ? history.stack.slice(0, index + 1) : [...history.stack, to];
  } else if (at > 0) {
    target = history.stack[at - 1];
    stack = history.stack.slice(0, at);
  } else if (at < 0 && history.stack.length > 0 && history.stack.at(-1) !== current) {
    target = history.stack.at(-1);
    stack = history.stack;
  } else if (keptDists(history).has(current)) {
    throw new DeployError(
      `${name} has no release before ${current} to roll back to: ${current} is mfe-${name}/dist as it was served before the first release, ` +
        `nothing earlier was kept. Pick another with --to (see: node scripts/deploy-remote.mjs list ${name})`,
    );
  } else {
    throw nothingBefore();
  }
  if (target === current) throw new DeployError(`${name} already serves ${current}`);
  if (!RELEASE_NAME.test(target)) throw new DeployError(`${JSON.stringify(target)} is not a release name`);
  return { target, stack };
}

async function rollback({ name, siteRoot, to, skipLoadCheck }) {
  const remoteDir = path.join(siteRoot, `mfe-${name}`);
  const noPointer = () =>
    new DeployError(`${name} has no release pointer (${rel(path.join(remoteDir, 'current'))}): it serves mfe-${name}/dist, nothing to roll back`);
  // With --to, a pointer that names nothing usable (emptied, hand-edited) is repaired too.
  if (!to && !(await readPointer(remoteDir))) throw noPointer();
  await mkdir(remoteDir, { recursive: true });
  return withLock(remoteDir, name, async () => {
    const current = await readPointer(remoteDir);
    if (!current && !to) throw noPointer();
    const history = await readHistory(remoteDir);
    const { target, stack } = pickRollback(name, history, current, to, () =>
      new DeployError(
        `${name} has no release before ${current} to roll back to. Pick one with --to (see: node scripts/deploy-remote.mjs list ${name}), ` +
          `or delete ${rel(path.join(remoteDir, 'current'))} to serve mfe-${name}/dist again`,
      ),
    );
    const targetDir = path.join(remoteDir, 'releases', target);
    const { manifest, checked, serverModules } = await checkDist(targetDir, name, siteRoot).catch((error) => {
      throw new DeployError(`cannot roll back to ${target}: ${error.message}`);
    });
    if (!skipLoadCheck && serverModules.length > 0) {
      await checkServerModulesLoad(targetDir, { ...manifest, version: target }).catch((error) => {
        throw new DeployError(`cannot roll back to ${target}: ${error.message}`);
      });
    }
    console.log(`${name}: rolling back ${current} -> ${target} (verified ${checked.join(', ')})`);
    // History first, then the pointer, as in a deploy.
    history.stack = stack;
    history.log.push({ at: new Date().toISOString(), action: 'rollback', version: target, previous: current });
    await writeHistory(remoteDir, history);
    await writeAtomically(path.join(remoteDir, 'current'), `${target}\n`);
    const kept = current && RELEASE_NAME.test(current) ? ` (releases/${current} stays on disk: npm run rollback -- ${name} --to ${current} serves it again)` : '';
    console.log(`  current: ${current ?? '(none)'} -> ${target}${kept}`);
    console.log(`${name} ${target} is live again: the next request serves it, no restart.`);
    return { version: target, previous: current };
  });
}

async function list({ name, siteRoot }) {
  const remoteDir = path.join(siteRoot, `mfe-${name}`);
  const current = await readPointer(remoteDir);
  const history = await readHistory(remoteDir);
  const releases = path.join(remoteDir, 'releases');
  const entries = await readdir(releases, { withFileTypes: true }).catch(() => []);
  const found = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !RELEASE_NAME.test(entry.name)) continue;
    found.push({ version: entry.name, at: (await stat(path.join(releases, entry.name))).mtime });
  }
  found.sort((a, b) => b.at - a.at);
  const below = current ? history.stack[history.stack.lastIndexOf(current) - 1] : undefined;
  const kept = keptDists(history);
  console.log(`${name}: ${current ? `current ${current}` : `no release pointer: mfe-${name}/dist is served`} (${rel(remoteDir)})`);
  for (const { version, at } of found) {
    const notes = [
      version === current && 'current',
      version === below && `rollback target (npm run rollback -- ${name})`,
      kept.has(version) && `mfe-${name}/dist as served before the first release`,
    ].filter(Boolean);
    console.log(`${version === current ? '*' : ' '} ${version.padEnd(24)} ${at.toISOString().slice(0, 16).replace('T', ' ')}  ${notes.join(', ')}`);
  }
  if (found.length === 0) console.log('  no releases yet');
}

/*
 * Releases shared by every instance: with DATABASE_URL on PostgreSQL, a deploy or rollback goes to the database
 * (api/src/site/release-store.ts, built to api/dist/release-store.js), never to this machine's folders. The files are
 * stored by content hash and the pointer moves in the same transaction: killed before the commit, nothing changed.
 * On commit every instance is told, copies the release into its own SITE_ROOT and serves it from its next request
 * (api/src/site/releases/release-sync.ts). The checks are the same as for a local deploy, against this machine's shell.
 */
const isPostgres = (url) => /^postgres(?:ql)?:\/\//i.test(url ?? '');

async function openStore(databaseUrl) {
  const store = await import(pathToFileURL(path.join(REPO_ROOT, 'api', 'dist', 'release-store.js')).href);
  const { db, close } = await store.openReleaseStore(databaseUrl);
  return { ...store, db, close };
}

/** Every file of a dist: relative path (with /) -> bytes. */
async function readDistFiles(dir) {
  const files = new Map();
  for (const file of (await listFiles(dir)).keys()) files.set(file.split(path.sep).join('/'), await readFile(path.join(dir, file)));
  return files;
}

/** A release's files written to releases/.sig-<version>-<pid>/ (removed by the caller) to verify its signature. */
async function writtenHere(remoteDir, version, files) {
  const dir = path.join(remoteDir, 'releases', `.sig-${version}-${process.pid}`);
  for (const [file, bytes] of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), bytes);
  }
  return dir;
}

/**
 * A release's files written to a folder below this machine's mfe-<name>/ (so its server module resolves packages as
 * the server here would), checked as a local deploy checks them, then removed.
 */
async function checkHere(remoteDir, name, siteRoot, version, files, skipLoadCheck) {
  const dir = path.join(remoteDir, 'releases', `.check-${version}-${process.pid}`);
  try {
    for (const [file, bytes] of files) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), bytes);
    }
    const checked = await checkDist(dir, name, siteRoot);
    if (!skipLoadCheck && checked.serverModules.length > 0) await checkServerModulesLoad(dir, { ...checked.manifest, version });
    return checked;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function deployShared({ name, siteRoot, from, version: explicit, skipLoadCheck, store, signing }) {
  const remoteDir = path.join(siteRoot, `mfe-${name}`);
  await mkdir(path.join(remoteDir, 'releases'), { recursive: true });
  await checkDist(from, name, siteRoot);
  const files = await readDistFiles(from);
  const source = await checkHere(remoteDir, name, siteRoot, 'incoming', files, skipLoadCheck);
  const bytes = [...files.values()].reduce((sum, file) => sum + file.length, 0);
  console.log(`${name}: deploying ${rel(from)} (${source.manifest.version}) to the shared release store (every instance)`);
  console.log(`  read ${files.size} files (${size(bytes)}); verified ${source.checked.join(', ')}${source.serverModules.length && !skipLoadCheck ? `; ${source.serverModules.join(', ')} loads` : ''}`);

  // The served dist before any shared release: this machine's, kept so that the first rollback has somewhere to go.
  const dist = path.join(remoteDir, 'dist');
  const keptDist = await checkDist(dist, name, siteRoot).then(
    async (checked) => ({ manifest: checked.manifest, files: await readDistFiles(dist) }),
    () => null,
  );

  const now = new Date();
  const result = await store.releaseTransaction(store.db, name, async (trx) => {
    const pointer = await store.readSharedPointer(trx, name);
    const taken = async (version) => (await store.readStoredRelease(trx, name, version)) !== null;
    const version = await nextVersion(taken, source.manifest.version, explicit, (v) => `release ${v} of ${name} (stored)`);
    const history = { stack: [...(pointer?.stack ?? [])], log: [...(pointer?.log ?? [])] };
    const at = now.toISOString();
    let kept = null;
    if (!pointer && keptDist) {
      const marked = `${keptDist.manifest.version}${keptDist.manifest.version.includes('+') ? '.' : '+'}dist`;
      kept = await freeName(taken, RELEASE_NAME.test(marked) ? marked : 'dist');
      // Older than the new release: its files' time is its build's.
      await store.storeRelease(trx, { remote: name, version: kept, manifest: { ...keptDist.manifest, version: kept }, files: keptDist.files }, new Date(now.getTime() - 1000));
      history.log.push({ at, action: KEPT_DIST, version: kept, from: dist });
      console.log(`  kept ${rel(dist)}, served until now, as ${kept} (${keptDist.files.size} files): the rollback target`);
    }
    if (signing?.key) files.set(format.SIGNATURE_FILE, format.signFiles(files, name, version, signing.key));
    if (signing?.trusted?.length) await checkSignature(await writtenHere(remoteDir, version, files), name, signing).finally(() => rm(path.join(remoteDir, 'releases', `.sig-${version}-${process.pid}`), { recursive: true, force: true }));
    const stored = await store.storeRelease(trx, { remote: name, version, manifest: { ...source.manifest, version }, files }, now);
    const below = pointer?.version ?? kept;
    if (below && history.stack.at(-1) !== below) history.stack.push(below);
    history.stack.push(version);
    history.log.push({ at, action: 'deploy', version, previous: pointer?.version ?? null, from: path.resolve(from) });
    await store.movePointer(trx, name, { version, stack: history.stack, log: history.log }, now);
    console.log(`  stored ${stored.stored} new files (the others were stored already), release digest ${stored.digest.slice(0, 12)}`);
    return { version, previous: pointer?.version ?? null, kept, depth: history.stack.length };
  });
  const before = result.previous ?? (result.kept ? `(none: mfe-${name}/dist was served, kept as ${result.kept})` : '(none)');
  console.log(`  shared pointer: ${before} -> ${result.version}`);
  const undo = result.depth > 1 ? `Undo with: npm run rollback -- ${name}` : 'Nothing was served before it, so there is nothing to roll back to.';
  console.log(`${name} ${result.version} is live on every instance within seconds, no restart (/api/health lists what each serves). ${undo}`);
  return result;
}

async function rollbackShared({ name, siteRoot, to, skipLoadCheck, store }) {
  const remoteDir = path.join(siteRoot, `mfe-${name}`);
  await mkdir(path.join(remoteDir, 'releases'), { recursive: true });
  const now = new Date();
  const result = await store.releaseTransaction(store.db, name, async (trx) => {
    const pointer = await store.readSharedPointer(trx, name);
    if (!pointer) throw new DeployError(`${name} has no shared release yet: nothing to roll back`);
    const current = pointer.version;
    const { target, stack } = pickRollback(name, pointer, current, to, () =>
      new DeployError(`${name} has no release before ${current} to roll back to. Pick one with --to (see: node scripts/deploy-remote.mjs list ${name})`),
    );
    const release = await store.readStoredRelease(trx, name, target);
    if (!release) throw new DeployError(`cannot roll back to ${target}: no release of ${name} by that name is stored (see: node scripts/deploy-remote.mjs list ${name})`);
    const blobs = await store.readBlobs(trx, Object.values(release.files));
    const files = new Map(Object.entries(release.files).map(([file, hash]) => [file, blobs.get(hash)]));
    const { checked } = await checkHere(remoteDir, name, siteRoot, target, files, skipLoadCheck).catch((error) => {
      throw new DeployError(`cannot roll back to ${target}: ${error.message}`);
    });
    console.log(`${name}: rolling back ${current} -> ${target} (verified ${checked.join(', ')})`);
    await store.movePointer(trx, name, { version: target, stack, log: [...pointer.log, { at: now.toISOString(), action: 'rollback', version: target, previous: current }] }, now);
    return { version: target, previous: current };
  });
  console.log(`  shared pointer: ${result.previous} -> ${result.version} (${result.previous} stays stored: npm run rollback -- ${name} --to ${result.previous} serves it again)`);
  console.log(`${name} ${result.version} is live again on every instance within seconds, no restart.`);
  return result;
}

async function listShared({ name, store }) {
  const pointer = await store.readSharedPointer(store.db, name);
  const releases = await store.listStoredReleases(store.db, name);
  const below = pointer ? pointer.stack[pointer.stack.lastIndexOf(pointer.version) - 1] : undefined;
  const kept = keptDists(pointer ?? { log: [] });
  console.log(`${name}: ${pointer ? `shared pointer ${pointer.version} since ${pointer.since.slice(0, 16).replace('T', ' ')} UTC` : 'no shared release: each instance serves its own mfe-' + name + '/dist'} (PostgreSQL)`);
  for (const release of releases) {
    const notes = [
      release.version === pointer?.version && 'current',
      release.version === below && `rollback target (npm run rollback -- ${name})`,
      kept.has(release.version) && `mfe-${name}/dist as served before the first release`,
    ].filter(Boolean);
    const mark = release.version === pointer?.version ? '*' : ' ';
    console.log(`${mark} ${release.version.padEnd(24)} ${release.createdAt.slice(0, 16).replace('T', ' ')}  ${release.files} files  ${notes.join(', ')}`);
  }
  if (releases.length === 0) console.log('  no releases yet');
}


/** The manifests of the remotes served from `siteRoot` (the pointer's release, else the dist), and the shared pointers'. */
async function servedManifests(siteRoot, store) {
  const manifests = [];
  for (const name of REMOTES) {
    const remoteDir = path.join(siteRoot, `mfe-${name}`);
    const pointer = await readPointer(remoteDir);
    const read = await format.readManifest(pointer ? path.join(remoteDir, 'releases', pointer) : path.join(remoteDir, 'dist'), name);
    if ('manifest' in read) manifests.push({ ...read.manifest, version: pointer ?? read.manifest.version });
    const shared = store && (await store.readSharedPointer(store.db, name));
    const release = shared && (await store.readStoredRelease(store.db, name, shared.version));
    if (release && release.version !== pointer) manifests.push({ ...release.manifest, version: `${release.version} (shared)` });
  }
  return manifests;
}


/**
 * The shell is an app of the release model like the remotes (issue 33): its deploys and rollbacks go through the
 * server's own deployer (api/dist/release-deployer.js): a release under shell/releases/<version>/ (or the shared store
 * on PostgreSQL), checked (whole, stranding no served remote, signed when keys are trusted, its server entry loading)
 * and switched by its pointer in one rename, so pages never answer 503 in between.
 */
async function shellDeployer(siteRoot, store) {
  const { createReleaseDeployer } = await import(pathToFileURL(path.join(REPO_ROOT, 'api', 'dist', 'release-deployer.js')).href);
  const quiet = { info() {}, warn() {}, error() {}, debug() {}, child() { return quiet; } };
  return createReleaseDeployer({
    siteRoot,
    ...(store ? { shared: store.db } : {}),
    trustedKeys: format.parseTrustedKeys(process.env.RELEASE_TRUSTED_KEYS),
    sharedModules: async () => undefined,
    servedManifests: async () => (await servedManifests(siteRoot, store)).map((manifest) => ({ ...manifest, version: String(manifest.version) })),
    // `logged` writes the deploy log; this tool prints what happened.
    record: async () => undefined,
    alert: () => undefined,
    logger: quiet,
    clock: () => new Date(),
  });
}

/** A deployer's refusal as this tool's (exit 1, the message in full). */
const asDeployError = (error) => {
  if (error && typeof error === 'object' && 'kind' in error) return new DeployError(`${error.message.replace(/\.$/, '')}. Nothing was changed.`);
  return error;
};

async function deployShell({ siteRoot, from, store, version, signing }) {
  const deployer = await shellDeployer(siteRoot, store);
  const files = await readDistFiles(from);
  files.delete(format.SIGNATURE_FILE);
  if (signing?.key) {
    // Signed under the name it is deployed as: --version, else its manifest's.
    const check = await format.checkShellRelease(from);
    if (!check.ok) throw new DeployError(`${rel(from)} is not a built shell: ${check.problems.join('; ')}`);
    version ??= check.version;
    files.set(format.SIGNATURE_FILE, format.signFiles(files, 'shell', version, signing.key));
  }
  const change = await deployer.deploy('shell', files, { by: 'npm run deploy', from: null }, { version }).catch((error) => {
    throw asDeployError(error);
  });
  console.log(`shell: deployed ${rel(from)} as ${change.version}; verified ${change.checked.join(', ')}`);
  console.log(`shell ${change.version} is live (was ${change.previous ?? 'nothing'}): the next request serves it, no restart. Undo with: npm run rollback -- shell`);
  return change;
}

async function rollbackShell({ siteRoot, store, to }) {
  const deployer = await shellDeployer(siteRoot, store);
  const change = await deployer.rollback('shell', { by: 'npm run rollback', from: null }, { version: to }).catch((error) => {
    throw asDeployError(error);
  });
  console.log(`shell ${change.version} is live again (was ${change.previous}): the next request serves it, no restart.`);
  return change;
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
 * Over HTTP (issue 33): the site's POST /api/releases/<app> takes the built folder as a .tar.gz with a deploy token
 * (created by the admin for this app), checks it as it will serve it and switches it on every instance. The release
 * is signed here with the team's key (--key or RELEASE_SIGNING_KEY) under the name it will have, so the servers, who
 * trust that key for this app, load it. Nothing but the site's URL, the token and the key is needed.
 */
async function overHttp(command, name, values) {
  const site = new URL(values.to).origin;
  const token = values.token || process.env.DEPLOY_TOKEN;
  if (!token) throw new DeployError('a deploy over HTTP needs a deploy token: --token <token> or DEPLOY_TOKEN (the admin creates one on the Deploys screen)');
  const call = async (method, route, body, headers = {}) => {
    let res;
    try {
      res = await fetch(`${site}${route}`, { method, headers: { authorization: `Bearer ${token}`, ...headers }, body });
    } catch (error) {
      throw new DeployError(`${site} did not answer: ${error.cause?.message ?? error.message}`);
    }
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok) throw new DeployError(`${site} answered ${res.status}: ${json?.error?.message ?? (text.slice(0, 500) || res.statusText)}`);
    return json;
  };
  const releases = `/api/releases/${encodeURIComponent(name)}`;
  if (command === 'list') {
    const list = await call('GET', releases);
    console.log(`${name} on ${site}: ${list.served ? `serves ${list.served.version} since ${list.served.since.slice(0, 16).replace('T', ' ')} UTC` : 'no release yet'}`);
    for (const release of list.releases) {
      console.log(`${release.current ? '*' : ' '} ${release.version.padEnd(24)} ${release.createdAt.slice(0, 16).replace('T', ' ')}  ${release.files} files  ${release.by ?? ''}`);
    }
    return 0;
  }
  if (command === 'rollback') {
    const change = await call('POST', `${releases}/rollback`, JSON.stringify(values.version ? { version: values.version } : {}), { 'content-type': 'application/json' });
    console.log(`${name} ${change.version} is live again on ${site} (was ${change.previous}); checked ${change.checked.join(', ')}`);
    return 0;
  }
  const from = values.from ? path.resolve(values.cwd, values.from) : buildHere(name);
  const check = name === 'shell' ? await format.checkShellRelease(from) : await format.checkRelease(from, name);
  if (!check.ok) throw new DeployError(`${rel(from)} cannot be deployed:\n  - ${check.problems.join('\n  - ')}`);
  const builtVersion = name === 'shell' ? check.version : check.manifest.version;
  const files = await readDistFiles(from);
  files.delete(format.SIGNATURE_FILE);
  const signing = await readSigning(values.key ? path.resolve(values.cwd, values.key) : undefined, name);
  let version = values.version;
  if (signing.key) {
    // Signed under the name it will have: asked for, else the manifest's version made free on the site.
    if (!version) {
      const taken = new Set((await call('GET', releases)).releases.map((release) => release.version));
      version = await freeName(async (v) => taken.has(v), builtVersion);
    }
    files.set(format.SIGNATURE_FILE, format.signFiles(files, name, version, signing.key));
  }
  const body = await format.packReleaseTarball(files);
  console.log(`${name}: sending ${rel(from)} (${builtVersion}${version && version !== builtVersion ? ` as ${version}` : ''}, ${files.size} files, ${size(body.length)} compressed${signing.key ? ', signed' : ''}) to ${site}`);
  const change = await call('POST', `${releases}${version ? `?version=${encodeURIComponent(version)}` : ''}`, body, { 'content-type': 'application/gzip' });
  console.log(`  checked ${change.checked.join(', ')}`);
  console.log(`${name} ${change.version} is live on ${site} (was ${change.previous ?? 'nothing'}). Undo with: npm run rollback -- ${name} --to ${site} --token <token>`);
  return 0;
}

/**
 * Runs a deploy or rollback on this machine and writes its outcome to the site's deploy log (PostgreSQL with
 * DATABASE_URL, else DATA_DIR's SQLite file when the site has one). A log that cannot be written is said, not fatal.
 */
async function logged(command, app, cwd, work) {
  const by = `npm run ${command} (${userInfo().username}@${hostname()})`;
  let entry;
  try {
    const result = await work();
    entry = { result: 'ok', version: result?.version ?? null, previous: result?.previous ?? null, message: null };
    return 0;
  } catch (error) {
    entry = { result: error instanceof DeployError ? 'refused' : 'failed', version: null, previous: null, message: error.message };
    throw error;
  } finally {
    try {
      const store = await import(pathToFileURL(path.join(REPO_ROOT, 'api', 'dist', 'release-store.js')).href);
      // As the server reads it: DATA_DIR, else ./data where the command runs (npm start's, from the repo).
      const dataDir = path.resolve(cwd, process.env.DATA_DIR || 'data');
      const log = await store.openDeployLog({ databaseUrl: isPostgres(process.env.DATABASE_URL) ? process.env.DATABASE_URL : undefined, dataDir });
      if (log) {
        await log.record({ app, action: command, by, from: null, ...entry });
        await log.close();
      }
    } catch (error) {
      console.warn(`  (the deploy log could not be written: ${error.message})`);
    }
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
  const isShell = name === 'shell';
  if (!['deploy', 'rollback', 'list'].includes(command) || !(REMOTES.includes(name) || isShell) || positionals.length > 1) {
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
    const options = { name, siteRoot, skipLoadCheck: values['skip-load-check'], store, signing };
    if (command === 'list') {
      if (isShell) throw new DeployError('list shell: GET /api/releases/shell lists the shell\'s releases (node scripts/deploy-remote.mjs list shell --to <site URL> --token <token>)');
      await (store ? listShared : list)(options);
      return 0;
    }
    // Written to the site's deploy log as it happens, like a deploy over HTTP (the admin dashboard shows it).
    return await logged(command, name, cwd, async () => {
      if (isShell) {
        const from = values.from ? path.resolve(cwd, values.from) : path.join(REPO_ROOT, 'shell', 'dist');
        return (command === 'deploy' ? deployShell : rollbackShell)({ siteRoot, from, store, version: values.version, to: values.to, signing });
      }
      if (command === 'deploy') {
        const from = values.from ? path.resolve(cwd, values.from) : buildHere(name);
        return (store ? deployShared : deploy)({ ...options, from, version: values.version });
      }
      return (store ? rollbackShared : rollback)({ ...options, to: values.to });
    });
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
