#!/usr/bin/env node
// Performance budgets of the public pages: Lighthouse mobile (its defaults: simulated throttling, Moto G
// Power screen) run N times per route, medians printed side by side with the FLOOR, the same page's final
// HTML served with every script removed. Both run on this machine in alternation, so machine noise cancels
// in the ratio LCP/floor.
//
//   node e2e/scripts/lighthouse.mjs [baseUrl] [--runs 3] [--routes / /blog ...] [--json out.json] [--slower K]
//
// --slower K: scores this machine as if it were K times slower (Lighthouse's CPU slowdown 4*K instead of 4): what
// a slower machine of ours would likely score, since simulated throttling multiplies the main thread's observed
// task times. An estimate, not a measurement of that machine.
//
// baseUrl defaults to http://127.0.0.1:3000 (start the server first: `npm run serve`, or
// `PORT=… node api/dist/server.js`). Without --routes: /, a city page, a case study, /blog, the newest
// post, /free-analysis, /roi-calculator. Debian's chromium (/usr/bin/chromium, or CHROMIUM_PATH) is launched
// here with the project's flags and Lighthouse connects to its DevTools port.
//
// The floor: Playwright opens the live page in a fresh context, waits for the network to go idle and takes
// the rendered DOM (page.content()); the scripts, JSON-LD included, and any modulepreload/script preload are
// cut out, with the stylesheet the federation runtime links a second time by absolute URL (see stripScripts);
// a static server on 127.0.0.1 serves that HTML at the page's own path and passes every other
// request (stylesheets, images, fonts) through to the live server, refusing .js. First-visit JS is measured
// in the same Playwright visit, as e2e/scripts/first-visit-js.mjs does: every script response, gzip -9.
// The process exits 0 whatever the figures: it is a benchmark, not a test.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// Same flags as e2e/support/chromium.ts.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

const TARGETS = { score: 98, lcp: 1200, cls: 0, tbt: 50, ratio: 1.15 };

const USAGE = 'usage: node e2e/scripts/lighthouse.mjs [baseUrl] [--runs 3] [--routes / /blog ...] [--json out.json] [--slower K]';

/** A mistake in the command line: said in a line with the usage, without a stack. */
class UsageError extends Error {}

function parseArgs(argv) {
  const opts = { base: 'http://127.0.0.1:3000', runs: 3, routes: null, json: null, slower: 1 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs') opts.runs = Math.max(1, Number(argv[++i]) || 3);
    else if (a.startsWith('--runs=')) opts.runs = Math.max(1, Number(a.slice(7)) || 3);
    else if (a === '--json') opts.json = argv[++i];
    else if (a === '--slower') opts.slower = Number(argv[++i]);
    else if (a === '--routes') {
      opts.routes = [];
      while (argv[i + 1] && !argv[i + 1].startsWith('--')) opts.routes.push(...argv[++i].split(',').filter(Boolean));
    } else if (a.startsWith('--routes=')) opts.routes = a.slice(9).split(',').filter(Boolean);
    else if (a === '-h' || a === '--help') {
      console.log(USAGE);
      process.exit(0);
    } else if (!a.startsWith('--')) opts.base = a.replace(/(?<!\/)\/+$/, '');
    else throw new UsageError(`unknown option ${a}`);
  }
  if (!(opts.slower >= 1 && opts.slower <= 10)) throw new UsageError('--slower takes a number from 1 to 10');
  if (!URL.canParse(opts.base)) throw new UsageError(`not an address: ${opts.base}`);
  const host = new URL(opts.base).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) throw new UsageError(`only loopback servers are measured here, not ${host}`);
  return opts;
}

async function defaultRoutes(base) {
  const routes = [
    ['home', '/'],
    ['city', '/local-services/danville-ai-automation'],
    ['case study', '/case-studies/danville-restaurant-automation'],
    ['blog', '/blog'],
  ];
  try {
    const res = await fetch(`${base}/api/posts?limit=1`);
    const body = await res.json();
    const slug = body.posts?.[0]?.slug;
    if (slug) routes.push(['post', `/blog/${slug}`]);
    else console.warn('no published post: the post route is skipped');
  } catch (err) {
    console.warn(`could not list posts (${err.message}): the post route is skipped`);
  }
  routes.push(['analysis', '/free-analysis'], ['roi', '/roi-calculator']);
  return routes;
}

/** Launches chromium with a DevTools port and resolves with that port once it listens. */
function launchChromium() {
  const profile = mkdtempSync(path.join(tmpdir(), 'lh-chromium-'));
  const child = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, '--headless=new', '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`chromium did not open its DevTools port:\n${err}`)), 30_000);
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (m) {
        clearTimeout(timer);
        child.stderr.removeAllListeners('data');
        child.stderr.resume();
        resolve({
          port: Number(m[1]),
          close: async () => {
            const exited = new Promise((done) => child.once('exit', done));
            child.kill('SIGTERM');
            await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
            rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
          },
        });
      }
    });
    child.on('exit', (code) => reject(new Error(`chromium exited (${code}):\n${err}`)));
  });
}

/** The rendered DOM of each page without its scripts, and the JavaScript a first visit downloads. */
async function captureFloors(base, routes) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const out = new Map();
  try {
    for (const [, route] of routes) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const scripts = [];
      const pending = [];
      page.on('response', (res) => {
        if (res.request().resourceType() !== 'script' || res.status() !== 200) return;
        pending.push(
          res.body().then(
            (body) => scripts.push({ url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length }),
            () => {},
          ),
        );
      });
      const res = await page.goto(base + route, { waitUntil: 'networkidle' });
      await Promise.all(pending);
      const html = stripScripts(await page.content(), base);
      await context.close();
      out.set(route, {
        status: res?.status() ?? 0,
        html,
        js: { count: scripts.length, raw: scripts.reduce((n, s) => n + s.raw, 0), gzip: scripts.reduce((n, s) => n + s.gzip, 0), files: scripts },
      });
    }
  } finally {
    await browser.close();
  }
  return out;
}

/**
 * The final HTML without its scripts. A stylesheet the scripts added (the federation runtime links its remote's
 * CSS by absolute URL, a second time) is not part of the page as the server sent it: links to the live origin
 * are made relative (served through the floor server like the rest) and a stylesheet linked twice is kept once.
 */
function stripScripts(html, base) {
  const origin = new URL(base).origin;
  const seen = new Set();
  return html
    .replace(/<script(?:\s[^>]*)?>[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<link\s[^>]*\brel=["']?modulepreload[^>]*>/gi, '')
    .replace(/<link\s[^>]*\bas=["']?script[^>]*>/gi, '')
    .replaceAll(`href="${origin}/`, 'href="/')
    .replace(/<link\s[^>]*\brel=["']?stylesheet[^>]*>/gi, (tag) => {
      const href = /\bhref=["']?([^"'\s>]+)/i.exec(tag)?.[1] ?? tag;
      if (seen.has(href)) return '';
      seen.add(href);
      return tag;
    });
}

/** Serves each captured page at its own path; every other GET goes to the live server, scripts refused. */
function startFloorServer(base, floors) {
  const live = new URL(base);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://floor');
    const floor = floors.get(url.pathname);
    if (floor) {
      const body = Buffer.from(floor.html);
      const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        ...(gzip ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}),
      });
      res.end(gzip ? gzipSync(body) : body);
      return;
    }
    if (/\.m?js$/.test(url.pathname)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('scripts are not part of the floor');
      return;
    }
    const upstream = http.request(
      { host: live.hostname, port: live.port || 80, method: req.method, path: req.url, headers: { ...req.headers, host: live.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() })));
}

/** Lighthouse's default CPU slowdown for mobile. */
const MOBILE_CPU_SLOWDOWN = 4;

async function runLighthouse(url, port, slower = 1) {
  const flags = { port, logLevel: 'error', output: 'json', onlyCategories: ['performance'] };
  if (slower !== 1) flags.throttling = { cpuSlowdownMultiplier: MOBILE_CPU_SLOWDOWN * slower };
  const result = await lighthouse(url, flags);
  const lhr = result.lhr;
  if (lhr.configSettings.throttling.cpuSlowdownMultiplier !== MOBILE_CPU_SLOWDOWN * slower || lhr.configSettings.throttling.rttMs !== 150) {
    throw new Error(`Lighthouse ran with ${JSON.stringify(lhr.configSettings.throttling)}, not the mobile defaults with a ${MOBILE_CPU_SLOWDOWN * slower}x CPU slowdown`);
  }
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const a = lhr.audits;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: a['largest-contentful-paint'].numericValue,
    fcp: a['first-contentful-paint'].numericValue,
    tbt: a['total-blocking-time'].numericValue,
    cls: a['cumulative-layout-shift'].numericValue,
    warnings: lhr.runWarnings ?? [],
  };
}

/**
 * One Lighthouse run, tried up to 3 times (on a busy machine a trace now and then lacks its navigation start:
 * NO_NAVSTART); a run that still fails is reported and left out of the medians.
 */
async function attempt(url, port, errors, slower) {
  for (let tries = 1; ; tries++) {
    try {
      return await runLighthouse(url, port, slower);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      process.stderr.write(`  run failed (try ${tries}/3): ${message}\n`);
      if (tries === 3) {
        errors.push(message);
        return null;
      }
    }
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

function medians(runs) {
  return {
    score: median(runs.map((r) => r.score)),
    lcp: median(runs.map((r) => r.lcp)),
    fcp: median(runs.map((r) => r.fcp)),
    tbt: median(runs.map((r) => r.tbt)),
    cls: median(runs.map((r) => r.cls)),
  };
}

const secs = (ms) => `${(ms / 1000).toFixed(2)}s`;
const mark = (ok) => (ok ? 'ok  ' : 'FAIL');

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const routes = opts.routes ? opts.routes.map((r) => [r, r.startsWith('/') ? r : `/${r}`]) : await defaultRoutes(opts.base);

  console.log(`Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } }).catch(() => ({ default: {} }))).default.version ?? ''} mobile, simulated throttling${opts.slower === 1 ? '' : ` as if this machine were ${opts.slower}x slower (CPU slowdown ${MOBILE_CPU_SLOWDOWN * opts.slower}x)`}, median of ${opts.runs} runs; ${opts.base}`);
  const floors = await captureFloors(opts.base, routes);
  const floorServer = await startFloorServer(opts.base, floors);
  const chrome = await launchChromium();
  const results = [];
  try {
    for (const [label, route] of routes) {
      const live = [];
      const floor = [];
      const errors = [];
      for (let i = 0; i < opts.runs; i++) {
        // Alternate live and floor so a busy moment of the machine weighs on both.
        const l = await attempt(opts.base + route, chrome.port, errors, opts.slower);
        const f = await attempt(floorServer.origin + route, chrome.port, errors, opts.slower);
        if (l) live.push(l);
        if (f) floor.push(f);
        process.stderr.write(`  ${route} run ${i + 1}/${opts.runs}: live ${l ? `LCP ${secs(l.lcp)} score ${l.score}` : 'failed'}, floor ${f ? `LCP ${secs(f.lcp)}` : 'failed'}\n`);
      }
      const warnings = [...new Set([...live.flatMap((r) => r.warnings), ...errors])];
      const f = floors.get(route);
      results.push({
        label,
        route,
        status: f.status,
        js: f.js,
        live: live.length ? medians(live) : null,
        floor: floor.length ? medians(floor) : null,
        runs: { live, floor },
        warnings,
      });
    }
  } finally {
    await chrome.close();
    floorServer.close();
  }

  printTable(results, opts);
  if (opts.json) writeFileSync(opts.json, JSON.stringify({ base: opts.base, runs: opts.runs, targets: TARGETS, results }, null, 2) + '\n');
}

function printTable(results, opts) {
  const rows = [];
  let failures = 0;
  for (const r of results) {
    const { live, floor } = r;
    if (!live || !floor) {
      failures += 5;
      rows.push([`${r.label === r.route ? r.route : `${r.label} ${r.route}`} (no ${live ? 'floor' : 'live'} run succeeded)`, ...Array(12).fill('-')]);
      continue;
    }
    const ratio = live.lcp / floor.lcp;
    const checks = {
      score: live.score >= TARGETS.score,
      lcp: live.lcp <= TARGETS.lcp,
      tbt: live.tbt <= TARGETS.tbt,
      cls: Number(live.cls.toFixed(3)) === TARGETS.cls,
      ratio: ratio <= TARGETS.ratio,
    };
    failures += Object.values(checks).filter((ok) => !ok).length;
    rows.push([
      `${r.label === r.route ? r.route : `${r.label} ${r.route}`}${r.status === 200 ? '' : ` (${r.status})`}`,
      `${live.score} ${mark(checks.score)}`,
      `${secs(live.lcp)} ${mark(checks.lcp)}`,
      secs(live.fcp),
      `${Math.round(live.tbt)}ms ${mark(checks.tbt)}`,
      `${live.cls.toFixed(3)} ${mark(checks.cls)}`,
      `${(r.js.gzip / 1024).toFixed(1)}kB/${r.js.count}`,
      `${floor.score}`,
      secs(floor.lcp),
      secs(floor.fcp),
      `${Math.round(floor.tbt)}ms`,
      floor.cls.toFixed(3),
      `${ratio.toFixed(2)}x ${mark(checks.ratio)}`,
    ]);
  }
  const head = ['route', 'perf', 'LCP', 'FCP', 'TBT', 'CLS', 'JS gz/files', 'fl.perf', 'fl.LCP', 'fl.FCP', 'fl.TBT', 'fl.CLS', 'LCP/floor'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log('');
  console.log(`LIVE (left) vs FLOOR = same final HTML, scripts removed (fl.*); medians of ${opts.runs}`);
  console.log(`targets: perf >= ${TARGETS.score}, LCP <= ${secs(TARGETS.lcp)}, TBT <= ${TARGETS.tbt}ms, CLS ${TARGETS.cls}, LCP <= ${TARGETS.ratio}x floor`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  console.log('');
  for (const r of results) if (r.warnings.length) console.log(`warnings ${r.route}: ${r.warnings.join(' | ')}`);
  console.log(`${failures === 0 ? 'all targets met' : `${failures} target(s) missed`} on ${results.length} route(s)`);
}

main().catch((err) => {
  console.error(err instanceof UsageError ? `${err.message}\n${USAGE}` : err);
  process.exit(1);
});
