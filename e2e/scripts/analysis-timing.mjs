#!/usr/bin/env node
// Times the analysis tool in a real browser: from the API's answer to the rendered scorecard (the performance
// measure 'analysis:answer-to-scorecard' the tool records), over several fresh analyses; also the whole click-to-scorecard.
// Usage: node e2e/scripts/analysis-timing.mjs [base-url] [runs]   (start the server first; simulated providers are fine)
import { chromium } from '@playwright/test';

const [base = 'http://127.0.0.1:3000', runsArg = '5'] = process.argv.slice(2);
const runs = Number(runsArg);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
const render = [];
const total = [];
for (let i = 0; i < runs; i++) {
  const page = await browser.newPage();
  await page.goto(`${base}/free-analysis`, { waitUntil: 'networkidle' });
  const name = `Timing Cafe ${Date.now().toString(36)} ${i}`;
  await page.getByLabel('Business name').fill(name);
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Analyze', exact: true }).click();
  await page.getByRole('article', { name: `Scorecard for ${name}` }).waitFor({ timeout: 30_000 });
  total.push(Date.now() - t0);
  await page.waitForFunction(() => performance.getEntriesByName('analysis:answer-to-scorecard').length > 0);
  render.push(await page.evaluate(() => performance.getEntriesByName('analysis:answer-to-scorecard')[0].duration));
  await page.close();
}
await browser.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
console.log(`answer -> rendered scorecard (ms): ${fmt(render)}  median ${median(render).toFixed(0)}`);
console.log(`click Analyze -> scorecard visible (ms, includes the analysis itself): ${fmt(total)}  median ${median(total).toFixed(0)}`);
