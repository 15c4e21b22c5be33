import { z } from 'zod';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';

/**
 * The media library's files, public: `/media/<hash>-<width>.<avif|webp|jpg|png|gif>`, `/media/<hash>-og.jpg` and a
 * media URL `/media/<hash>-<w>x<h>.<ext>`. Content-addressed, so cached for a year as immutable.
 */
const MEDIA_PROCESSING = 'This image was just uploaded and is being processed. Try again in a few seconds.';

export const mediaRoutes = defineEndpoints({ services: ['media'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: '/media/:file',
    tag: 'Blog',
    summary: 'An image of the media library (content-addressed, cached a year as immutable)',
    description:
      'Names: `<hash>-<width>.<avif|webp|jpg|png|gif>` (480, 960 and 1600 px wide, never wider than the upload), `<hash>-og.jpg` (1200x630) and the media URL `<hash>-<w>x<h>.<ext>` a post stores. No metadata (EXIF, GPS) is kept. While an image\'s variants are being made, a name not made yet serves the nearest variant made so far (`Cache-Control: no-cache`), or 503 with `Retry-After` before the first.',
    params: { file: { description: 'The file name.', example: '0123456789abcdef01234567-960.avif' } },
    responses: {
      200: {
        description: 'The image, in the format its name ends with.',
        body: { schema: z.string().meta({ contentMediaType: 'application/octet-stream' }), contentType: ['image/avif', 'image/webp', 'image/jpeg', 'image/png', 'image/gif'] },
      },
      404: errorResponse('No such file.', error('not_found', 'No such media file.')),
      503: errorResponse('The image was just uploaded and none of its variants is made yet.', error('media_processing', MEDIA_PROCESSING), {
        'Retry-After': 'Seconds after which its first variants should be made.',
      }),
    },
    handle: async ({ params }, { services }, ctx) => {
      const found = await services.media.file(params.file);
      if (!found) {
        ctx.status = 404;
        ctx.set('Cache-Control', 'no-store');
        return { error: { code: 'not_found', message: 'No such media file.' } };
      }
      if ('pending' in found) {
        ctx.status = 503;
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Retry-After', String(found.retryAfterSeconds));
        return { error: { code: 'media_processing', message: MEDIA_PROCESSING } };
      }
      // A variant made for this name never changes (content-addressed); one served for it meanwhile is asked again.
      const etag = `"${found.name}"`;
      ctx.set('Cache-Control', found.interim ? 'no-cache' : 'public, max-age=31536000, immutable');
      ctx.set('ETag', etag);
      ctx.type = found.contentType;
      if (ctx.get('If-None-Match') === etag) {
        ctx.status = 304;
        return undefined;
      }
      return found.body;
    },
  }),
]);
