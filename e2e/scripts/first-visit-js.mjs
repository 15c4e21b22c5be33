#!/usr/bin/env node
// Prints the JavaScript a first visit to a page downloads (shell + remote + shared chunks), raw and gzipped.
// Usage: node e2e/scripts/first-visit-js.mjs [url ...]   (default http://127.0.0.1:3000/ ; start the server first)
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const urls = process.argv.slice(2).length ? process.argv.slice(2) : ['http://127.0.0.1:3000/'];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
for (const url of urls) {
  const page = await browser.newPage();
  const scripts = [];
  page.on('response', async (res) => {
    if (res.request().resourceType() !== 'script' || res.status() !== 200) return;
    try {
      const body = await res.body();
      scripts.push({ url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    } catch {
      // a response without a body (redirect) carries no JavaScript
    }
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.close();
  const sum = (k) => scripts.reduce((n, s) => n + s[k], 0);
  console.log(`\n${url}: ${scripts.length} scripts, ${(sum('raw') / 1024).toFixed(1)} kB raw, ${(sum('gzip') / 1024).toFixed(1)} kB gzip`);
  for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${(s.gzip / 1024).toFixed(1).padStart(7)} kB  ${s.url}`);
}
await browser.close();
