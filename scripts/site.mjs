#!/usr/bin/env node
// The README's commands, on a machine with only Node 20.19+ and npm (they run on Node 24, fetched when older):
//   start   install, build everything, serve on http://localhost:$PORT (3000)
//   build   install and build every package
//   serve   serve what is built (no rebuild)
//   test    install, get Debian's chromium if missing, build, lint, typecheck, vitest, Playwright
//   lint | typecheck | unit | e2e   one step of `test`
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOnNode24 } from './node24.mjs';

// Everything below runs on Node 24: an older Node fetches it once (scripts/node24.mjs) and runs this script under it.
await runOnNode24(import.meta.url);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PNPM_VERSION = '10.34.9';
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: opts.quiet ? 'ignore' : 'inherit', env: { ...process.env, ...opts.env } });
  if (res.error) throw res.error;
  return res.status ?? 1;
}

function must(cmd, args, what, opts) {
  const status = run(cmd, args, opts);
  if (status !== 0) {
    console.error(`\n✖ ${what} failed (exit ${status}).`);
    process.exit(status);
  }
}

/** pnpm at the pinned version: the one on PATH when it matches, otherwise fetched by npx (no global install). */
let pnpmCmd;
function pnpm(args, what, opts) {
  if (!pnpmCmd) {
    const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
    pnpmCmd = probe.status === 0 && probe.stdout.trim() === PNPM_VERSION ? ['pnpm'] : ['npx', '--yes', `pnpm@${PNPM_VERSION}`];
  }
  const [cmd, ...pre] = pnpmCmd;
  return opts?.soft ? run(cmd, [...pre, ...args], opts) : must(cmd, [...pre, ...args], what, opts);
}

function install() {
  console.log('→ Installing dependencies (pnpm, frozen lockfile)…');
  pnpm(['install', '--frozen-lockfile', '--reporter=append-only'], 'Install', { env: { npm_config_update_notifier: 'false' } });
}

function build() {
  console.log('→ Building the shell, the four remotes and the API…');
  pnpm(['-r', '--workspace-concurrency=2', '--reporter-hide-prefix', 'run', 'build'], 'Build');
}

function serve() {
  const entry = path.join(ROOT, 'api/dist/server.js');
  if (!existsSync(entry) || !existsSync(path.join(ROOT, 'shell/dist/index.html'))) {
    console.error('Nothing is built yet: run `npm run build` (or `npm start`) first.');
    process.exit(1);
  }
  // `npm start` builds in order to serve what it built: a build that differs from the served release is imported as a
  // new release (RELEASE_IMPORT_BUILDS=changed; `npm run rollback -- <remote>` returns to the one before). A server
  // started any other way imports builds on its first start only: after that, a build changes nothing until a deploy.
  must(process.execPath, [entry], 'Server', { env: { RELEASE_IMPORT_BUILDS: process.env.RELEASE_IMPORT_BUILDS || 'changed' } });
}

/**
 * The browser tests drive Debian's chromium, and its old headless shell (chromium-headless-shell, the same engine
 * without the full browser: about a third less CPU per test) when that can be installed too (e2e/support/chromium.ts).
 */
function ensureChromium() {
  const shell = '/usr/bin/chromium-headless-shell';
  const missing = [existsSync(CHROMIUM) ? null : 'chromium', process.env.CHROMIUM_PATH || existsSync(shell) ? null : 'chromium-headless-shell'].filter(Boolean);
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    if (existsSync(CHROMIUM)) return; // the tests use chromium itself
    console.error(
      `The browser tests need Chromium at ${CHROMIUM}.\n` +
        'Install it with `sudo apt-get install chromium chromium-headless-shell` (Debian/Ubuntu), or point CHROMIUM_PATH at a Chromium binary.',
    );
    process.exit(1);
  }
  console.log(`→ Installing Debian's ${missing.join(' and ')} for the browser tests…`);
  must('apt-get', ['update', '-qq'], 'apt-get update');
  must('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], `apt-get install ${missing.join(' ')}`, {
    env: { DEBIAN_FRONTEND: 'noninteractive' },
  });
}

// Lint first: it catches a crossed boundary before the slower steps run. The cache (by file content, dropped
// by ESLint when the config or its version changes) makes a rerun take about 2 s instead of 10-15 s of CPU.
const LINT_ARGS = ['exec', 'eslint', '.', '--max-warnings=0', '--cache', '--cache-strategy=content', '--cache-location=node_modules/.cache/eslint/'];
const lint = () => pnpm(LINT_ARGS, 'Lint', { soft: true });
/**
 * The lint beside another step (the typecheck): both are single-threaded most of the time, so on two cores they take
 * about as long together as the longer one alone. Its output is held and printed when it ends, in one piece.
 */
function lintAside() {
  pnpm(['--version'], 'pnpm', { soft: true, quiet: true });
  const [cmd, ...pre] = pnpmCmd;
  const started = Date.now();
  const child = spawn(cmd, [...pre, ...LINT_ARGS], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ status: 1, output: `${error}\n`, seconds: 0 }));
    child.on('close', (status) => resolve({ status: status ?? 1, output: Buffer.concat(output).toString(), seconds: Math.round((Date.now() - started) / 1000) }));
  });
}
/**
 * The typecheck: the front ends (shell and remotes, one set of compiler options) as one program
 * (tsconfig.front-ends.json), and the API, the browser tests and each shared package with its own tsconfig.json, two programs at a time,
 * the longest first. Each package's own `typecheck` script (a team's pipeline) still checks it alone.
 * Beside the lint (`besideLint`), the compilers run at a lower priority: the lint, one thread, keeps a core to itself
 * and the compilers take the rest, so the two end together instead of the lint running on alone at the end.
 */
const TYPECHECK_PROGRAMS = ['tsconfig.front-ends.json', 'api/tsconfig.json', 'e2e/tsconfig.json', 'packages/ui/tsconfig.json', 'packages/contracts/tsconfig.json', 'packages/vite-config/tsconfig.json'];
async function typecheck({ besideLint = false } = {}) {
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  const queue = [...TYPECHECK_PROGRAMS];
  let status = 0;
  const worker = async () => {
    for (let project = queue.shift(); project; project = queue.shift()) {
      const child = spawn(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      if (besideLint && child.pid) {
        try {
          setPriority(child.pid, 10);
        } catch {
          // Not allowed here: the two share the cores evenly, as before.
        }
      }
      const output = [];
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      const code = await new Promise((resolve) => {
        child.on('error', (error) => (output.push(Buffer.from(`${error}\n`)), resolve(1)));
        child.on('close', (c) => resolve(c ?? 1));
      });
      // Each program's errors in one piece, named.
      if (code !== 0) {
        status = code;
        process.stdout.write(`✖ tsc -p ${project}:\n${Buffer.concat(output).toString()}`);
      } else console.log(`✔ tsc -p ${project}`);
    }
  };
  await Promise.all([worker(), worker()]);
  return status;
}
// After `npm test` has built everything, a suite that needs a build fails instead of being skipped
// (api/src/test-support/built-site.ts): a missing build is then a broken build, not a reason to test less.
// Besides the usual output, vitest writes its results as JSON, so that `test` can name the failed tests again at the
// very end: the browser tests' output comes after the unit tests' and would otherwise hide which one failed.
const UNIT_RESULTS = path.join(ROOT, 'node_modules/.cache/vitest-results.json');
const unit = (requireBuild = false) => {
  rmSync(UNIT_RESULTS, { force: true });
  return pnpm(['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${UNIT_RESULTS}`], 'Unit and integration tests', {
    soft: true,
    env: requireBuild ? { SITE_REQUIRE_BUILD: '1' } : {},
  });
};

/** The failed unit tests, each with the first lines of its error; files that failed outside a test too. */
function unitFailures() {
  let report;
  try {
    report = JSON.parse(readFileSync(UNIT_RESULTS, 'utf8'));
  } catch {
    return ['    (no results were written: vitest itself failed; its output is above)'];
  }
  const lines = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(ROOT, file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) {
      lines.push(`    ${where} › ${t.fullName}`);
      const message = (t.failureMessages ?? []).join('\n').split('\n').slice(0, 6);
      for (const m of message) lines.push(`        ${m}`);
    }
    if (!failed.length && file.status === 'failed') lines.push(`    ${where}: ${String(file.message ?? 'failed').split('\n').slice(0, 6).join('\n        ')}`);
  }
  return lines;
}
const e2e = () => pnpm(['--filter', 'e2e', 'exec', 'playwright', 'test'], 'Browser tests', { soft: true });

const step = process.argv[2];
switch (step) {
  case 'start':
    install();
    build();
    serve();
    break;
  case 'build':
    install();
    build();
    break;
  case 'serve':
    serve();
    break;
  case 'lint':
    process.exit(lint());
    break;
  case 'typecheck':
    process.exit(await typecheck());
    break;
  case 'unit':
    process.exit(unit());
    break;
  case 'e2e':
    ensureChromium();
    process.exit(e2e());
    break;
  case 'test': {
    const started = Date.now();
    // Each step's wall time, printed with the summary (the figures to watch against the 12-minute budget).
    const seconds = {};
    const timed = (name, fn) => {
      const t = Date.now();
      const result = fn();
      seconds[name] = Math.round((Date.now() - t) / 1000);
      return result;
    };
    timed('install', install);
    timed('chromium', ensureChromium);
    timed('build', build);
    console.log('→ Lint (beside the typecheck; its output follows the typecheck)…');
    const linting = lintAside();
    const t = Date.now();
    const typecheckStatus = await typecheck({ besideLint: true });
    seconds.typecheck = Math.round((Date.now() - t) / 1000);
    const linted = await linting;
    process.stdout.write(linted.output);
    seconds.lint = linted.seconds;
    const results = {
      lint: linted.status,
      typecheck: typecheckStatus,
      'unit + integration': timed('unit + integration', () => unit(true)),
      browser: timed('browser', e2e),
    };
    const failed = Object.entries(results).filter(([, s]) => s !== 0);
    console.log(`\nTest summary (${Math.round((Date.now() - started) / 1000)} s: install ${seconds.install} s, build ${seconds.build} s):`);
    for (const [name, s] of Object.entries(results)) {
      console.log(`  ${s === 0 ? '✔' : '✖'} ${name} (${seconds[name]} s)`);
      if (name === 'unit + integration' && s !== 0) for (const line of unitFailures()) console.log(line);
    }
    process.exit(failed.length ? 1 : 0);
    break;
  }
  default:
    console.error('usage: node scripts/site.mjs start|build|serve|test|lint|typecheck|unit|e2e');
    process.exit(2);
}
