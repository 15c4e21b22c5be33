import { chromium, devices, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { adminFunnelSchema, type FunnelWindow } from '@site/contracts/admin';
import { releaseErrorsSchema, type ReleaseErrors } from '@site/contracts/release-errors';
import { expect, test } from '../support/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium';
import { E2E_ADMIN_PASSWORD } from '../support/env';
import { watchPageErrors } from '../support/page-errors';
import { startSiteServer, type RunningServer } from '../support/servers';

/*
 * Page views, from a real browser to the owner's dashboard. This file runs its own server with an empty database:
 * every other spec file loads pages of the suite's server at the same time, and each of their views counts there,
 * so only a server of its own lets these tests say "exactly 5 more", which also fails when a view is counted twice.
 */

test.describe.configure({ mode: 'serial' });

/** A person's desktop Chrome. */
const PERSON = devices['Desktop Chrome'].userAgent;

let site: RunningServer;
/**
 * A browser of this file's own, whose every request says PERSON. A context's userAgent option is applied per page
 * through DevTools; a beacon sent while its page unloads goes out after the page is gone, with the browser's own
 * headless UA (HeadlessChrome), which the server rightly does not count. A person's browser has one UA throughout.
 */
let browser: Browser;
let admin: BrowserContext;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  site = await startSiteServer((url) => ({ ADMIN_PASSWORD: E2E_ADMIN_PASSWORD, PUBLIC_ORIGIN: url, RATE_LIMIT_MULTIPLIER: '100' }));
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, `--user-agent=${PERSON}`] });
  admin = await browser.newContext({ baseURL: site.url });
  const login = await admin.request.post('/api/admin/login', { headers: { origin: site.url }, data: { password: E2E_ADMIN_PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
});

test.afterAll(async () => {
  await admin?.close();
  await browser?.close();
  await site?.stop();
});

/** The last 7 days of the admin funnel, as the dashboard reads it. */
async function funnelWeek(): Promise<FunnelWindow> {
  const res = await admin.request.get('/api/admin/funnel');
  expect(res.status()).toBe(200);
  return adminFunnelSchema.parse(await res.json()).windows.find((w) => w.days === 7)!;
}

const views = async () => (await funnelWeek()).pageViews;

async function visitor(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL: site.url, ...options });
}

/** Opens a page and waits until its server-rendered HTML is hydrated (the shell's page-view hook has run by then). */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/**
 * Records what the page hands to the network for POST /api/events (beacon or fetch), with the body, and takes the
 * beacon away when `readable` (Playwright cannot read a beacon's body or answer; a keepalive fetch it can).
 */
async function spyOnTracking(context: BrowserContext, { readable = false } = {}) {
  await context.addInitScript((removeBeacon) => {
    const sent: { transport: string; body: string | null }[] = [];
    (window as unknown as { __tracking: typeof sent }).__tracking = sent;
    const beacon = navigator.sendBeacon?.bind(navigator);
    Object.defineProperty(navigator, 'sendBeacon', {
      configurable: true,
      value: removeBeacon
        ? undefined
        : (url: string, data?: BodyInit | null) => {
            const entry = { transport: 'beacon', body: null as string | null };
            sent.push(entry);
            if (data instanceof Blob) void data.text().then((t) => (entry.body = t));
            return beacon!(url, data);
          },
    });
    const fetch = window.fetch.bind(window);
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/api/events')) sent.push({ transport: 'fetch', body: typeof init?.body === 'string' ? init.body : null });
      return fetch(input, init);
    };
  }, readable);
}

/** What the spy saw, read after a synchronous pagehide (the tracker sends in that handler). */
const tracked = (page: Page) => page.evaluate(() => (window as unknown as { __tracking: { transport: string; body: string | null }[] }).__tracking);
const pagehide = (page: Page) => page.evaluate(() => void window.dispatchEvent(new PageTransitionEvent('pagehide')));
type SentEvent = { name: string; path: string; props?: { referrer?: string; app?: string } };
/**
 * The views of a beacon: a page view with its referrer class, a `remote_view` (issue 34's count per release) with its
 * app. A body is `{ events }`, or one event alone (packages/ui/src/track.ts): other events of the page (a scroll
 * depth, a time on page on a slow machine) may go out in a beacon of their own first, and are not views.
 */
const viewsIn = (body: string | null) => {
  const parsed = JSON.parse(body ?? '{}') as { events?: SentEvent[] } & Partial<SentEvent>;
  const events = parsed.events ?? (parsed.name ? [parsed as SentEvent] : []);
  return events.filter((e) => e.name === 'page_view' || e.name === 'remote_view').map((e) => [e.name, e.path, e.props?.referrer ?? e.props?.app]);
};

test('3 pages opened and 2 links followed are 5 page views on the right paths, in the funnel API and on the dashboard; two 404s are none', async () => {
  test.setTimeout(90_000);
  expect(await views(), 'a fresh server has no page view').toBe(0);
  const post = ((await (await admin.request.get('/api/posts')).json()) as { posts: { slug: string; title: string }[] }).posts[0]!;

  const context = await visitor();
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  await open(page, '/case-studies/danville-restaurant-automation');
  await open(page, '/local-services/san-ramon-business-automation');
  // Pages that answered 404 are not page views (nor Top pages): an unknown report id, an unknown address, each
  // loaded fresh in a tab of its own (the browser logs a 404 document as an error, which this page's watch would
  // rightly report), then closed, which sends what its page queued.
  for (const [path, heading] of [
    ['/free-analysis/report/garbage', 'Report not found'],
    ['/no-such-page', 'Oops! Page not found'],
  ] as const) {
    const lost = await context.newPage();
    await open(lost, path);
    await expect(lost.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await lost.close({ runBeforeUnload: true });
  }
  await open(page, '/blog');
  await page.getByRole('main').getByRole('link', { name: post.title }).first().click();
  await expect(page).toHaveURL(new RegExp(`/blog/${post.slug}$`));
  await expect(page.getByRole('heading', { level: 1, name: post.title })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('banner').getByRole('link', { name: 'Free Analysis' }).click();
  await expect(page).toHaveURL(/\/free-analysis$/);
  await expect(page.getByRole('heading', { level: 1, name: /Free Business Growth Scorecard/ })).toBeVisible({ timeout: 15_000 });
  errors.expectClean();
  // Leaving fires pagehide: the queued views go out in one real sendBeacon, which the browser delivers after the page.
  await page.goto('about:blank');

  const expected = [
    { path: '/blog', views: 1 },
    { path: `/blog/${post.slug}`, views: 1 },
    { path: '/case-studies/danville-restaurant-automation', views: 1 },
    { path: '/free-analysis', views: 1 },
    { path: '/local-services/san-ramon-business-automation', views: 1 },
  ];
  await expect.poll(async () => (await funnelWeek()).pageViews, { message: 'the beacon reached the API' }).toBe(5);
  const week = await funnelWeek();
  expect(week.topPages).toEqual(expected);
  expect(week.daily.at(-1)?.pageViews).toBe(5);
  // Typed addresses have no referrer; the two links were followed inside the site.
  expect(week.referrers).toEqual({ direct: 3, internal: 2, search: 0, social: 0, other: 0 });
  await context.close();

  // The owner's screen.
  const dashboard = await admin.newPage();
  await dashboard.goto('/admin/dashboard');
  const panel = dashboard.getByRole('region', { name: 'Visitor funnel' });
  // The dashboard is a lazily loaded screen of a client-rendered remote: slow on a busy machine.
  await expect(panel).toBeVisible({ timeout: 20_000 });
  await expect(panel.getByText(/Last 7 days \(.*\): 5 page views,/)).toBeVisible();
  const top = panel.getByRole('list', { name: 'Top pages' }).getByRole('listitem');
  await expect(top).toHaveText(expected.map((p) => `${p.path}1 view`));
  await expect(panel.getByRole('term').filter({ hasText: /^Direct/ }).locator('+ dd')).toHaveText('3 (60%)');
  await expect(panel.getByRole('term').filter({ hasText: 'From another page of this site' }).locator('+ dd')).toHaveText('2 (40%)');
  await dashboard.close();
  expect(await views(), 'opening the admin pages is not a page view').toBe(5);
});

test('a server-rendered page counts one view when it hydrates; Do Not Track and Global Privacy Control send nothing', async () => {
  test.setTimeout(90_000);
  const before = await views();
  const steps = async (context: BrowserContext) => {
    const page = await context.newPage();
    await open(page, '/local-services/walnut-creek-ai-solutions');
    await page.getByRole('link', { name: 'All service areas', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Local AI Automation Services' })).toBeVisible({ timeout: 15_000 });
    await pagehide(page);
    return page;
  };

  // A browser that allows tracking: exactly one view for the hydrated page, one for the link, in one beacon.
  const allowed = await visitor();
  await spyOnTracking(allowed);
  const page = await steps(allowed);
  // Usually one beacon; two when the queue's own timer went off before the pagehide. The views wait for the page's
  // release token before they go (a beacon of another event may come first), so the poll waits for them.
  const sentViews = async () => {
    const sent = await tracked(page);
    return sent.every((s) => s.transport === 'beacon' && s.body !== null) ? sent.flatMap((s) => viewsIn(s.body)) : 'a beacon still being read';
  };
  await expect.poll(sentViews, { message: 'the views were handed to the network in beacons' }).toEqual([
    ['page_view', '/local-services/walnut-creek-ai-solutions', 'direct'],
    ['page_view', '/local-services', 'internal'],
    // The page the link opened is counted against the marketing remote's release too (the first page, by the server).
    ['remote_view', '/local-services', 'marketing'],
  ]);
  // The beacon is delivered by the browser after it is handed over; closing the context before it arrives can drop it
  // (seen once in a full suite on a busy machine): the server counts them first, as in the test above.
  await expect.poll(views, { message: 'the beacon reached the API' }).toBe(before + 2);
  await allowed.close();

  for (const [name, optOut] of [
    ['Do Not Track', () => Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1', configurable: true })],
    ['Global Privacy Control', () => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true })],
  ] as const) {
    const context = await visitor();
    await context.addInitScript(optOut);
    await spyOnTracking(context);
    const optedOut = await steps(context);
    // The same steps that sent a beacon above, up to the same synchronous pagehide: nothing handed to the network.
    expect(await tracked(optedOut), name).toEqual([]);
    await context.close();
  }
  expect(await views()).toBe(before + 2);
});

test("a crawler's page views reach the API and are not counted", async () => {
  const before = await views();
  const googlebot = await visitor({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
  await spyOnTracking(googlebot, { readable: true });
  const page = await googlebot.newPage();
  // Waited for from the start: the queue's timer may send before the pagehide below does.
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/events') && r.request().method() === 'POST');
  await open(page, '/local-services/pleasanton-automation-services');
  await pagehide(page);
  const response = await answered;
  expect(viewsIn(response.request().postData() ?? null)).toEqual([['page_view', '/local-services/pleasanton-automation-services', 'direct']]);
  expect(response.status()).toBe(202);
  expect(await response.json()).toEqual({ accepted: true, recorded: 0 });
  await googlebot.close();
  expect(await views()).toBe(before);
  expect((await funnelWeek()).topPages.map((p) => p.path)).not.toContain('/local-services/pleasanton-automation-services');
});

/** The admin's errors per release, as the dashboard reads them. */
async function releaseErrors(): Promise<ReleaseErrors> {
  const res = await admin.request.get('/api/admin/release-errors');
  expect(res.status()).toBe(200);
  return releaseErrorsSchema.parse(await res.json());
}

test("a remote that fails in a visitor's browser is counted against its release, and the owner reads it on the dashboard", async () => {
  test.setTimeout(90_000);
  const servedBlog = (await releaseErrors()).releases.find((r) => r.app === 'blog' && r.served)!;
  expect(servedBlog, 'the blog has a served release').toBeTruthy();
  const before = servedBlog.day.clientErrors;

  // A visitor whose network loses the blog's code (a CDN hiccup, a release whose files are gone): every file of the
  // blog remote fails, the rest of the site works.
  const context = await visitor();
  await context.route(/\/mfe\/blog\//, (route) => route.abort('connectionreset'));
  const page = await context.newPage();
  await open(page, '/case-studies/danville-restaurant-automation');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/events') && r.method() === 'POST' && (r.postData() ?? '').includes('remote_error'));
  await page.getByRole('banner').getByRole('link', { name: 'Blog', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'This section is temporarily unavailable' })).toBeVisible({ timeout: 15_000 });
  await pagehide(page);
  await sent;
  await context.close();

  // Counted against the blog's served release (every instance's counts are added up every few seconds).
  await expect
    .poll(async () => (await releaseErrors()).releases.find((r) => r.app === 'blog' && r.release === servedBlog.release)?.day.clientErrors, {
      message: "the browser's report reached the blog's release",
      timeout: 20_000,
    })
    .toBe(before + 1);
  const row = (await releaseErrors()).releases.find((r) => r.app === 'blog' && r.release === servedBlog.release)!;
  // Only the first line of the message, never a stack.
  expect(row.lastError).toBeTruthy();
  expect(row.lastError).not.toContain('\n');
  expect(row.lastError).not.toMatch(/\bat .+:\d+:\d+/);

  // The owner's screen: the dashboard's Errors per release shows the blog's release with its client error.
  const dashboard = await admin.newPage();
  await dashboard.goto('/admin/dashboard');
  const panel = dashboard.getByRole('region', { name: 'Errors per release' });
  await expect(panel).toBeVisible({ timeout: 20_000 });
  const blog = panel.getByRole('listitem').filter({ hasText: `blog ${servedBlog.release}` });
  await expect(blog).toContainText('Served');
  const day = blog.locator('div').filter({ has: dashboard.getByText('Last 24 hours', { exact: true }) }).last();
  // The count, and from how many distinct visitors (browser errors decide nothing below RELEASE_ERROR_MIN_REPORTERS).
  await expect(day.getByRole('term').filter({ hasText: 'Browser errors' }).locator('+ dd')).toHaveText(new RegExp(`^${before + 1} from \\d+ visitors?$`));
  await expect(blog.getByText(row.lastError!, { exact: true })).toBeVisible();
  await dashboard.close();
});
