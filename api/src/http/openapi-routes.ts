import { compress, pickEncoding, type Encoding } from '../lib/compression';
import { API_VERSION } from '../lib/version';
import { defineEndpoints, registeredEndpoints } from './endpoint';
import { apiDescription } from './openapi-document';
import type { ApiRouter } from './route-module';

interface Served {
  document: Buffer;
  compressed: Map<Encoding, Buffer>;
}

/** Per router (one app), built at the first request, once all its endpoints are registered. */
const served = new WeakMap<ApiRouter, Served>();

/** `GET /api/openapi.json`: the OpenAPI 3.1 description of the API, generated from the endpoints of the router that serves it. */
export const openApiRoutes = defineEndpoints({ config: ['publicOrigin', 'metricsToken'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Health',
    summary: 'This document',
    cacheControl: 'public, max-age=300',
    responses: { 200: { description: 'The OpenAPI 3.1 description of the public and webhook API.' } },
    handle: (_input, { config }, ctx) => {
      const router = (ctx as unknown as { router: ApiRouter }).router;
      let copy = served.get(router);
      if (!copy) {
        const document = apiDescription(registeredEndpoints(router), { publicOrigin: config.publicOrigin, version: API_VERSION, metrics: Boolean(config.metricsToken) });
        // Built once, and compressed once per encoding (a few hundred KB: compressing it per request cost ~15 ms each).
        copy = { document: Buffer.from(JSON.stringify(document, null, 2)), compressed: new Map() };
        served.set(router, copy);
      }
      ctx.vary('Accept-Encoding');
      ctx.type = 'application/json; charset=utf-8';
      const encoding = ctx.method === 'HEAD' ? null : pickEncoding(ctx.get('Accept-Encoding'));
      if (!encoding) return copy.document;
      if (!copy.compressed.has(encoding)) copy.compressed.set(encoding, compress(copy.document, encoding));
      ctx.set('Content-Encoding', encoding);
      return copy.compressed.get(encoding);
    },
  }),
]);
