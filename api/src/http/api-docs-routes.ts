import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Context } from 'koa';
import { z } from 'zod';
import { compress, pickEncoding, type Encoding } from '../lib/compression';
import { matchesIfNoneMatch, strongEtag } from '../lib/etag';
import { NO_CACHE, SHORT_CACHE } from '../site/static/static-files';
import { defineEndpoints } from './endpoint';

/*
 * `GET /api/docs`: the OpenAPI document as a readable page, rendered in the browser by Swagger UI (swagger-ui-dist),
 * whose files this server sends itself from node_modules: no outside host, and no inline script (the page's one line
 * of setup is a file too), so the site's Content-Security-Policy holds unchanged.
 */

/** The page's setup: Swagger UI pointed at this server's document, with no call to an outside validator. */
const SETUP_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#api-docs',
  deepLinking: true,
  validatorUrl: null,
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>API reference — Tri-Valley AI Automation</title>
    <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
  </head>
  <body>
    <noscript>This page renders the API description with JavaScript; the description itself is <a href="/api/openapi.json">/api/openapi.json</a>.</noscript>
    <div id="api-docs"></div>
    <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/api/docs/assets/api-docs.js"></script>
  </body>
</html>
`;

/** The files the page loads, by the name it loads them with: the renderer's own, read from its package, and the setup. */
const ASSETS = {
  'swagger-ui-bundle.js': { type: 'application/javascript; charset=utf-8', source: 'swagger-ui-bundle.js' },
  'swagger-ui.css': { type: 'text/css; charset=utf-8', source: 'swagger-ui.css' },
  'api-docs.js': { type: 'application/javascript; charset=utf-8', text: SETUP_SCRIPT },
} as const satisfies Record<string, { type: string; source?: string; text?: string }>;

export const API_DOCS_ASSETS = Object.keys(ASSETS) as Array<keyof typeof ASSETS>;

interface Held {
  body: Buffer;
  etag: string;
  compressed: Map<Encoding, Buffer>;
}

const held = new Map<string, Promise<Held>>();

/** The renderer's folder, resolved from this file (src in tests, dist in production: both reach api/node_modules). */
function rendererFolder(): string {
  return path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** One file, read and compressed once per process (the bundle is 1.7 MB: compressing it per request is not an option). */
function load(name: string, read: () => Promise<Buffer>): Promise<Held> {
  let file = held.get(name);
  if (!file) {
    file = read().then((body) => ({ body, etag: strongEtag(body), compressed: new Map() }));
    // A failed read is tried again by the next request.
    file.catch(() => held.delete(name));
    held.set(name, file);
  }
  return file;
}

/** Sends a held file with its ETag (304 for a client that has it), compressed when the client accepts it. */
function send(ctx: Context, file: Held, type: string): Buffer | null {
  ctx.type = type;
  ctx.vary('Accept-Encoding');
  ctx.set('ETag', file.etag);
  if (matchesIfNoneMatch(ctx.get('If-None-Match'), file.etag)) {
    ctx.status = 304;
    return null;
  }
  const encoding = ctx.method === 'HEAD' ? null : pickEncoding(ctx.get('Accept-Encoding'));
  if (!encoding) return file.body;
  if (!file.compressed.has(encoding)) file.compressed.set(encoding, compress(file.body, encoding));
  ctx.set('Content-Encoding', encoding);
  return file.compressed.get(encoding)!;
}

const NOT_MODIFIED = { description: 'The client has this version (its If-None-Match names the ETag).' };

export const apiDocsRoutes = defineEndpoints({}, (endpoint) => [
  endpoint({
    method: 'get',
    path: '/api/docs',
    tag: 'Health',
    summary: 'This document, as a readable page',
    description: 'An HTML page that renders this document (Swagger UI, served by this site with its files below /api/docs/assets/).',
    cacheControl: NO_CACHE,
    responses: {
      200: { description: 'The API reference page.', body: { schema: z.string(), contentType: 'text/html' }, headers: { ETag: 'The page\'s version.' } },
      304: NOT_MODIFIED,
    },
    handle: async (_input, _deps, ctx) => send(ctx, await load('page', async () => Buffer.from(PAGE)), 'text/html; charset=utf-8'),
  }),
  endpoint({
    method: 'get',
    path: '/api/docs/assets/:asset',
    tag: 'Health',
    summary: 'A file of the API reference page',
    cacheControl: SHORT_CACHE,
    params: { asset: { description: 'The file\'s name, as the page names it.', example: 'api-docs.js', schema: z.enum(API_DOCS_ASSETS) } },
    responses: {
      200: { description: 'The file (the renderer\'s script and style sheet, and the page\'s setup).', body: { schema: z.string(), contentType: ['application/javascript', 'text/css'] }, headers: { ETag: 'The file\'s version.' } },
      304: NOT_MODIFIED,
    },
    handle: async ({ params }, _deps, ctx) => {
      const asset: { type: string; source?: string; text?: string } = ASSETS[params.asset];
      const file = await load(params.asset, async () => (asset.source ? readFile(path.join(rendererFolder(), asset.source)) : Buffer.from(asset.text ?? '')));
      return send(ctx, file, asset.type);
    },
  }),
]);
