import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import sharp from 'sharp';
import { mediaItemSchema, mediaListSchema } from '@site/contracts/media';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { testBackends, uniqueSchema } from '../../test-support/databases';
import { plainPng } from '../../test-support/media-fixtures';
import { call, TEST_ORIGIN } from '../../test-support/site-client';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { cleanMediaFilename, MEDIA_FILENAME_MAX } from '../media-filename';

/*
 * Issue 35's security review: a name sent as `filename*=UTF-8''x%00.jpg` was stored as given on SQLite (201) and was a
 * 500 on PostgreSQL that left the upload's original behind in media_blobs. Names are cleaned; an upload whose row
 * cannot be stored leaves neither a row nor an original, on either database.
 */

describe('cleanMediaFilename', () => {
  it('removes control, bidi and invisible characters, keeps the extension, bounds the length, falls back to "image"', () => {
    expect(cleanMediaFilename('x\u0000.jpg')).toBe('x.jpg');
    expect(cleanMediaFilename('invoice\u202egpj.exe')).toBe('invoicegpj.exe');
    expect(cleanMediaFilename('\u2066menu\u2069\u200f photo\u0007\u0085.png')).toBe('menu photo.png');
    expect(cleanMediaFilename('  tabs\tand\nlines  .webp')).toBe('tabs and lines.webp');
    expect(cleanMediaFilename('\ufeff\u200b.png')).toBe('image.png');
    expect(cleanMediaFilename('\u0000\u202e')).toBe('');
    expect(cleanMediaFilename('half\ud800.gif')).toBe('half.gif');
    expect(cleanMediaFilename('famille 👨‍👩‍👧 café.jpg')).toBe('famille 👨‍👩‍👧 café.jpg');
    const long = cleanMediaFilename(`${'é'.repeat(300)}.jpeg`);
    expect(Array.from(long)).toHaveLength(MEDIA_FILENAME_MAX);
    expect(long.endsWith('é.jpeg')).toBe(true);
    // A long tail after the last dot is no extension: it is cut like the rest.
    expect(cleanMediaFilename(`photo.${'x'.repeat(300)}`)).toHaveLength(MEDIA_FILENAME_MAX);
    expect(cleanMediaFilename('trailing...')).toBe('trailing');
    // Worst case for the trailing-dot loop (a regular expression would backtrack on it): quick.
    expect(cleanMediaFilename(`x${'.'.repeat(100_000)}`)).toBe('x');
    expect(cleanMediaFilename(`${'.'.repeat(100_000)}png`)).toBe('image.png');
  });
});

describe.each(testBackends().map((b) => b.name))('media file names and failed uploads (%s)', (backend) => {
  let server: TestServer;
  let cookie: string;
  const schema = uniqueSchema();

  beforeAll(async () => {
    server = await startTestServer({
      env: { ...ADMIN_ENV, PUBLIC_ORIGIN: TEST_ORIGIN, ...(backend === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL } : {}) },
      deps: backend === 'postgres' ? { database: { pgSchema: schema } } : {},
    });
    cookie = await adminCookie(server);
  });
  afterAll(async () => {
    await server.close();
  });

  /** A multipart upload written by hand: `disposition` is the file part's Content-Disposition parameters as sent. */
  async function upload(bytes: Buffer, disposition: string, type: string) {
    const boundary = `----upload${Date.now()}`;
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: ${type}\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${server.url}/api/admin/media`, {
      method: 'POST',
      headers: { origin: TEST_ORIGIN, cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined };
  }
  const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 24);
  const listed = async () => mediaListSchema.parse((await call(server.url, '/api/admin/media?limit=100', { cookie })).json).media;

  /** What the upload of these bytes left in the database and the store: rows of `media`, of `media_blobs`, the original's file. */
  async function leftBehind(bytes: Buffer) {
    const hash = hashOf(bytes);
    const db = server.instance.db;
    const media = await db.selectFrom('media').select('id').where('hash', '=', hash).execute();
    const blobs = await db.selectFrom('media_blobs').select('name').where('name', 'like', `${hash}-%`).execute();
    const file = await access(path.join(server.dataDir, 'media', `${hash}-source`)).then(
      () => true,
      () => false,
    );
    return { media: media.length, blobs: blobs.length, originalFile: file };
  }

  it("stores a name sent as filename* with NUL and bidi characters cleaned (201), as the library lists it", async () => {
    const jpeg = await sharp(await plainPng(23, 17)).jpeg().toBuffer();
    const first = await upload(jpeg, `filename="x.jpg"; filename*=UTF-8''x%00.jpg`, 'image/jpeg');
    expect(first.status).toBe(201);
    expect(mediaItemSchema.parse(first.json).filename).toBe('x.jpg');

    const png = await plainPng(29, 13);
    const second = await upload(png, `filename*=UTF-8''%E2%80%AEmenu%00%E2%81%A6photo%07%E2%81%A9.png`, 'image/png');
    expect(second.status).toBe(201);
    const item = mediaItemSchema.parse(second.json);
    expect(item.filename).toBe('menuphoto.png');

    // Nothing of the name left but its extension: the default name.
    const third = await upload(await plainPng(31, 11), `filename*=UTF-8''%00%E2%80%AE.png`, 'image/png');
    expect(third.status).toBe(201);
    expect(mediaItemSchema.parse(third.json).filename).toBe('image.png');

    const names = (await listed()).map((m) => m.filename);
    expect(names).toEqual(expect.arrayContaining(['x.jpg', 'menuphoto.png', 'image.png']));
    // eslint-disable-next-line no-control-regex -- control characters are what must not be there
    for (const name of names) expect(name).not.toMatch(/[\u0000-\u001f\u202a-\u202e\u2066-\u2069]/u);
  });

  it('leaves no row and no original behind when the row cannot be stored; the same upload works once it can', async () => {
    const png = await plainPng(37, 19);
    // A database failure on storing the row, forced by the database itself (nothing of the app is replaced).
    if (backend === 'postgres') {
      await sql`create function fail_media_insert() returns trigger language plpgsql as $$ begin raise exception 'forced failure'; end $$`.execute(server.instance.db);
      await sql`create trigger fail_media_insert before insert on media for each row execute function fail_media_insert()`.execute(server.instance.db);
    } else {
      await sql`create trigger fail_media_insert before insert on media begin select raise(abort, 'forced failure'); end`.execute(server.instance.db);
    }
    try {
      const failed = await upload(png, `filename="forced.png"`, 'image/png');
      expect(failed.status).toBe(500);
      expect(await leftBehind(png)).toEqual({ media: 0, blobs: 0, originalFile: false });
    } finally {
      await sql`drop trigger fail_media_insert${sql.raw(backend === 'postgres' ? ' on media' : '')}`.execute(server.instance.db);
    }
    // The same bytes again, the database healthy: stored, with its original where this database keeps it.
    const stored = await upload(png, `filename="forced.png"`, 'image/png');
    expect(stored.status).toBe(201);
    expect(await leftBehind(png)).toEqual(backend === 'postgres' ? { media: 1, blobs: 1, originalFile: false } : { media: 1, blobs: 0, originalFile: true });
  });
});
