#!/usr/bin/env node
// The main thread while a public page comes to life, as a phone sees it: Chromium at 390 px with a visitor's phone
// user agent and its CPU slowed 4x (DevTools' "4x slowdown", set before the page is requested). Per page: the longest
// task and the Total Blocking Time (the part over 50 ms of each task that ends after the first contentful paint),
// from the load until the page is hydrated and the main thread has been quiet for 2 s; then the page is scrolled to
// its end, a screen at a time (what hydrates when it comes into view), and the longest task of that scroll. Medians
// of --runs.
//
// Each task is measured twice:
//   - cpu: the renderer main thread's own time in the task (a trace's thread time, throttling included). Other
//     processes taking the machine's cores do not count in it: on a shared, busy machine this is the figure to
//     compare (it is what the same page costs a phone 4x slower than this machine's core);
//   - wall: the task's length as the page saw it (the Long Tasks API), machine load included.
//
//   node e2e/scripts/long-tasks.mjs [baseUrl=http://127.0.0.1:3000] [--runs 3] [--routes / /blog ...] [--frames] [--trace] [--rate 4] [--no-js]
//
// --rate: the CPU slowdown (4 unless told).
// Without --routes: /, a town page, a case study, /blog, the newest post, /free-analysis, /roi-calculator.
// --frames: what ran in each long animation frame of the first run (Long Animation Frames API): its scripts (what
//   invoked each, file, function, time) and its rendering (style and layout).
// --no-js: the same pages with the page's scripts off (the no-JS floor): what the browser's own parsing, styling, layout
//   and painting of the server's HTML cost, measured from the load instead of the hydration.
// --trace: what each task over 50 ms (cpu) of the first run was made of: its biggest parts (script evaluation with
//   its file, function calls, timers, style, layout, parsing, garbage collection), from the same trace.
// Playwright turns DevTools' Runtime domain on: under it every `Error` a script creates captures a full stack with line
// numbers, and V8 parses again each function on that stack for its source positions, a whole module when the `Error`
// is made at its top level. A visitor's browser does not pay it; the build keeps React DOM's load-time errors
// stack-free for that reason (docs/decisions.md, "A page comes to life in slices").
// Needs a running site (npm start, or `PORT=… node api/dist/server.js`); only loopback addresses are measured.
// A benchmark, not a test: it exits 0 whatever the figures.
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '3' },
    rate: { type: 'string', default: '4' },
    routes: { type: 'string', multiple: true },
    frames: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    'no-js': { type: 'boolean', default: false },
  },
});
// `--routes / /blog`: the positionals after the first route are routes too.
const base = new URL(positionals.find((p) => /^https?:/.test(p)) ?? 'http://127.0.0.1:3000').origin;
const routeArgs = [...(opts.routes ?? []).flatMap((r) => r.split(',')), ...positionals.filter((p) => p.startsWith('/'))].filter(Boolean);
const host = new URL(base).hostname;
if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) throw new Error(`only loopback servers are measured here, not ${host}`);
const RUNS = Math.max(1, Number(opts.runs) || 3);
const RATE = Math.max(1, Number(opts.rate) || 4);
const LONG_MS = 50;
/** The page's mark when the scroll starts, in the trace too. */
const SCROLL_MARK = 'long-tasks:scroll';
const QUIET_MS = 2000;
const MAX_WAIT_MS = 20_000;
// A phone's browser (not HeadlessChrome, which the site counts as a robot).
const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

async function defaultRoutes() {
  const routes = ['/', '/local-services/danville-ai-automation', '/case-studies/danville-restaurant-automation', '/blog'];
  try {
    const body = await (await fetch(`${base}/api/posts?limit=1`)).json();
    if (body.posts?.[0]?.slug) routes.push(`/blog/${body.posts[0].slug}`);
  } catch (err) {
    console.warn(`could not list posts (${err.message}): no post page`);
  }
  return [...routes, '/free-analysis', '/roi-calculator'];
}

/** Recorded in the page from its first byte: long tasks and frames, the first contentful paint, when it was hydrated. */
const RECORDER = `(() => {
  const rec = (window.__lt = { tasks: [], frames: [], fcp: null, hydrated: null });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) rec.tasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntriesByName('first-contentful-paint')) rec.fcp = e.startTime; }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((l) => {
    for (const f of l.getEntries()) {
      if (f.blockingDuration <= 0) continue;
      const end = f.startTime + f.duration;
      rec.frames.push({
        start: f.startTime, duration: f.duration, blocking: f.blockingDuration,
        render: f.renderStart ? end - f.renderStart : 0, style: f.styleAndLayoutStart ? end - f.styleAndLayoutStart : 0,
        scripts: f.scripts.map((x) => ({ invoker: x.invoker, src: x.sourceURL.split('/').pop(), fn: x.sourceFunctionName, duration: x.duration, forced: x.forcedStyleAndLayoutDuration })),
      });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
  // The document element may not exist yet: the document is watched (RemoteRoutes marks <html data-hydrated>).
  new MutationObserver((_, o) => { if (document.documentElement?.dataset.hydrated) { rec.hydrated = performance.now(); o.disconnect(); } })
    .observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] });
})();`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until the page is hydrated (or, after `since`, at once) and no long task has ended for QUIET_MS. */
async function settle(page, since) {
  const deadline = Date.now() + MAX_WAIT_MS;
  for (;;) {
    const { now, hydrated, lastEnd } = await page.evaluate(() => ({
      now: performance.now(),
      hydrated: window.__lt.hydrated,
      lastEnd: Math.max(0, ...window.__lt.tasks.map((t) => t.start + t.duration)),
    }));
    if ((hydrated !== null || since > 0) && now - Math.max(lastEnd, hydrated ?? 0, since) >= QUIET_MS) return;
    if (Date.now() > deadline) return;
    await sleep(250);
  }
}

// The renderer's tasks with their thread time, and what each was made of (script evaluation and calls, style, layout,
// parsing), without the JavaScript stacks (collecting them would re-parse every script and slow the page).
const TRACE_CATEGORIES = ['toplevel', 'blink.user_timing', 'devtools.timeline', 'v8.execute', 'loading'];

async function measure(browser, route, detail) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    userAgent: PHONE_UA,
    javaScriptEnabled: !opts['no-js'],
  });
  const page = await context.newPage();
  await page.addInitScript(RECORDER);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: RATE });
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { includedCategories: TRACE_CATEGORIES, excludedCategories: ['*'] },
  });
  await page.goto(base + route, { waitUntil: 'load' });
  // With no script the page is as alive as it gets once loaded: quiet from then on.
  await settle(page, opts['no-js'] ? await page.evaluate(() => performance.now()) : 0);
  const load = await page.evaluate(() => window.__lt);
  const scrollFrom = await page.evaluate((mark) => performance.mark(mark).startTime, SCROLL_MARK);
  // Down the page a screen at a time, as a reader would: what hydrates when visible runs now. The pauses are the
  // script's (with the page's scripts off, the page's own timers do not run).
  const { height, screen } = await page.evaluate(() => ({ height: document.documentElement.scrollHeight, screen: innerHeight }));
  for (let y = 0; y < height; y += screen * 0.8) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await sleep(300);
  }
  await settle(page, await page.evaluate(() => performance.now()));
  const all = await page.evaluate(() => window.__lt.tasks);
  const trace = await readTrace(cdp);
  await context.close();

  const fcp = load.fcp ?? 0;
  // The trace's tasks are timed from the first contentful paint in its own clock, the page's from its time origin.
  const { tasks: cpuTasks, parts, scrollAt } = mainThreadTasks(trace, detail);
  const sum = (tasks) => Math.round(tasks.reduce((n, t) => n + Math.max(0, t.duration - LONG_MS), 0));
  const max = (tasks) => Math.round(Math.max(0, ...tasks.map((t) => t.duration)));
  // From the first paint (a task that ends after it) until the scroll; then the scroll.
  const loading = (tasks, paint, scroll) => tasks.filter((t) => t.start + (t.wall ?? t.duration) > paint && t.start < scroll);
  const scrolling = (tasks, scroll) => tasks.filter((t) => t.start >= scroll);
  return {
    cpu: max(loading(cpuTasks, 0, scrollAt)),
    // The longest of the tasks that are mostly the page's code (not the browser rendering the server's HTML).
    cpuScript: max(loading(cpuTasks, 0, scrollAt).filter((t) => t.script >= t.duration / 2)),
    cpuTbt: sum(loading(cpuTasks, 0, scrollAt)),
    cpuScroll: max(scrolling(cpuTasks, scrollAt)),
    wall: max(loading(all, fcp, scrollFrom)),
    wallTbt: sum(loading(all, fcp, scrollFrom)),
    wallScroll: max(scrolling(all, scrollFrom)),
    fcp: Math.round(fcp),
    hydrated: load.hydrated === null ? null : Math.round(load.hydrated),
    frames: load.frames.filter((f) => f.start < scrollFrom),
    // In the page's time, roughly (the first paint as both clocks saw it).
    parts: parts.filter((p) => p.start + p.wall > 0 && p.start < scrollAt).map((p) => ({ ...p, start: p.start + fcp })),
  };
}

// ---- the trace: the renderer's main thread, its tasks' thread time, and (--trace) what they were made of ----------

async function readTrace(cdp) {
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  const chunks = [];
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    chunks.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data);
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(chunks.join(''));
  if (process.env.LONG_TASKS_TRACE) (await import('node:fs')).writeFileSync(`${process.env.LONG_TASKS_TRACE}.${Date.now()}.json`, chunks.join(''));
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

const PARTS = new Set([
  'EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'FireIdleCallback', 'FireAnimationFrame',
  'EventDispatch', 'ParseHTML', 'ParseAuthorStyleSheet', 'Layout', 'UpdateLayoutTree', 'Paint', 'PrePaint', 'Layerize', 'RunMicrotasks', 'MajorGC',
  'MinorGC', 'HitTest', 'V8.CompileCode', 'V8.ParseFunction', 'IntersectionObserverController::computeIntersections', 'Commit',
]);

/** What runs the page's code (compiling it included), as opposed to the browser's own rendering work. */
const SCRIPT_PARTS = new Set(['EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'FireIdleCallback', 'FireAnimationFrame', 'EventDispatch', 'RunMicrotasks']);

function label(e) {
  const d = e.args?.data ?? {};
  const url = String(d.url || e.args?.fileName || '');
  // The file's name, without its folders or query.
  const file = url.split(/[?#]/)[0].split('/').pop();
  return [e.name, d.type, file, d.functionName && `${d.functionName}()`].filter(Boolean).join(' ');
}

/**
 * The tasks of the page's main thread with their thread time as `duration`, timed from its first contentful paint
 * in the trace's own clock (the page's renderer is the one that painted it: an early navigationStart event can be
 * missed, a renderer starts recording a moment after the trace starts), and when the scroll started (the page's
 * `long-tasks:scroll` mark); with `detail`, the parts of each task over 50 ms.
 */
function mainThreadTasks(events, detail) {
  const fcp = events.filter((e) => e.name === 'firstContentfulPaint').sort((a, b) => a.ts - b.ts).at(-1);
  if (!fcp) return { tasks: [], parts: [], scrollAt: Infinity };
  const main = { pid: fcp.pid, tid: fcp.tid };
  const nav = { ts: fcp.ts };
  const mark = events.find((e) => e.name === SCROLL_MARK && e.pid === main.pid);
  const scrollAt = mark ? (mark.ts - fcp.ts) / 1000 : Infinity;
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && typeof e.dur === 'number');
  const tasks = onMain
    .filter((e) => e.name === 'ThreadControllerImpl::RunTask')
    .map((e) => ({ start: (e.ts - nav.ts) / 1000, duration: (e.tdur ?? e.dur) / 1000, wall: e.dur / 1000, event: e }));
  // The page's code in each task of 20 ms or more: the thread time of its outermost script events (the styles and
  // layouts a script forces count as the script's); the rest is the browser's own parsing, styling, layout and paint.
  const byStart = [...onMain].sort((a, b) => a.ts - b.ts);
  for (const t of tasks) {
    t.script = 0;
    if (t.duration < 20) continue;
    const { ts, dur } = t.event;
    let coveredUntil = -1;
    for (const e of byStart) {
      if (e.ts < ts) continue;
      if (e.ts > ts + dur) break;
      if (!SCRIPT_PARTS.has(e.name) || e.ts < coveredUntil) continue;
      t.script += (e.tdur ?? e.dur) / 1000;
      coveredUntil = e.ts + e.dur;
    }
  }
  const parts = !detail
    ? []
    : tasks
        .filter((t) => t.duration > LONG_MS)
        .map((t) => {
          const { ts, dur } = t.event;
          const inside = onMain.filter((e) => e !== t.event && e.ts >= ts && e.ts + e.dur <= ts + dur && PARTS.has(e.name)).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
          // Self time of each part (thread time, as the task's): its own less that of the parts inside it.
          const time = (e) => e.tdur ?? e.dur;
          const self = new Map(inside.map((e) => [e, time(e)]));
          const stack = [];
          for (const e of inside) {
            while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
            if (stack.length) self.set(stack.at(-1), self.get(stack.at(-1)) - time(e));
            stack.push(e);
          }
          const byLabel = new Map();
          for (const e of inside) byLabel.set(label(e), (byLabel.get(label(e)) ?? 0) + self.get(e));
          const top = [...byLabel].sort((a, b) => b[1] - a[1]).filter(([, us]) => us >= 2000).slice(0, 6);
          return { start: t.start, duration: t.duration, wall: t.wall, parts: top.map(([l, us]) => `${l} ${Math.round(us / 1000)}`) };
        });
  return { tasks: tasks.map(({ start, duration, wall, script }) => ({ start, duration, wall, script })), parts, scrollAt };
}

/** One long animation frame: when, how long, how much of it blocked, its scripts and its rendering. */
function describeFrame(f) {
  const scripts = f.scripts
    .filter((x) => x.duration >= 5)
    .map((x) => `${x.invoker}${x.src && !x.invoker.includes(x.src) ? ` ${x.src}` : ''}${x.fn ? ` ${x.fn}()` : ''} ${Math.round(x.duration)}${x.forced >= 5 ? ` (forced layout ${Math.round(x.forced)})` : ''}`);
  return `frame at ${Math.round(f.start)} ms, ${Math.round(f.duration)} ms (blocking ${Math.round(f.blocking)}): ${[...scripts, `rendering ${Math.round(f.render)} (style and layout ${Math.round(f.style)})`].join('; ')}`;
}

// ---- the run -------------------------------------------------------------------------------------------------------

const list = routeArgs.length ? routeArgs : await defaultRoutes();
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
try {
  for (const route of list) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, route, opts.trace && i === 0));
    rows.push({ route, runs });
    console.error(`${route}: longest ${runs.map((r) => `${r.cpu}/${r.wall}`).join(', ')} ms (cpu/wall), longest script task ${runs.map((r) => r.cpuScript).join(', ')} ms, TBT ${runs.map((r) => `${r.cpuTbt}/${r.wallTbt}`).join(', ')} ms`);
    if (opts.frames) for (const f of runs[0].frames) console.error(`  ${describeFrame(f)}`);
    if (opts.trace) for (const t of runs[0].parts) console.error(`  task at ${Math.round(t.start)} ms, ${Math.round(t.duration)} ms cpu (${Math.round(t.wall)} wall): ${t.parts.join('; ')}`);
  }
} finally {
  await browser.close();
}

console.log(`\nMain thread while the page comes to life${opts['no-js'] ? ' (scripts off: the no-JS floor)' : ''}: 390 px, phone UA, CPU ${RATE}x slower, median of ${RUNS} runs, ${base}`);
console.log('longest task and TBT (sum over 50 ms) from the first paint until hydrated and quiet; cpu = thread time, wall = as the page saw it\n');
console.log('longest script task: the longest of the tasks mostly running the page\'s code (script at least half its cpu), the rest being the browser\'s own rendering\n');
console.log('| page | longest task cpu (ms) | longest script task cpu (ms) | TBT cpu (ms) | longest task wall (ms) | TBT wall (ms) | longest while scrolling cpu / wall (ms) | FCP (ms) | hydrated at (ms) |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const { route, runs } of rows) {
  const m = (k) => median(runs.map((r) => r[k] ?? 0));
  console.log(`| ${route} | ${m('cpu')} | ${m('cpuScript')} | ${m('cpuTbt')} | ${m('wall')} | ${m('wallTbt')} | ${m('cpuScroll')} / ${m('wallScroll')} | ${m('fcp')} | ${m('hydrated')} |`);
}
