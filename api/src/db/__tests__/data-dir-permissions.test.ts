import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * The SQLite file under DATA_DIR holds contact details: only the server's user may read it, whatever the umask.
 * Issue 19. The server is started the way `npm start` does (SQLite, no DATABASE_URL) on a temp DATA_DIR.
 */

const CONTACT = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Please call me about automations.' };
const modeOf = async (p: string) => (await stat(p)).mode & 0o777;

/** Every file under `dir` (recursively) with its mode, e.g. { 'site.db': 0o600 }. */
async function fileModes(dir: string): Promise<Record<string, number>> {
  const modes: Record<string, number> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    modes[path.relative(dir, full)] = await modeOf(full);
  }
  return modes;
}

async function startOn(dataDir: string): Promise<TestServer> {
  const server = await startTestServer({ env: { DATA_DIR: dataDir } });
  // A write, so the write-ahead log and its index exist while we look.
  const res = await fetch(`${server.url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(CONTACT),
  });
  expect(res.status).toBe(200);
  return server;
}

describe('DATA_DIR permissions (SQLite)', () => {
  let parent: string;
  let umask: number;
  const servers: TestServer[] = [];

  beforeAll(() => {
    // The usual umask of a login shell and of most service managers: new files 0644, directories 0755.
    umask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(umask);
  });
  beforeEach(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'api-data-perms-'));
  });
  afterEach(async () => {
    while (servers.length) await servers.pop()!.close();
    await rm(parent, { recursive: true, force: true });
  });

  it('creates a fresh DATA_DIR 0700 and the database, its WAL and shared-memory files 0600', async () => {
    const dataDir = path.join(parent, 'data');
    servers.push(await startOn(dataDir));
    expect((await modeOf(dataDir)).toString(8)).toBe('700');
    const modes = await fileModes(dataDir);
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(['site.db', 'site.db-wal', 'site.db-shm']));
    for (const [name, mode] of Object.entries(modes)) expect(`${name} ${mode.toString(8)}`).toBe(`${name} 600`);
    // Nested DATA_DIR: the directories created on the way are private too.
    const nested = path.join(parent, 'a', 'b', 'data');
    servers.push(await startOn(nested));
    expect((await modeOf(path.join(parent, 'a'))).toString(8)).toBe('700');
    expect((await modeOf(nested)).toString(8)).toBe('700');
    expect((await modeOf(path.join(nested, 'site.db'))).toString(8)).toBe('600');
  });

  it('tightens a DATA_DIR and database files an older version left 0755/0644', async () => {
    const dataDir = path.join(parent, 'data');
    const first = await startOn(dataDir);
    await first.close();
    await chmod(dataDir, 0o755);
    for (const name of await readdir(dataDir)) await chmod(path.join(dataDir, name), 0o644);
    expect((await modeOf(path.join(dataDir, 'site.db'))).toString(8)).toBe('644');

    servers.push(await startOn(dataDir));
    expect((await modeOf(dataDir)).toString(8)).toBe('700');
    for (const [name, mode] of Object.entries(await fileModes(dataDir))) expect(`${name} ${mode.toString(8)}`).toBe(`${name} 600`);
  });

  it('keeps the mode of a DATA_DIR the operator made for more than us, and still makes our files 0600', async () => {
    const dataDir = path.join(parent, 'volume');
    await mkdir(path.join(dataDir, 'backups'), { recursive: true });
    await chmod(dataDir, 0o750);
    servers.push(await startOn(dataDir));
    expect((await modeOf(dataDir)).toString(8)).toBe('750');
    const modes = await fileModes(dataDir);
    expect(modes['site.db']?.toString(8)).toBe('600');
    expect(modes['site.db-wal']?.toString(8)).toBe('600');
  });
});
