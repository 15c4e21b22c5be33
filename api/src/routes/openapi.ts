import { API_VERSION } from '../lib/version';
import { openApiDocument } from '../services/openapi';
import { defineRoutes } from './route-module';

/** `GET /api/openapi.json`: the OpenAPI 3.1 description of the public and webhook API, built from the zod contracts. */
export const openApiRoutes = defineRoutes({ config: ['publicOrigin'] }, (router, { config }) => {
  let document: string | undefined;
  router.get('/api/openapi.json', (ctx) => {
    document ??= JSON.stringify(openApiDocument({ publicOrigin: config.publicOrigin, version: API_VERSION }), null, 2);
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = document;
  });
});
