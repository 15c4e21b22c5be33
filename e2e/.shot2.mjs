import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const base = 'http://127.0.0.1:3210';
const { posts } = await (await fetch(base + '/api/posts')).json();
for (const theme of ['light', 'dark']) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await ctx.addInitScript((t) => localStorage.setItem('theme', t), theme);
  const page = await ctx.newPage();
  await page.goto(`${base}/blog/${posts[1].slug}`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/shots/postfull-${theme}.png`, fullPage: true });
  await ctx.close();
}
await browser.close();
