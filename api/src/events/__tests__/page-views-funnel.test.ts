import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminFunnelSchema } from '@site/contracts/admin';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { startTestServer, type TestServer } from '../../test-support/test-server';

const BROWSER_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const DAY_MS = 86_400_000;

/*
 * From page-view batches, as the browser sends them, to the admin funnel: totals per window and day, top pages and
 * where the views came from. The server's clock moves between days (a browser's `at` is kept only near it).
 */
describe.each(testBackends().map((b) => b.name))('page views in the admin funnel (%s)', (backend) => {
  let server: TestServer;
  let now = Date.parse('2026-05-04T09:00:00.000Z');
  const schema = uniqueSchema();

  beforeAll(async () => {
    server = await startTestServer({
      env: { ...ADMIN_ENV, ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: { clock: () => new Date(now), ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}) },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const send = async (views: [path: string, referrer: string][], headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/api/events`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: server.config.publicOrigin, 'user-agent': BROWSER_UA, ...headers },
      body: JSON.stringify({ events: views.map(([path, referrer]) => ({ name: 'page_view', path, props: { referrer }, at: new Date(now).toISOString() })) }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { recorded: number }).recorded;
  };

  it('counts each stored view once: totals, days, top pages and referrer classes, in the 7- and 30-day windows', async () => {
    // 20 days ago: in the 30-day window only.
    now = Date.parse('2026-04-14T12:00:00.000Z');
    expect(await send([['/blog', 'search'], ['/blog', 'internal']])).toBe(2);
    // Yesterday and today.
    now = Date.parse('2026-05-03T23:59:00.000Z');
    expect(await send([['/', 'direct'], ['/free-analysis', 'internal'], ['/blog', 'social']])).toBe(3);
    now = Date.parse('2026-05-04T09:00:00.000Z');
    expect(await send([['/free-analysis', 'other'], ['/free-analysis', 'search'], ['/', 'internal'], ['/free-analysis', 'direct']])).toBe(4);
    // Not counted: a crawler, a prefetch.
    expect(await send([['/free-analysis', 'search']], { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' })).toBe(0);
    expect(await send([['/free-analysis', 'search']], { 'sec-purpose': 'prefetch' })).toBe(0);

    const res = await fetch(`${server.url}/api/admin/funnel`, { headers: { cookie: await adminCookie(server) } });
    expect(res.status).toBe(200);
    const [week, month] = adminFunnelSchema.parse(await res.json()).windows;

    expect(week).toMatchObject({ days: 7, pageViews: 7 });
    expect(week!.topPages).toEqual([
      { path: '/free-analysis', views: 4 },
      { path: '/', views: 2 },
      { path: '/blog', views: 1 },
    ]);
    expect(week!.referrers).toEqual({ direct: 2, internal: 2, search: 1, social: 1, other: 1 });
    expect(week!.daily.slice(-2).map((d) => [d.date, d.pageViews])).toEqual([
      ['2026-05-03', 3],
      ['2026-05-04', 4],
    ]);

    expect(month).toMatchObject({ days: 30, pageViews: 9 });
    expect(month!.topPages).toEqual([
      { path: '/free-analysis', views: 4 },
      { path: '/blog', views: 3 },
      { path: '/', views: 2 },
    ]);
    expect(month!.referrers).toEqual({ direct: 2, internal: 3, search: 2, social: 1, other: 1 });
    expect(month!.daily.find((d) => d.date === '2026-04-14')?.pageViews).toBe(2);
    expect(Date.parse(month!.from)).toBe(Date.parse('2026-05-04T00:00:00.000Z') - 29 * DAY_MS);
  });
});
