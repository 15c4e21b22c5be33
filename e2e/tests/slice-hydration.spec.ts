import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '../support/test';
import { deferred } from '../support/deferred';
import { SITE_DATA_ELEMENT_ID } from '@site/contracts/server-render';
import { BASE_URL } from '../support/env';
import { watchPageErrors } from '../support/page-errors';

/*
 * A page comes to life in slices (issue 54, item 11): the shell's header first, the page's remote after, and the
 * parts of a long page below the screen when they come into view (or the browser is idle). Meanwhile the server's
 * HTML is the page: what a visitor taps works, or visibly waits for the code and then takes effect.
 */

/** Whether React has hydrated the element with this id (it marks each element it owns with its fiber). */
const hydrated = (page: Page, id: string) =>
  page.evaluate((elementId) => Object.keys(document.getElementById(elementId) ?? {}).some((k) => k.startsWith('__reactFiber$')), id);

test('a tap on the theme toggle and on the phone menu right at load, before the page has any code, take effect', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // None of the site's scripts arrives until the taps are made: the visitor's phone is still downloading them.
  const codeHeld = deferred();
  await page.route(/\/(assets|mfe)\/.*\.js(\?.*)?$/, async (route) => {
    await codeHeld.promise;
    await route.continue();
  });
  const errors = watchPageErrors(page);
  try {
    await page.goto('/', { waitUntil: 'commit' });
    await page.waitForLoadState('domcontentloaded');
    const toggle = page.getByRole('button', { name: /^Theme: Light/ });
    await toggle.click();
    // The toggle has no code yet: it shows that it waits, and the theme has not changed.
    await expect(toggle).toHaveAttribute('aria-busy', 'true');
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    // The phone menu needs none: the browser opens it (a popover) at once.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
    await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');
  } finally {
    codeHeld.resolve();
  }
  // Once the code has come, the held tap is made: the page turns dark and the toggle stops waiting (the whole site's
  // code arrives at once here: on a loaded machine, seconds).
  await expect(page.locator('html')).toHaveClass(/dark/, { timeout: 20_000 });
  const toggle = page.getByRole('button', { name: /^Theme: Dark/ });
  await expect(toggle).toBeVisible();
  await expect(toggle).not.toHaveAttribute('aria-busy');
  await expect(toggle).not.toHaveAttribute('data-waiting');
  // The menu opened before the code stays open, and its button now says what a tap on it does.
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close menu' })).toBeVisible();
  await page.getByRole('button', { name: 'Close menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Mobile' })).toBeHidden();
  errors.expectClean();
});

test('a section below the screen keeps its server HTML, with no mismatch, and comes to life when scrolled to', async ({ page }) => {
  // A browser that is never idle: only coming into view (or a touch) may bring the section to life.
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
  const errors = watchPageErrors(page);
  await page.goto('/');
  // The page is live (its hero hydrated) while the calculator far below is still the server's HTML.
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await expect(page.locator('#roi-calculator')).not.toBeInViewport();
  await page.evaluate(() => ((window as unknown as { serverSection: Element | null }).serverSection = document.getElementById('roi-calculator')));
  // Given time, it stays so: nothing hydrates it until it is needed.
  await page.waitForTimeout(1000);
  expect(await hydrated(page, 'roi-calculator')).toBe(false);

  await page.locator('#roi-calculator').scrollIntoViewIfNeeded();
  await expect.poll(() => hydrated(page, 'roi-calculator')).toBe(true);
  // React kept the server's element (no mismatch, nothing rendered again) and made it work.
  expect(await page.evaluate(() => (window as unknown as { serverSection: Element | null }).serverSection === document.getElementById('roi-calculator'))).toBe(true);
  const calculator = page.locator('#roi-calculator');
  await calculator.getByRole('button', { name: 'Calculate ROI' }).click();
  await expect(calculator.getByRole('heading', { name: 'Your estimated savings' })).toBeVisible();
  errors.expectClean();
});

test('a long page lays out only what is near the screen at first, and a section link still lands exactly on its section', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const errors = watchPageErrors(page);
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  // The browser skips the rendering of a section far below (content-visibility), not of the hero on screen.
  const rendered = (selector: string) =>
    page.locator(selector).first().evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true } as CheckVisibilityOptions));
  expect(await rendered('h1')).toBe(true);
  expect(await rendered('#contact h2')).toBe(false);
  expect(await rendered('footer a')).toBe(false);
  // A printed page shows every section.
  await page.emulateMedia({ media: 'print' });
  expect(await rendered('#contact h2')).toBe(true);
  await page.emulateMedia({ media: 'screen' });
  expect(await rendered('#contact h2')).toBe(false);
  // A section link lays the page out in full first, so the section ends right under the sticky header.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.locator('#mobile-menu').getByRole('button', { name: 'Free Consultation' }).click();
  await expect(page.locator('#contact h2')).toBeInViewport();
  await expect
    .poll(() => page.locator('#contact').evaluate((el) => Math.abs(el.getBoundingClientRect().top - document.querySelector('header')!.getBoundingClientRect().bottom)), {
      timeout: 10_000,
    })
    .toBeLessThanOrEqual(8);
  expect(await rendered('#contact h2')).toBe(true);
  errors.expectClean();
});

test('the sections with a form below the screen join the page once it has loaded, and a scroll or a printout before then has them at once', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // What the page shows when the browser has parsed it, the moment Chrome's autofill reads every field of the page.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      if (location.pathname !== '/') return;
      const shown = (id: string) => getComputedStyle(document.getElementById(id)!).display !== 'none';
      (window as unknown as { atParsed: boolean[] }).atParsed = ['projects', 'roi-calculator', 'contact'].map(shown);
    });
  });
  const atParsed = () => page.evaluate(() => (window as unknown as { atParsed: boolean[] }).atParsed);
  const calculator = page.getByRole('heading', { name: 'What is your busywork costing you?' });
  const contact = page.getByRole('heading', { name: "Let's Talk About Your Business" });
  const errors = watchPageErrors(page);

  await page.goto('/');
  expect(await atParsed()).toEqual([true, false, false]);
  // Loaded, the page has them without anything done (no scroll, no tap).
  await expect(calculator).toBeVisible();
  await expect(contact).toBeVisible();

  // Until the frame after the load event (the page's clock is held here: nothing of its own has run since the
  // parse), a printout has them, and so does a scroll.
  await page.clock.install({ time: new Date('2026-12-03T08:00:00Z') });
  await page.clock.pauseAt(new Date('2026-12-03T08:00:01Z'));
  await page.goto('about:blank');
  await page.goto('/', { waitUntil: 'commit' });
  await page.waitForLoadState('load');
  await expect(contact).toBeHidden();
  await page.emulateMedia({ media: 'print' });
  await expect(contact).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  await expect(contact).toBeHidden();
  await page.mouse.wheel(0, 400);
  await expect(contact).toBeVisible();
  await expect(calculator).toBeVisible();
  await page.clock.resume();

  // A page opened at one of them never hides them: the browser scrolls there at once.
  await page.goto('about:blank');
  await page.goto('/#contact');
  expect(await atParsed()).toEqual([true, true, true]);
  await expect(contact).toBeInViewport();
  errors.expectClean();
});

/**
 * The site on another loopback port, through a proxy that sends a page's HTML as a slow network does: up to the end of
 * the site's header, then the rest GAP_MS later. `strip` removes what the page's head says about its first paint.
 */
async function slowPageProxy(path: string, gapMs: number, strip: RegExp | null): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === path) {
      void (async () => {
        let html = await (await fetch(BASE_URL + path, { headers: { 'accept-encoding': 'identity' } })).text();
        if (strip) html = html.replace(strip, '');
        const cut = html.indexOf('</header>') + '</header>'.length;
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.write(html.slice(0, cut));
        setTimeout(() => res.end(html.slice(cut)), gapMs);
      })().catch((err) => res.destroy(err as Error));
      return;
    }
    const upstream = httpRequest(BASE_URL + req.url, { method: req.method, headers: { ...req.headers, host: new URL(BASE_URL).host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

test("the first paint waits for the page's markup: no frame shows the header alone while the rest is on its way", async ({ browser }) => {
  const path = '/local-services/danville-ai-automation';
  const GAP_MS = 600;
  /** What the page's first animation frame (the first paint) had: whether the markup after #root was parsed, and when. */
  const firstFrame = async (strip: RegExp | null) => {
    const proxy = await slowPageProxy(path, GAP_MS, strip);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.addInitScript((lastId) => {
        const start = performance.now();
        requestAnimationFrame(() => {
          (window as unknown as { firstFrame: object }).firstFrame = { parsed: !!document.getElementById(lastId), at: performance.now() - start };
        });
      }, SITE_DATA_ELEMENT_ID);
      await page.goto(proxy.url + path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      return await page.evaluate(() => (window as unknown as { firstFrame: { parsed: boolean; at: number } }).firstFrame);
    } finally {
      await context.close();
      await proxy.close();
    }
  };
  // The page as served: its first frame comes once the whole of #root is there.
  const served = await firstFrame(null);
  expect(served.parsed, `first frame at ${Math.round(served.at)} ms`).toBe(true);
  // The same page without its render-blocking link: the browser paints the header during the gap. That is what the
  // link prevents (and shows that the gap is one the browser would paint in).
  const without = await firstFrame(/<link rel="expect"[^>]*>/);
  expect(without.parsed, `first frame at ${Math.round(without.at)} ms`).toBe(false);
});
