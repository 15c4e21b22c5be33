// What every part of the deploy tool shares and that needs no server code: the repo, its errors and its wording.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The pnpm the repo pins (package.json's packageManager). */
export const PNPM_VERSION = '10.34.9';

export class DeployError extends Error {}

export const rel = (file) => {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative || '.';
};
export const size = (bytes) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);

export const isPostgres = (url) => /^postgres(?:ql)?:\/\//i.test(url ?? '');

/**
 * Without --from, `npm run deploy -- <remote>` builds the remote in this clone first and deploys what it built: one
 * command from an edit to the site (a build alone never changes what is served). Returns the built dist.
 */
export function buildHere(name) {
  const pnpm = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  const [cmd, ...pre] = pnpm.status === 0 && pnpm.stdout.trim() === PNPM_VERSION ? ['pnpm'] : ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
  console.log(`${name}: building mfe-${name} (pass --from <dist> to deploy a build made elsewhere)`);
  const result = spawnSync(cmd, [...pre, '--filter', `mfe-${name}`, 'run', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new DeployError(`the build of mfe-${name} failed (exit ${result.status}): nothing was deployed`);
  return path.join(REPO_ROOT, `mfe-${name}`, 'dist');
}
