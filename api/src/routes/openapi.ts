import { compress, pickEncoding, type Encoding } from '../lib/compression';
import { API_VERSION } from '../lib/version';
import { registeredEndpoints } from './endpoint';
import { apiDescription } from './openapi-document';
import { HAND_WRITTEN_OPERATIONS } from './openapi-parts';
import { defineRoutes } from './route-module';

/** `GET /api/openapi.json`: the OpenAPI 3.1 description of the API, generated from the endpoints this router has. */
export const openApiRoutes = defineRoutes({ config: ['publicOrigin'] }, (router, { config }) => {
  // Built once, and compressed once per encoding (a few hundred KB: compressing it per request cost ~15 ms each).
  let document: Buffer | undefined;
  const compressed = new Map<Encoding, Buffer>();
  router.get('/api/openapi.json', (ctx) => {
    document ??= Buffer.from(
      JSON.stringify(apiDescription(registeredEndpoints(router), { publicOrigin: config.publicOrigin, version: API_VERSION }, HAND_WRITTEN_OPERATIONS), null, 2),
    );
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.vary('Accept-Encoding');
    ctx.type = 'application/json; charset=utf-8';
    const encoding = ctx.method === 'HEAD' ? null : pickEncoding(ctx.get('Accept-Encoding'));
    if (!encoding) {
      ctx.body = document;
      return;
    }
    if (!compressed.has(encoding)) compressed.set(encoding, compress(document, encoding));
    ctx.set('Content-Encoding', encoding);
    ctx.body = compressed.get(encoding);
  });
});
