#!/usr/bin/env node
// npm run dev -- <remote> --against <site URL> --token <deploy token> [--port 5174] [--dir <remote folder>]
//
// Local development of one remote against the deployed site (issue 52): builds the remote in watch mode (vite build
// --watch, into a temporary folder: its dist/ and the site's releases are left alone), serves that build on 127.0.0.1
// under the paths the site uses (/mfe/<remote>/…) with CORS for the site's origin, asks the site for a development
// override link (POST /api/releases/<remote>/dev-override with the remote's deploy token) and prints it. The browser
// that opens the link and presses Turn on (not one logged into the admin) loads this build instead of the served
// release, on every page of the live site, until the link expires or its banner's "Leave" is clicked. Edit a file,
// wait for "rebuilt", reload the page.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REMOTES = ['marketing', 'analysis', 'blog', 'admin'];
const USAGE = 'Usage: npm run dev -- <remote> --against <site URL> --token <deploy token> [--port 5174] [--dir <remote folder>]\n' +
  `  <remote>: ${REMOTES.join(', ')}; the token may also come from DEPLOY_TOKEN.`;
const TYPES = { '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.webp': 'image/webp', '.woff2': 'font/woff2', '.html': 'text/html; charset=utf-8' };

function fail(message) {
  console.error(`✖ ${message}`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: { against: { type: 'string' }, token: { type: 'string' }, port: { type: 'string', default: '5174' }, dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
if (args.values.help) {
  console.log(USAGE);
  process.exit(0);
}
const app = args.positionals[0];
if (!REMOTES.includes(app) || args.positionals.length !== 1) fail(`name one remote to develop.\n${USAGE}`);
let site;
try {
  site = new URL(args.values.against ?? '');
  if (!['http:', 'https:'].includes(site.protocol)) throw new Error('not http(s)');
} catch {
  fail(`--against is the site's address (e.g. https://www.example.com).\n${USAGE}`);
}
const token = args.values.token ?? process.env.DEPLOY_TOKEN;
if (!token) fail(`a deploy token of ${app} is needed: --token <t> or DEPLOY_TOKEN.\n${USAGE}`);
const port = Number(args.values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port is a port number (1 to 65535), not "${args.values.port}".`);
const remoteDir = path.resolve(args.values.dir ?? path.join(ROOT, `mfe-${app}`));
if (!existsSync(path.join(remoteDir, 'vite.config.ts'))) fail(`${remoteDir} is not a remote's folder (no vite.config.ts).`);

let vite;
try {
  vite = path.join(path.dirname(createRequire(path.join(remoteDir, 'package.json')).resolve('vite/package.json')), 'bin/vite.js');
} catch {
  fail(`vite is not installed for ${remoteDir}: run npm run build (or pnpm install) once first.`);
}

// The watch build goes to a folder of its own: the remote's dist/ may be what a local site serves or imports.
const outDir = mkdtempSync(path.join(os.tmpdir(), `site-dev-${app}-`));
const prefix = `/mfe/${app}/`;
const entryUrl = `http://127.0.0.1:${port}${prefix}assets/remoteEntry.js`;
const started = Date.now();

// The build, rebuilt by vite on every change under the remote's folder.
const build = spawn(process.execPath, [vite, 'build', '--watch', '--outDir', outDir, '--emptyOutDir', '--minify', 'false'], {
  cwd: remoteDir,
  stdio: ['ignore', 'pipe', 'pipe'],
  // The server modules and precompressed copies are the deploy's business (the override renders in the browser), and
  // unminified code rebuilds faster and reads better in the browser's devtools.
  env: { ...process.env, SITE_REMOTE_DEV: '1' },
});
/** vite's lines, less the list of files it wrote; `onLine` sees each (a finished build says "built in"). */
const relay = (stream, out, onLine) => {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      if (line.trim() && !/\.(?:js|css|json|svg|html|map)\s+[\d.]+\s*kB/.test(line)) out.write(`  [vite] ${line}\n`);
      onLine?.(line);
    }
  });
};
let linked = false;
let buildStarted = started;
relay(build.stdout, process.stdout, (line) => {
  if (/build started/.test(line)) buildStarted = Date.now();
  if (!/built in \d+/.test(line)) return;
  if (!linked) {
    linked = true;
    console.log(`  first build in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    void link.then(printLink);
  } else {
    console.log(`  ↻ rebuilt in ${((Date.now() - buildStarted) / 1000).toFixed(1)} s at ${new Date().toLocaleTimeString()}: reload the page`);
  }
});
relay(build.stderr, process.stderr);
build.on('exit', (code, signal) => {
  if (!stopping) {
    console.error(`✖ the watch build stopped (${signal ?? `exit ${code}`}).`);
    stop(1);
  }
});

// The local server: the build under the site's paths, for the site's pages only (CORS), never cached. The site's
// pages are on --against's origin, or on its PUBLIC_ORIGIN (the link's), when the two differ.
const siteOrigins = new Set([site.origin]);
const server = http.createServer((req, res) => {
  res.setHeader('Access-Control-Allow-Origin', siteOrigins.has(req.headers.origin) ? req.headers.origin : site.origin);
  res.setHeader('Vary', 'Origin');
  res.setHeader('Cache-Control', 'no-store');
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD');
    res.writeHead(204).end();
    return;
  }
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    pathname = '';
  }
  const file = path.join(outDir, pathname.slice(prefix.length));
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !pathname.startsWith(prefix) || !file.startsWith(outDir + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
    return;
  }
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
});
server.on('error', (error) => {
  console.error(`✖ cannot serve on 127.0.0.1:${port}: ${error.message}${error.code === 'EADDRINUSE' ? ' (another --port?)' : ''}`);
  stop(1);
});
server.listen(port, '127.0.0.1');

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  build.kill('SIGTERM');
  server.close();
  rmSync(outDir, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

/** Asks the site for the link at once (a wrong token or URL stops here); says what the site answered when it refuses. */
async function askForLink() {
  const url = new URL(`/api/releases/${app}/dev-override`, site);
  let res;
  try {
    res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ entryUrl }) });
  } catch (error) {
    console.error(`✖ ${url.origin} did not answer: ${error.cause?.message ?? error.message}`);
    return stop(1);
  }
  const body = await res.json().catch(() => null);
  if (res.status !== 201 || !body?.url) {
    console.error(`✖ the site refused the override (${res.status}): ${body?.error?.message ?? JSON.stringify(body)}`);
    return stop(1);
  }
  siteOrigins.add(new URL(body.url).origin);
  return body;
}

/** The link, once the first build is there to load. */
function printLink(body) {
  console.log(`\n✔ ${app} is built and served at ${entryUrl}`);
  console.log(`\n  Open this link in the browser you develop with and press Turn on (it works until ${body.expiresAt}):\n\n    ${body.url}\n`);
  console.log(`  That browser gets ${app} from this build on every page of ${site.origin}; no one else does.`);
  console.log(`  Edit ${path.relative(process.cwd(), remoteDir) || '.'}/src, wait for "rebuilt", reload the page. Ctrl-C stops (the banner's Leave ends the override).\n`);
}

const link = askForLink();
