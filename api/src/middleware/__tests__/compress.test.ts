import { request } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteFixture, type SiteFixture } from '../../test-support/site-fixture';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/** A raw GET, so the answer's bytes and Content-Encoding are seen exactly as a browser gets them. */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('compression', () => {
  let site: SiteFixture;
  let server: TestServer;
  const bigScript = `export const copy = ${JSON.stringify('Automation for East Bay businesses. '.repeat(400))};`;

  beforeAll(async () => {
    site = await createSiteFixture();
    // As the build writes them (packages/vite-config/precompress.ts): the file and its brotli and gzip copies.
    await site.writeFile('shell/dist/assets/big-Zx81Qw7a.js', bigScript);
    await site.writeFile('shell/dist/assets/big-Zx81Qw7a.js.br', brotliCompressSync(bigScript));
    await site.writeFile('shell/dist/assets/big-Zx81Qw7a.js.gz', gzipSync(bigScript));
    // Built without copies (e.g. by another tool): served as it is.
    await site.writeFile('shell/dist/assets/plain-Qw7aZx81.js', bigScript);
    server = await startTestServer({ siteRoot: site.root });
  });
  afterAll(async () => {
    await server.close();
    await site.cleanup();
  });

  it('serves built scripts brotli-compressed to browsers that accept it, and identical when decoded', async () => {
    const res = await get(`${server.url}/assets/big-Zx81Qw7a.js`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(res.body.length).toBeLessThan(bigScript.length / 5);
    expect(brotliDecompressSync(res.body).toString()).toBe(bigScript);
  });

  it('falls back to gzip, and to the plain file when nothing is accepted', async () => {
    const gz = await get(`${server.url}/assets/big-Zx81Qw7a.js`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(bigScript);
    const plain = await get(`${server.url}/assets/big-Zx81Qw7a.js`, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(bigScript);
  });

  it('serves a file without precompressed copies as it is, and revalidates a brotli copy with its own ETag', async () => {
    const plain = await get(`${server.url}/assets/plain-Qw7aZx81.js`, { 'Accept-Encoding': 'gzip, br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(plain.body.toString()).toBe(bigScript);

    const br = await get(`${server.url}/assets/big-Zx81Qw7a.js`, { 'Accept-Encoding': 'br' });
    const etag = String(br.headers['etag']);
    expect(etag).toMatch(/-br"$/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const again = await get(`${server.url}/assets/big-Zx81Qw7a.js`, { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    // The identity representation has another validator: a client without brotli gets the full file.
    const identity = await get(`${server.url}/assets/big-Zx81Qw7a.js`, { 'If-None-Match': etag });
    expect([identity.status, identity.body.toString()]).toEqual([200, bigScript]);
  });

  it('compresses large JSON answers of the API but not tiny ones', async () => {
    const health = await get(`${server.url}/api/health`, { 'Accept-Encoding': 'br' });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString()).status).toBeDefined();
    const page = await get(`${server.url}/`, { 'Accept-Encoding': 'gzip', Accept: 'text/html' });
    expect(page.status).toBe(200);
    const html = page.headers['content-encoding'] === 'gzip' ? gunzipSync(page.body).toString() : page.body.toString();
    expect(html).toContain('<!doctype html>');
  });
});
