#!/usr/bin/env node
// Full-page screenshots for a person to look at: every page given, light and dark, desktop and phone.
// Usage: node e2e/scripts/screenshots.mjs <out-dir> [base-url] [path ...]
//   e.g. node e2e/scripts/screenshots.mjs /tmp/shots http://127.0.0.1:3000 / /roi-calculator /blog
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

const [outDir, base = 'http://127.0.0.1:3000', ...paths] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node e2e/scripts/screenshots.mjs <out-dir> [base-url] [path ...]');
  process.exit(2);
}
const pages = paths.length ? paths : ['/'];
const viewports = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
];
mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
for (const theme of ['light', 'dark']) {
  for (const viewport of viewports) {
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    const page = await context.newPage();
    for (const p of pages) {
      await page.goto(new URL(p, base).href, { waitUntil: 'networkidle' });
      await page.evaluate(() => document.fonts.ready);
      // A full-page shot captures beyond the screen, where sections are not rendered yet (content-visibility in
      // packages/ui/src/theme.css): render them all, as a visitor scrolling down would see them.
      await page.evaluate(() => document.documentElement.setAttribute('data-render-all', ''));
      const file = path.join(outDir, `${(p.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home')}-${theme}-${viewport.name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      console.log(`${file}${overflow > 0 ? `  (wider than the screen by ${overflow}px)` : ''}`);
    }
    await context.close();
  }
}
await browser.close();
