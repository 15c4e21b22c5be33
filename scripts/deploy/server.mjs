// The server's release code, loaded once for the whole tool. Importing this module builds api/dist when it is stale
// and applies this environment's release policy, so scripts/deploy-remote.mjs imports it only once it runs on Node 24.
import { spawnSync } from 'node:child_process';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './common.mjs';

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

export const server = await loadServerBundle();
export const REMOTES = server.REMOTE_NAMES;

// What a release may declare on this site (APP_ROUTES_<APP>, RELEASE_MAX_*), read from this environment by the server's
// own code: a release this tool accepts is one the server started with the same environment loads.
try {
  server.useReleasePolicy(server.loadReleasePolicy(process.env));
} catch (error) {
  console.error(`✖ ${error.message}`);
  process.exit(1);
}
