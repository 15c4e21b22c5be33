#!/usr/bin/env node
// The Nu HTML checker (the W3C validator's engine, vnu.jar) on the rendered DOM of every public route: each page
// is opened in Chromium, its DOM serialized once its content is there, and all of them checked in one java run.
// Usage: node e2e/scripts/nu-check.mjs [base-url] [path ...]          (default: http://127.0.0.1:3000, every route)
// Needs java (Debian: apt-get install default-jre-headless) and vnu.jar, which is 32 MB so not a dependency:
//   npm install --prefix /tmp/vnu vnu-jar@26.9.27 && VNU_JAR=/tmp/vnu/node_modules/vnu-jar/build/dist/vnu.jar node e2e/scripts/nu-check.mjs
// Exits 1 when the checker reports an error (warnings are printed, not counted).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

const ROUTES = [
  '/',
  '/local-services',
  '/local-services/danville-ai-automation',
  '/local-services/san-ramon-business-automation',
  '/local-services/walnut-creek-ai-solutions',
  '/local-services/pleasanton-automation-services',
  '/case-studies/danville-restaurant-automation',
  '/case-studies/san-ramon-tech-automation',
  '/case-studies/walnut-creek-retail-automation',
  '/case-studies/pleasanton-manufacturing-automation',
  '/case-studies/restaurant-automation',
  '/restaurant-order-bot',
  '/retail-customer-service',
  '/service-business-automation',
  '/roi-calculator',
  '/blog',
  '/blog/how-ai-chatbots-are-transforming-customer-service-for-local-businesses',
  '/blog/category/ai-automation',
  '/free-analysis',
  '/website-analysis',
  '/no-such-page-here',
];

function findJar() {
  if (process.env.VNU_JAR) return process.env.VNU_JAR;
  try {
    return String(createRequire(import.meta.url)('vnu-jar'));
  } catch {
    return null;
  }
}

const jar = findJar();
if (!jar || !existsSync(jar)) {
  console.error('vnu.jar not found: npm install --prefix /tmp/vnu vnu-jar@26.9.27, then set VNU_JAR=/tmp/vnu/node_modules/vnu-jar/build/dist/vnu.jar');
  process.exit(2);
}
try {
  execFileSync('java', ['-version'], { stdio: 'ignore' });
} catch {
  console.error('java not found: apt-get install default-jre-headless');
  process.exit(2);
}

const [base = 'http://127.0.0.1:3000', ...given] = process.argv.slice(2);
const paths = given.length ? given : ROUTES;
const dir = mkdtempSync(path.join(os.tmpdir(), 'nu-check-'));
const files = new Map();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
const page = await browser.newPage();
for (const [i, p] of paths.entries()) {
  await page.goto(new URL(p, base).href, { waitUntil: 'networkidle' });
  await page.locator('h1').first().waitFor({ timeout: 15_000 });
  const html = await page.evaluate(() => `<!DOCTYPE html>\n${document.documentElement.outerHTML}`);
  const file = path.join(dir, `${String(i).padStart(2, '0')}.html`);
  writeFileSync(file, html);
  files.set(file, p);
}
await browser.close();

const run = spawnSync('java', ['-jar', jar, '--format', 'json', ...files.keys()], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const { messages = [] } = JSON.parse(run.stderr || run.stdout || '{}');
// The checker's CSS parser predates some valid CSS (a custom property holding `var(--n) * 0.05 + 1`, as sonner's
// injected toaster styles have): those are listed apart and do not count as errors of the page's HTML.
// Nor, as of vnu-jar 26.9.27, does it know that the HTML standard allows `blocking` on a `<link rel="expect">` (the
// standard's "expect" link type, whose render-blocking the page's head uses: docs/decisions.md, "The first paint waits
// for the page's markup"); only that message, on a link whose rel is "expect", is set apart with the CSS ones.
const isCheckerLimit = (m) =>
  m.type === 'error' &&
  (/^CSS: Parse Error/.test(m.message) || (/“blocking” attribute must have a “rel” attribute/.test(m.message) && /<link rel="expect"/.test(m.extract ?? '')));
let errors = 0;
for (const [file, route] of files) {
  const own = messages.filter((m) => m.url && m.url.endsWith(path.basename(file)));
  const pageErrors = own.filter((m) => m.type === 'error' && !isCheckerLimit(m)).length;
  errors += pageErrors;
  console.log(
    `${route}: ${pageErrors} errors, ${own.filter((m) => m.subType === 'warning').length} warnings, ${own.filter(isCheckerLimit).length} checker limits (CSS parser, rel=expect)`,
  );
  for (const m of own) console.log(`  ${isCheckerLimit(m) ? 'checker-limit' : m.type === 'error' ? 'error' : m.subType ?? m.type} ${m.lastLine ?? ''}:${m.firstColumn ?? ''} ${m.message}${m.extract ? `  [${m.extract.replace(/\s+/g, ' ').slice(0, 120)}]` : ''}`);
}
console.log(`\n${files.size} pages, ${errors} errors`);
process.exit(errors ? 1 : 0);
