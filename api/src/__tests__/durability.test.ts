import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bundleMissing, postgresUrlWithSchema, startChildServer, type ChildServer } from '../test-support/child-server';
import { describeNeedingBuild } from '../test-support/built-site';
import { uniqueSchema } from '../test-support/databases';
import { call, contactMessage, cookieOf, sendWebhook, webhookPost, type Answer } from '../test-support/site-client';

/*
 * Crash durability: what the server answered 2xx for is on disk. The built server takes N contact messages, N webhook
 * posts and N analyses at once, is killed with SIGKILL the moment the last 2xx arrives, starts again on the same data
 * and must find every one through the API. SQLite always; PostgreSQL too when TEST_DATABASE_URL is set.
 */
const N = 10;
const PASSWORD = 'durability admin password';
const SECRET = 'durability webhook secret';
const databaseUrl = process.env.TEST_DATABASE_URL;

interface Storage {
  name: string;
  env(): Promise<Record<string, string>>;
  dispose(): Promise<void>;
}

function sqlite(): Storage {
  let dataDir: string | undefined;
  return {
    name: 'sqlite',
    async env() {
      dataDir ??= await mkdtemp(path.join(tmpdir(), 'durability-'));
      return { DATA_DIR: dataDir, SITE_ROOT: dataDir };
    },
    async dispose() {
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function postgres(url: string): Storage {
  const schema = uniqueSchema();
  let dir: string | undefined;
  const admin = () => new pg.Client({ connectionString: url });
  return {
    name: 'postgres',
    async env() {
      if (!dir) {
        dir = await mkdtemp(path.join(tmpdir(), 'durability-pg-'));
        const client = admin();
        await client.connect();
        await client.query(`CREATE SCHEMA "${schema}"`);
        await client.end();
      }
      return { DATABASE_URL: postgresUrlWithSchema(url, schema), DATA_DIR: dir, SITE_ROOT: dir };
    },
    async dispose() {
      const client = admin();
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

const storages = [sqlite(), ...(databaseUrl ? [postgres(databaseUrl)] : [])];

for (const storage of storages) describeNeedingBuild(`kill -9 right after the last 2xx (${storage.name})`, { missing: bundleMissing() }, () => {
  let server: ChildServer | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    env = {
      ...(await storage.env()),
      ADMIN_PASSWORD: PASSWORD,
      WEBHOOK_SECRET: SECRET,
      PUBLIC_ORIGIN: 'https://site.test',
      RATE_LIMIT_MULTIPLIER: '20',
    };
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await storage.dispose();
  });

  it(`finds all ${N} contact messages, ${N} webhook posts and ${N} analyses after a restart`, async () => {
    server = await startChildServer(env);
    const first = server;
    const run = Date.now().toString(36);
    const contacts: string[] = [];
    const slugs: string[] = [];
    const analyses: string[] = [];
    let killedAt = 0;
    let pending = 3 * N;

    // Every request at once; the process dies the moment the last one has answered 2xx.
    const settle = (kind: string, work: Promise<Answer>, keep: (a: Answer) => void) =>
      work.then((answer) => {
        if (answer.status < 200 || answer.status > 299) throw new Error(`${kind} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
        keep(answer);
        pending -= 1;
        if (pending === 0) {
          first.process.kill('SIGKILL');
          killedAt = Date.now();
        }
      });
    const work: Promise<void>[] = [];
    for (let i = 0; i < N; i++) {
      const visitor = contactMessage(`${run}-${i}`);
      work.push(settle('contact', call(first.url, '/api/contact', { method: 'POST', body: visitor }), () => contacts.push(visitor.name)));
      work.push(settle('webhook', sendWebhook(first.url, SECRET, webhookPost(`${run}-${i}`), `${run}-${i}`), (a) => slugs.push(a.json.slug)));
      work.push(
        settle('analysis', call(first.url, '/api/analyze-smb-business', { method: 'POST', body: { businessName: `Durable Bakery ${run} ${i}`, location: 'Danville, CA' } }), (a) =>
          analyses.push(a.json.id),
        ),
      );
    }
    await Promise.all(work);
    const exit = await first.exited;
    expect(exit.signal).toBe('SIGKILL');
    expect(killedAt).toBeGreaterThan(0);

    server = await startChildServer(env);
    const login = await call(server.url, '/api/admin/login', { method: 'POST', body: { password: PASSWORD } });
    expect(login.status).toBe(200);
    const leads = await call(server.url, '/api/admin/leads?limit=100', { cookie: cookieOf(login.headers) });
    expect(leads.json.leads.map((l: { name: string }) => l.name).sort()).toEqual([...contacts].sort());

    for (const slug of slugs) expect((await call(server.url, `/api/posts/${slug}`)).status, `post ${slug}`).toBe(200);
    for (const id of analyses) expect((await call(server.url, `/api/analyses/${id}`)).status, `analysis ${id}`).toBe(200);
    expect(new Set(slugs).size).toBe(N);
    expect(new Set(analyses).size).toBe(N);
  }, 120_000);
});
