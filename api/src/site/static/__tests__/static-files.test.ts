import http from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkStatsNow, setStatCheckEvery } from '../../../lib/stat-shared';
import { sendStaticFile } from '../static-files';

describe('a file copied into a served folder by another process', () => {
  let dir: string;
  let server: http.Server;
  let base: string;
  let restore: () => void;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'static-files-'));
    await mkdir(path.join(dir, 'assets'));
    // The once-a-second check runs when the test says (checkStatsNow), never in between.
    restore = setStatCheckEvery(3_600_000);
    const app = new Koa();
    app.use(async (ctx) => {
      if (!(await sendStaticFile(ctx, dir, ctx.path, { lookAgain: ctx.query.lookAgain === '1' }))) ctx.status = 404;
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    restore();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(dir, { recursive: true, force: true });
  });

  it('is served at once when the last check saw the folder mid-copy, without it', async () => {
    const file = path.join(dir, 'assets/remoteEntry.js');
    await writeFile(file, 'export const v = 1;\n');
    expect(await (await fetch(`${base}/assets/remoteEntry.js?lookAgain=1`)).text()).toBe('export const v = 1;\n');

    // A dist replaced in place: the check runs between the removal and the copy.
    await rm(file);
    await checkStatsNow();
    await writeFile(file, 'export const version = "1.0.1-redeploy";\n');

    const res = await fetch(`${base}/assets/remoteEntry.js?lookAgain=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String('export const version = "1.0.1-redeploy";\n'.length));
    expect(await res.text()).toBe('export const version = "1.0.1-redeploy";\n');
  });

  it('answers a missing file from memory where no look again was asked for (every page path of the shell)', async () => {
    const file = path.join(dir, 'assets/late.js');
    expect((await fetch(`${base}/assets/late.js`)).status).toBe(404);
    await writeFile(file, 'late');
    expect((await fetch(`${base}/assets/late.js`)).status).toBe(404);
    await checkStatsNow();
    expect((await fetch(`${base}/assets/late.js`)).status).toBe(200);
  });
});
