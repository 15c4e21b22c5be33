import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger';
import { createFileMediaStore } from '../media/media-store';
import { contactMessage } from '../test-support/site-client';
import { startTestServer, type TestServer } from '../test-support/test-server';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the database has no room (SQLITE_FULL)', () => {
  it('a contact message is answered 507 with a clear sentence, the log says SQLITE_FULL, and health says the disk is full', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
    server = await startTestServer({ deps: { logger } });
    const before = await (await fetch(`${server.url}/api/health`)).json();
    expect(before).toMatchObject({ status: 'ok', disk: 'ok' });

    // SQLite's own page limit at the pages it has: the next write that needs a page fails as a full disk would.
    const db = server.instance.db;
    const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]!.page_count;
    await sql.raw(`pragma max_page_count = ${pages}`).execute(db);

    const answer = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.config.publicOrigin },
      body: JSON.stringify({ ...contactMessage('disk-full'), message: 'A long message. '.repeat(300) }),
    });
    expect(answer.status).toBe(507);
    const body = (await answer.json()) as Record<string, unknown>;
    const message = 'The server has no room to store this right now. Please try again later.';
    // The contact endpoint keeps the spec's `success: false` and `message` beside the envelope.
    expect(body).toMatchObject({ success: false, message, error: { code: 'insufficient_storage', message } });

    const logged = lines.find((line) => line.msg === 'request failed: no room to store');
    expect(logged).toMatchObject({ level: 50, disk: { problem: 'full', code: 'SQLITE_FULL' }, err: { code: 'SQLITE_FULL' } });

    const health = await fetch(`${server.url}/api/health`);
    // Reads still work: 200, degraded, naming the disk.
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'degraded', db: 'ok', disk: 'full' });
    expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(200);
    // Nothing half-written is served: the message is not in the inbox count.
    const rows = await sql<{ n: number }>`select count(*) as n from contact_messages`.execute(db);
    expect(Number(rows.rows[0]!.n)).toBe(0);
  });
});

/** Mounts a 1 MB tmpfs at `dir` (root may, in the test machine); false where mounting is not allowed. */
function mountTinyDisk(dir: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a media file written to a disk with no room', () => {
  it('fails with ENOSPC, leaves no file at its name and no temp file, and a later write that fits succeeds', async (context) => {
    const root = await mkdtemp(path.join(tmpdir(), 'tiny-disk-'));
    if (!mountTinyDisk(root)) {
      await rm(root, { recursive: true, force: true });
      context.skip('mounting a tmpfs needs root');
    }
    try {
      const dir = path.join(root, 'media');
      await mkdir(dir);
      const store = createFileMediaStore(dir);
      await expect(store.put('0123456789abcdef01234567-960.webp', Buffer.alloc(2 * 1024 * 1024, 1))).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(await readdir(dir)).toEqual([]);
      expect(await store.get('0123456789abcdef01234567-960.webp')).toBeUndefined();
      // The room the failed write took is given back.
      await store.put('0123456789abcdef01234567-480.webp', Buffer.alloc(512 * 1024, 1));
      expect((await store.get('0123456789abcdef01234567-480.webp'))?.length).toBe(512 * 1024);
    } finally {
      execFileSync('umount', [root], { stdio: 'ignore' });
      await rm(root, { recursive: true, force: true });
    }
  });
});
