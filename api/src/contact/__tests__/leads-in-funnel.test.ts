import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminFunnelSchema, adminLeadListSchema } from '@site/contracts/admin';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { testBackends, uniqueSchema, type TestDatabase } from '../../test-support/databases';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { createFunnelRepository } from '../../events/funnel-repository';

const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const DAY_MS = 86_400_000;

/*
 * Issue 54, item 5: the funnel's contact step is the leads stored, however they came. A lead sent to POST /api/contact
 * by n8n or curl (no browser, no tracking event) is counted; a browser's `contact_submitted` event that stored no
 * message is not; each lead is counted on its UTC day, in the 7- and 30-day windows, as the inbox beside it lists them.
 */
describe.each(testBackends().map((b) => b.name))('stored leads in the admin funnel (%s)', (backend) => {
  let server: TestServer;
  let cookie: string;
  let now = Date.parse('2026-05-04T09:00:00.000Z');
  const schema = uniqueSchema();

  beforeAll(async () => {
    server = await startTestServer({
      env: { ...ADMIN_ENV, ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: { clock: () => new Date(now), ...(backend === 'postgres' ? { database: { pgSchema: schema } } : {}) },
    });
    cookie = await adminCookie(server);
  });
  afterAll(async () => {
    await server.close();
  });

  const funnel = async () => {
    const res = await fetch(`${server.url}/api/admin/funnel`, { headers: { cookie } });
    expect(res.status).toBe(200);
    return adminFunnelSchema.parse(await res.json()).windows;
  };
  /** A lead as an API client sends it: JSON, no Origin, no browser, no tracking event. */
  const sendLead = async (name: string) => {
    const res = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'n8n' },
      body: JSON.stringify({ name, email: 'owner@example.com', message: 'Please call me back about the chatbot.' }),
    });
    expect(res.status).toBe(200);
  };

  it('counts a lead sent through the API, with no browser event, as 1 contact message', async () => {
    const [week0, month0] = await funnel();
    expect(week0!.contactSubmits).toBe(0);
    expect(month0!.contactSubmits).toBe(0);

    await sendLead('Maria Lopez');

    const leads = adminLeadListSchema.parse(await (await fetch(`${server.url}/api/admin/leads`, { headers: { cookie } })).json());
    expect(leads.leads).toHaveLength(1);
    const [week, month] = await funnel();
    expect(week!.contactSubmits).toBe(1);
    expect(month!.contactSubmits).toBe(1);
    expect(week!.daily.at(-1)).toMatchObject({ date: '2026-05-04', contactSubmits: 1 });
  });

  it('counts each stored lead on its day and in its windows, and a browser event that stored nothing not at all', async () => {
    // 20 days ago: in the 30-day window only; 40 days ago: in neither.
    now = Date.parse('2026-04-14T12:00:00.000Z');
    await sendLead('Twenty days ago');
    now = Date.parse('2026-03-25T12:00:00.000Z');
    await sendLead('Forty days ago');
    // Yesterday, just before midnight UTC.
    now = Date.parse('2026-05-03T23:59:30.000Z');
    await sendLead('Yesterday');
    now = Date.parse('2026-05-04T10:00:00.000Z');
    // A browser says it submitted the form, but no message was stored (it failed, or was a replay): not a lead.
    const event = await fetch(`${server.url}/api/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.config.publicOrigin, 'user-agent': BROWSER_UA },
      body: JSON.stringify({ name: 'contact_submitted', path: '/contact', at: new Date(now).toISOString() }),
    });
    expect(event.status).toBeLessThan(300);

    const [week, month] = await funnel();
    // Today's lead of the test before, yesterday's.
    expect(week!.contactSubmits).toBe(2);
    expect(week!.daily.slice(-2).map((d) => [d.date, d.contactSubmits])).toEqual([
      ['2026-05-03', 1],
      ['2026-05-04', 1],
    ]);
    expect(month!.contactSubmits).toBe(3);
    expect(month!.daily.find((d) => d.date === '2026-04-14')?.contactSubmits).toBe(1);
    expect(Date.parse(month!.from)).toBe(Date.parse('2026-05-04T00:00:00.000Z') - 29 * DAY_MS);
    // The other steps keep their sources: no analysis, no page view was sent.
    expect(month).toMatchObject({ analysesStarted: 0, analysesCompleted: 0, pageViews: 0 });
  });
});

/** The contact step's query reads the created_at index over the period only, on both engines. */
for (const backend of testBackends()) {
  describe(`the funnel's lead count (${backend.name})`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await backend.open();
    });
    afterAll(async () => {
      await database?.dispose();
    });

    it('is one range read of an index on created_at, never a scan of every message', async () => {
      const db = database.handle.db;
      const base = Date.parse('2025-01-01T00:00:00.000Z');
      for (let chunk = 0; chunk < 5; chunk += 1) {
        await db
          .insertInto('contact_messages')
          .values(
            Array.from({ length: 200 }, (_, i) => {
              const k = chunk * 200 + i;
              return {
                id: `lead_${String(k).padStart(5, '0')}`, created_at: new Date(base + k * 3_600_000).toISOString(), ip_hash: 'h', user_agent: null, name: `Lead ${k}`,
                email: `l${k}@example.com`, company: null, subject: null, message: 'Hello', mail_status: 'disabled' as const, mail_attempts: 0, mail_next_attempt_at: null,
                mail_last_error: null, mail_sent_at: null,
              };
            }),
          )
          .execute();
      }
      await db.executeQuery(CompiledQuery.raw('analyze'));
      const caught: RootOperationNode[] = [];
      const catcher: KyselyPlugin = { transformQuery: ({ node }) => (caught.push(node), node), transformResult: async ({ result }) => result };
      // Days 10 to 12 of the messages, one an hour: 24 a day.
      const days = await createFunnelRepository(db.withPlugin(catcher)).leadsByDay('2025-01-11T00:00:00.000Z', '2025-01-14T00:00:00.000Z');
      expect(days.sort((a, b) => a.day.localeCompare(b.day))).toEqual([
        { day: '2025-01-11', count: 24 },
        { day: '2025-01-12', count: 24 },
        { day: '2025-01-13', count: 24 },
      ]);
      expect(caught).toHaveLength(1);
      const compiled = db.getExecutor().compileQuery(caught[0]!, { queryId: 'plan' } as never);
      if (backend.name === 'sqlite') {
        const plan = (await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]))).rows.map((r) => r.detail).join('\n');
        expect(plan, compiled.sql).toMatch(/USING (COVERING )?INDEX contact_messages_created\w* \(created_at>\? AND created_at<\?\)/);
        expect(plan).not.toMatch(/^SCAN contact_messages$/m);
      } else {
        const plan = (await db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]))).rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan, compiled.sql).toMatch(/Index (Only )?Scan using contact_messages_created\w*/);
        expect(plan).toMatch(/Index Cond: \(\(created_at >= .*\) AND \(created_at < .*\)\)/);
        expect(plan).not.toMatch(/Seq Scan/);
      }
    }, 60_000);
  });
}
