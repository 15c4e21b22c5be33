import { MEDIA_MAX_BYTES } from '@site/contracts/media-rules';
import { jsonBody } from '../middleware/json-body';
import { multipartFile, type ReceivedFile } from '../middleware/multipart-file';
import { adminGuard } from './admin-guard';
import { defineRoutes } from './route-module';

/** The multipart body's own limit: the file plus room for the form's boundaries and the alt field. */
export const MEDIA_UPLOAD_BODY_LIMIT = MEDIA_MAX_BYTES + 64 * 1024;

/**
 * The media library in the admin panel: upload (multipart field `file`, optional `alt`), list with where each image
 * is used, alt text, delete (409 while a post uses it). Checking and processing are the MediaService's.
 */
export const adminMediaRoutes = defineRoutes({ config: ['bodyLimit', 'publicOrigin'], services: ['media', 'admin'] }, (router, deps) => {
  const { config, services } = deps;
  const { guard } = adminGuard(deps);
  const body = jsonBody({ limit: config.bodyLimit });
  const upload = multipartFile({ field: 'file', maxBytes: MEDIA_MAX_BYTES, tooLarge: 'The image is larger than 10 MB.' });

  router.post('/api/admin/media', ...guard, upload, async (ctx) => {
    const file = ctx.state.upload as ReceivedFile;
    const { media, created } = await services.media.upload({ ...file, alt: file.fields.alt });
    ctx.status = created ? 201 : 200;
    ctx.body = media;
  });

  router.get('/api/admin/media', ...guard, async (ctx) => {
    ctx.body = await services.media.list();
  });

  router.patch('/api/admin/media/:id', ...guard, body, async (ctx) => {
    ctx.body = await services.media.updateAlt(ctx.params.id!, ctx.request.body);
  });

  router.delete('/api/admin/media/:id', ...guard, async (ctx) => {
    await services.media.remove(ctx.params.id!);
    ctx.status = 204;
  });
});
