import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployTokenCreatedSchema } from '@site/contracts/deploys';
import { EXAMPLE_RELEASE_FILES, EXAMPLE_RELEASE_PUBLIC_KEY, EXAMPLE_RELEASE_SIGNATURE, EXAMPLE_RELEASE_STATEMENT } from '../../http/openapi-releases';
import { ADMIN_ENV, adminCookie } from '../../test-support/admin-session';
import { blogServerModule, createSiteFixture, MANIFESTS, type SiteFixture } from '../../test-support/site-fixture';
import { signDists } from '../../test-support/signed-dists';
import { startTestServer, type TestServer } from '../../test-support/test-server';

/*
 * Issue 52: a CI engineer writes the deploy step from the OpenAPI document alone. Each refusal a pipeline meets is
 * driven here against a running server, and its answer must be one of the examples the document gives for that
 * status, exactly (code and message); every error code the document names for the release endpoints is one the server
 * sends, and every code the release code sends is in the document. A release packed and signed by following the
 * document's words (not the server's code) is served.
 */

const API_SRC = path.resolve(import.meta.dirname, '../..');

interface Envelope {
  error: { code: string; message: string; details?: unknown };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as plain JSON
type Doc = any;

/** The error examples the document gives for an operation's answer of `status`. */
function documented(doc: Doc, route: string, method: string, status: number): Envelope[] {
  const media = doc.paths[route]?.[method]?.responses?.[String(status)]?.content?.['application/json'];
  if (!media) return [];
  return media.examples ? Object.values(media.examples as Record<string, { value: Envelope }>).map((e) => e.value) : [media.example as Envelope];
}

/** A .tar.gz of these files (path -> text), as `tar -czf` of a folder would hold them. */
async function tarGz(files: ReadonlyMap<string, string | Buffer>): Promise<Buffer> {
  const packer = pack();
  const chunks: Buffer[] = [];
  const done = pipeline(packer, createGzip(), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) chunks.push(chunk);
  });
  for (const [name, content] of files) {
    await new Promise<void>((resolve, reject) => packer.entry({ name }, typeof content === 'string' ? Buffer.from(content) : content, (error) => (error ? reject(error) : resolve())));
  }
  packer.finalize();
  await done;
  return Buffer.concat(chunks);
}

/** A blog build: manifest, remote entry and server module. */
function blogBuild(version: string): Map<string, string> {
  return new Map([
    ['mfe-manifest.json', JSON.stringify({ ...MANIFESTS.blog, version, pages: [{ path: '/blog', title: 'Blog', description: 'Guides' }] })],
    ['assets/remoteEntry.js', 'export const title = "Blog";'],
    ['server/routes.js', blogServerModule()],
  ]);
}

/**
 * `release-signature.json` as the document describes it, written without the server's code: every other file with its
 * SHA-256, sorted by path; the UTF-8 of JSON.stringify({ app, version, files }) signed with Ed25519, in base64; the key
 * id the first 16 hex digits of the SHA-256 of the public key's SPKI DER form.
 */
function signAsDocumented(files: ReadonlyMap<string, string>, app: string, version: string, privateKeyPem: string): string {
  const hashed = [...files].map(([file, text]) => [file, createHash('sha256').update(text).digest('hex')] as [string, string]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const bytes = Buffer.from(JSON.stringify({ app, version, files: hashed }), 'utf8');
  const privateKey = createPrivateKey(privateKeyPem);
  const key = createHash('sha256').update(createPublicKey(privateKey).export({ type: 'spki', format: 'der' })).digest('hex').slice(0, 16);
  return JSON.stringify({ app, version, files: hashed, key, signature: sign(null, bytes, privateKey).toString('base64') });
}

/** Every non-test source file of the API, joined (where the server's error codes are written). */
function serverSource(): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '__tests__' || entry.name === 'test-support') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && full !== path.join(API_SRC, 'http/openapi-releases.ts')) out.push(readFileSync(full, 'utf8'));
    }
  };
  walk(API_SRC);
  return out.join('\n');
}

describe('the release endpoints as the OpenAPI document describes them', () => {
  let site: SiteFixture;
  let server: TestServer;
  let doc: Doc;
  let token: string;

  beforeAll(async () => {
    site = await createSiteFixture();
    server = await startTestServer({ siteRoot: site.root, env: ADMIN_ENV });
    doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
    const created = await fetch(`${server.url}/api/admin/deploy-tokens`, {
      method: 'POST',
      headers: { cookie: await adminCookie(server), origin: server.config.publicOrigin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'blog CI', apps: ['blog'] }),
    });
    token = deployTokenCreatedSchema.parse(await created.json()).token;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  const call = async (route: string, init: { method?: string; body?: Buffer | string; bearer?: string | null; json?: boolean } = {}) => {
    const res = await fetch(`${server.url}${route}`, {
      method: init.method ?? 'POST',
      headers: {
        'content-type': init.json ? 'application/json' : 'application/gzip',
        ...(init.bearer === null ? {} : { authorization: `Bearer ${init.bearer ?? token}` }),
      },
      body: init.body,
    });
    return { status: res.status, body: (await res.json()) as Envelope };
  };

  /** The answer is the document's example for its status, exactly. */
  const expectDocumented = (answer: { status: number; body: Envelope }, route: string, method: string, status: number) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(documented(doc, route, method, status), `${method} ${route} ${status}`).toContainEqual(answer.body);
  };

  it('answers each refusal of an upload with a code and message its examples show', async () => {
    const route = '/api/releases/{app}';
    const build = await tarGz(blogBuild('2.0.0'));
    expectDocumented(await call('/api/releases/blog', { body: build, bearer: null }), route, 'post', 401);
    expectDocumented(await call('/api/releases/blog', { body: build, bearer: 'dpl_never-issued' }), route, 'post', 401);
    expectDocumented(await call('/api/releases/shell', { body: build }), route, 'post', 403);
    expectDocumented(await call('/api/releases/blog?version=..%2Fx', { body: build }), route, 'post', 400);
    expectDocumented(await call('/api/releases/blog', { body: 'just text' }), route, 'post', 400);
    // The layout: the built folder's files under a folder of their own are no release.
    const nested = new Map([...blogBuild('2.0.0')].map(([file, text]) => [`dist/${file}`, text]));
    expectDocumented(await call('/api/releases/blog', { body: await tarGz(nested) }), route, 'post', 400);
    const many = new Map([...blogBuild('2.0.0'), ...Array.from({ length: 5_000 }, (_, i) => [`assets/chunk-${i}.js`, ''] as [string, string])]);
    expectDocumented(await call('/api/releases/blog', { body: await tarGz(many) }), route, 'post', 400);
    // Served, then a lower version: refused as a downgrade; the same name again: it exists.
    expect((await call('/api/releases/blog', { body: build })).status).toBe(201);
    expectDocumented(await call('/api/releases/blog', { body: await tarGz(blogBuild('1.0.0')) }), route, 'post', 409);
    const again = await call('/api/releases/blog?version=2.0.0', { body: build });
    expect(again.status).toBe(409);
    expect(documented(doc, route, 'post', 409).map((e) => e.error.code)).toContain(again.body.error.code);
  }, 60_000);

  it('takes the archive the documented tar command makes of a built folder, with any Content-Type', async () => {
    const command = /`(tar -czf release\.tar\.gz -C mfe-blog\/dist \.)`/.exec(doc.paths['/api/releases/{app}'].post.description)?.[1];
    expect(command).toBeDefined();
    const work = await mkdtemp(path.join(tmpdir(), 'ci-step-'));
    try {
      for (const [file, text] of blogBuild('4.0.0')) {
        await mkdir(path.dirname(path.join(work, 'mfe-blog/dist', file)), { recursive: true });
        await writeFile(path.join(work, 'mfe-blog/dist', file), text);
      }
      const [tar, ...args] = command!.split(' ');
      execFileSync(tar!, args, { cwd: work });
      const res = await fetch(`${server.url}/api/releases/blog`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
        body: await readFile(path.join(work, 'release.tar.gz')),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      expect(await res.json()).toMatchObject({ app: 'blog', version: '4.0.0' });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers 413 to a body over the documented limit, before reading it', async () => {
    const limit = Number(/Content-Length is over (\d+) MB/.exec(doc.paths['/api/releases/{app}'].post.description)?.[1]) * 1024 * 1024;
    expect(limit).toBeGreaterThan(0);
    const url = new URL(`${server.url}/api/releases/blog`);
    const answer = await new Promise<{ status: number; body: Envelope }>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip', 'content-length': String(limit + 1) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Envelope }));
        res.on('error', reject);
      });
      // The server closes the connection without reading: the unsent rest is not an error here.
      req.on('error', () => undefined);
      req.write(Buffer.alloc(1024));
    });
    expectDocumented(answer, '/api/releases/{app}', 'post', 413);
  });

  it('answers rollback and promote refusals with their documented examples', async () => {
    const json = { json: true };
    expectDocumented(await call('/api/releases/blog/rollback', { ...json, body: JSON.stringify({ version: '9.9.9' }) }), '/api/releases/{app}/rollback', 'post', 404);
    expectDocumented(await call('/api/releases/blog/rollback', { ...json, body: JSON.stringify({ version: '../x' }) }), '/api/releases/{app}/rollback', 'post', 400);
    expectDocumented(await call('/api/releases/blog/rollback', { ...json, body: '{}', bearer: null }), '/api/releases/{app}/rollback', 'post', 401);
    expectDocumented(await call('/api/releases/blog/promote', { ...json, body: JSON.stringify({ version: '9.9.9' }) }), '/api/releases/{app}/promote', 'post', 404);
    expectDocumented(await call('/api/releases/blog/promote', { ...json, body: JSON.stringify({ version: '1.4.0', percent: 0 }) }), '/api/releases/{app}/promote', 'post', 400);
    expectDocumented(await call('/api/releases/shell/promote', { ...json, body: JSON.stringify({ version: '1.4.0' }) }), '/api/releases/{app}/promote', 'post', 403);
    expectDocumented(await call('/api/releases/blog', { method: 'GET', bearer: 'dpl_never-issued' }), '/api/releases/{app}', 'get', 401);
  });

  it('names only codes the server sends, and every code the release code sends', () => {
    const codes = new Map<string, string[]>();
    /** What the error answers' descriptions name in backticks (a code may be named there beside another's example). */
    let named = '';
    for (const [route, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, { description: string }> }>>)) {
      if (!route.startsWith('/api/releases/')) continue;
      for (const [method, op] of Object.entries(item)) {
        for (const status of Object.keys(op.responses).filter((s) => Number(s) >= 400)) {
          named += ` ${op.responses[status]!.description}`;
          for (const example of documented(doc, route, method, Number(status))) codes.set(example.error.code, [...(codes.get(example.error.code) ?? []), `${method} ${route} ${status}`]);
        }
      }
    }
    const source = serverSource();
    for (const [code, where] of codes) expect(source.includes(`'${code}'`), `${code} (${where.join(', ')}) is not in the server's source`).toBe(true);
    // What the release code and the deploy token check send: each named in the document.
    const sent = new Set(
      [
        ...['release-deployer', 'release-checks', 'release-backends', 'deploy-commands', 'promote-commands'].map((file) => `site/releases/${file}.ts`),
        'site/releases/smoke-render.ts',
        'deploys/releases-routes.ts',
      ].flatMap((file) =>
        [...readFileSync(path.join(API_SRC, file), 'utf8').matchAll(/code: '([a-z_]+)'/g)].map((m) => m[1]!),
      ),
    );
    for (const code of ['deploy_token_missing', 'deploy_token_invalid', 'token_not_for_app', 'payload_too_large', 'rate_limited', 'validation_failed']) sent.add(code);
    for (const code of sent) expect(codes.has(code) || named.includes(`\`${code}\``), `${code} is sent but not in the document's release answers`).toBe(true);
    // The 401 names what the server sends, never the generic `unauthorized`.
    expect(codes.has('unauthorized')).toBe(false);
  });

  it('describes GET /site-deploy.mjs as the server answers it', async () => {
    const op = doc.paths['/site-deploy.mjs'].get;
    expect(op.description).toContain('node site-deploy.mjs deploy');
    const res = await fetch(`${server.url}/site-deploy.mjs`);
    expect(res.status).toBe(200);
    expect(Object.keys(op.responses['200'].content)).toEqual([res.headers.get('content-type')!.split(';')[0]]);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const etag = res.headers.get('etag')!;
    expect((await res.text()).length).toBeGreaterThan(1000);
    expect((await fetch(`${server.url}/site-deploy.mjs`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  }, 60_000);
});

describe('the release endpoints under a token guesser', () => {
  it('answers 429 with the documented budget once too many bad tokens came from one address', async () => {
    const site = await createSiteFixture();
    const server = await startTestServer({ siteRoot: site.root });
    try {
      const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Doc;
      const guess = () => fetch(`${server.url}/api/releases/blog`, { headers: { authorization: 'Bearer dpl_guess' } });
      let answer = await guess();
      for (let i = 0; i < 20 && answer.status === 401; i++) answer = await guess();
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(documented(doc, '/api/releases/{app}', 'get', 429)).toContainEqual(await answer.json());
    } finally {
      await server.close();
      await site.cleanup();
    }
  });
});

describe('release-signature.json as the document describes it', () => {
  it('its worked example verifies with the rules as written', () => {
    const files = new Map(Object.entries(EXAMPLE_RELEASE_FILES));
    const hashed = [...files].map(([file, text]) => [file, createHash('sha256').update(text).digest('hex')]).sort(([a], [b]) => (a! < b! ? -1 : 1));
    expect(hashed).toEqual(EXAMPLE_RELEASE_STATEMENT.files);
    const bytes = Buffer.from(JSON.stringify({ app: 'blog', version: '1.4.0', files: hashed }), 'utf8');
    const publicKey = createPublicKey({ key: Buffer.from(EXAMPLE_RELEASE_PUBLIC_KEY, 'base64'), format: 'der', type: 'spki' });
    expect(verify(null, bytes, publicKey, Buffer.from(EXAMPLE_RELEASE_SIGNATURE.signature, 'base64'))).toBe(true);
    expect(EXAMPLE_RELEASE_SIGNATURE.key).toBe(createHash('sha256').update(Buffer.from(EXAMPLE_RELEASE_PUBLIC_KEY, 'base64')).digest('hex').slice(0, 16));
  });

  it('a release signed by following the document is served by a server that trusts the key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const site = await createSiteFixture();
    // Every app the site serves is signed before it starts (signing-gate.ts); the key is trusted for all of them.
    await signDists(site.root, ['shell', 'marketing', 'blog', 'admin'], pem);
    const server = await startTestServer({
      siteRoot: site.root,
      env: { ...ADMIN_ENV, RELEASE_TRUSTED_KEYS: `*=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}` },
    });
    try {
      const created = await fetch(`${server.url}/api/admin/deploy-tokens`, {
        method: 'POST',
        headers: { cookie: await adminCookie(server), origin: server.config.publicOrigin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'blog CI', apps: ['blog'] }),
      });
      const token = deployTokenCreatedSchema.parse(await created.json()).token;
      const files = blogBuild('3.1.0');
      const signed = new Map([...files, ['release-signature.json', signAsDocumented(files, 'blog', '3.1.0', pem)]]);
      const res = await fetch(`${server.url}/api/releases/blog`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' }, body: await tarGz(signed) });
      expect(res.status, await res.clone().text()).toBe(201);
      expect(await res.json()).toMatchObject({ app: 'blog', version: '3.1.0', checked: expect.arrayContaining([expect.stringMatching(/^release-signature\.json \(key [0-9a-f]{16}\)$/)]) });
    } finally {
      await server.close();
      await site.cleanup();
    }
  }, 60_000);
});
