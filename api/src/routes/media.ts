import { defineRoutes } from './route-module';

/**
 * The media library's files, public: `/media/<hash>-<width>.<avif|webp|jpg|png|gif>`, `/media/<hash>-og.jpg` and a
 * media URL `/media/<hash>-<w>x<h>.<ext>`. Content-addressed, so cached for a year as immutable.
 */
export const mediaRoutes = defineRoutes({ services: ['media'] }, (router, { services }) => {
  router.get('/media/:file', async (ctx) => {
    const found = await services.media.file(ctx.params.file!);
    if (!found) {
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { error: { code: 'not_found', message: 'No such media file.' } };
      return;
    }
    const etag = `"${ctx.params.file}"`;
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('ETag', etag);
    ctx.type = found.contentType;
    if (ctx.get('If-None-Match') === etag) {
      ctx.status = 304;
      return;
    }
    ctx.body = found.body;
  });
});
