import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployLogPageSchema } from '@site/contracts/deploys';
import { ADMIN_ENV, adminCookie } from '../test-support/admin-session';
import { postgresUrlWithSchema } from '../test-support/child-server';
import { uniqueSchema } from '../test-support/databases';
import { createSiteFixture, MANIFESTS, type SiteFixture } from '../test-support/site-fixture';
import { startTestServer, type TestServer } from '../test-support/test-server';

/*
 * On PostgreSQL the shared store says what is served (issue 51): a release deployed there before the site's first
 * start is what every start serves, `npm start` (RELEASE_IMPORT_BUILDS=changed) included; the build is imported only
 * for an app that has no release at all.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const DEPLOY_SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/deploy-remote.mjs');

describe.skipIf(!databaseUrl)('a build is imported only for an app with no release in the shared store (PostgreSQL)', () => {
  const schema = uniqueSchema();
  let admin: pg.Client;
  let site: SiteFixture;
  let elsewhere: string;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    site = await createSiteFixture();
    elsewhere = await mkdtemp(path.join(tmpdir(), 'import-builds-shared-'));
  });

  afterAll(async () => {
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    await site?.cleanup();
    if (elsewhere) await rm(elsewhere, { recursive: true, force: true });
  });

  const start = (env: Record<string, string> = {}) =>
    startTestServer({ siteRoot: site.root, env: { ...ADMIN_ENV, DATABASE_URL: databaseUrl, RELEASE_POLL_MS: '600000', ...env }, deps: { database: { pgSchema: schema } } });

  async function blog(server: TestServer) {
    const remotes = (await (await fetch(`${server.url}/remotes.json`)).json()) as { blog?: { version: string } };
    const entry = await (await fetch(`${server.url}/mfe/blog/assets/remoteEntry.js`)).text();
    return { version: remotes.blog?.version, entry };
  }

  async function blogLog(server: TestServer) {
    const cookie = await adminCookie(server);
    const page = deployLogPageSchema.parse(await (await fetch(`${server.url}/api/admin/deploys?app=blog`, { headers: { cookie } })).json());
    return page.entries.map((e) => [e.action, e.version, e.result, e.by]);
  }

  it('a release deployed into a fresh database before the first start is served by the first start and by npm start, with nothing imported over it', async () => {
    const from = path.join(elsewhere, 'build');
    await cp(path.join(site.root, 'mfe-blog/dist'), from, { recursive: true });
    await writeFile(path.join(from, 'mfe-manifest.json'), JSON.stringify({ ...MANIFESTS.blog, version: '9.0.0' }));
    await writeFile(path.join(from, 'assets/remoteEntry.js'), 'export const name = "the deployed blog";');
    const deployed = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = { ...process.env, SITE_ROOT: site.root, INIT_CWD: site.root, DATABASE_URL: postgresUrlWithSchema(databaseUrl!, schema), RELEASE_TRUSTED_KEYS: '' };
      execFile(process.execPath, [DEPLOY_SCRIPT, 'deploy', 'blog', '--from', from], { env }, (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    });
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stdout).toMatch(/shared pointer: .* -> 9\.0\.0\n/);
    const expected = { version: '9.0.0', entry: 'export const name = "the deployed blog";' };
    const deployedBy = expect.stringMatching(/^npm run deploy /);

    // The site's first start on that database, then npm start, which imports a build that differs from a build it served.
    for (const mode of ['first', 'changed']) {
      const server = await start({ RELEASE_IMPORT_BUILDS: mode });
      try {
        expect(await blog(server), mode).toEqual(expected);
        expect(await blogLog(server), mode).toEqual([['deploy', '9.0.0', 'ok', deployedBy]]);
      } finally {
        // Not server.close(): that drops the schema, and the next start is on the same database.
        await server.running.close();
        await rm(server.dataDir, { recursive: true, force: true });
      }
    }
    const stored = await admin.query(`SELECT version FROM "${schema}".releases WHERE remote = 'blog' AND version LIKE '%+build.%'`);
    expect(stored.rows).toEqual([]);
    expect((await admin.query(`SELECT version FROM "${schema}".release_pointers WHERE remote = 'blog'`)).rows).toEqual([{ version: '9.0.0' }]);
  }, 60_000);
});
