import { z } from 'zod';
import { MEDIA_ALT_MAX, MEDIA_MAX_BYTES, MEDIA_MAX_FRAMES, MEDIA_MAX_PIXELS, MEDIA_MAX_SIDE, mediaAltSchema, mediaItemSchema, mediaListQuerySchema, mediaListSchema } from '@site/contracts/media';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';

const MEDIA_ID = { id: { description: 'The media id.', example: '0123456789abcdef01234567' } };
const mediaItem = (description: string) => ({ description, body: { schema: mediaItemSchema, component: 'MediaItem' } });
const NOT_FOUND = errorResponse('No such image.', error('media_not_found', 'No such image.'));

/**
 * The media library in the admin panel: upload (multipart field `file`, optional `alt`), list with where each image
 * is used, alt text, delete (409 while a post uses it). Checking and processing are the MediaService's.
 */
export const adminMediaRoutes = defineEndpoints({ config: ['bodyLimit', 'publicOrigin'], services: ['media', 'admin'] }, (endpoint) => [
  endpoint({
    method: 'post',
    path: '/api/admin/media',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Upload an image to the media library (multipart field `file`, optional `alt`)',
    description: `JPEG, PNG, WebP, AVIF or GIF up to ${MEDIA_MAX_BYTES / 1024 / 1024} MB; the bytes decide the type and must agree with the name and the declared type; SVG is refused. At most ${MEDIA_MAX_PIXELS / 1_000_000} megapixels (an animation: all its frames together), ${MEDIA_MAX_SIDE} pixels wide or high and ${MEDIA_MAX_FRAMES} frames, read from the header before anything is decoded. The answer comes once the original is stored and checked, with \`state: processing\`: its variants (AVIF, WebP and its own format at 480, 960 and 1600 px, and the 1200x630 Open Graph JPEG) are made after, off the request path, MEDIA_JOBS images at a time, metadata stripped; \`GET /api/admin/media/{id}\` follows it to \`ready\` (or \`failed\` with \`error\`). A post may use \`url\` at once: until a variant is made its name serves the nearest one made. The same image uploaded again answers 200 with the stored item (a failed one is processed again).`,
    body: {
      kind: 'multipart',
      field: 'file',
      maxBytes: MEDIA_MAX_BYTES,
      tooLarge: 'The image is larger than 10 MB.',
      schema: z.object({
        // Bytes, not text: `format: binary` (OpenAPI) and `contentMediaType` (JSON Schema), so a generated client takes a Blob.
        file: z.string().meta({ format: 'binary', contentMediaType: 'application/octet-stream', description: 'The image file.' }),
        alt: z.string().max(MEDIA_ALT_MAX).optional(),
      }),
    },
    responses: {
      201: mediaItem('Stored and checked; its variants are being made (`state: processing`).'),
      200: mediaItem('This image was already stored.'),
      400: errorResponse(
        'No file, an empty, corrupt or unsupported file, a name or type that does not match the bytes, or an image over a limit (`too_many_pixels`, `image_too_large`: wider or higher than the formats stored can hold, `too_many_frames`); the message names the limit.',
        error('image_too_large', `The image is 1 x 17000 pixels: its width and height may each be at most ${MEDIA_MAX_SIDE.toLocaleString('en-US')} pixels (the largest image WebP can hold). Resize it and try again.`),
      ),
      413: errorResponse('The image is larger than 10 MB.', error('payload_too_large', 'The image is larger than 10 MB.')),
      415: errorResponse('Not multipart/form-data.', error('unsupported_media_type', 'Send the file as multipart/form-data in the field "file".')),
      503: errorResponse(
        'Images are being processed and the queue is full (MEDIA_JOBS at a time, MEDIA_QUEUE more waiting); retry after the seconds in Retry-After.',
        error('media_busy', 'Other images are being processed right now. Try again in 5 seconds.'),
        { 'Retry-After': 'Seconds after which a retry may find room in the queue.' },
      ),
    },
    handle: async ({ body: file }, { services }, ctx) => {
      const { media, created } = await services.media.upload({ ...file, alt: file.fields.alt });
      ctx.status = created ? 201 : 200;
      return media;
    },
  }),
  endpoint({
    method: 'get',
    path: '/api/admin/media',
    tag: 'Admin',
    auth: 'admin',
    summary: 'The media library with where each image is used, a page at a time',
    description: 'Newest first, by keyset: pass `nextCursor` back as `cursor` for the next (older) page; null on the last.',
    query: { schema: mediaListQuerySchema },
    responses: {
      200: { description: 'A page of images, newest first.', body: { schema: mediaListSchema } },
      400: errorResponse('A bad limit, or a cursor the server did not issue.', error('invalid_cursor', 'The cursor is not valid. Start again from the first page.')),
    },
    handle: ({ query }, { services }) => services.media.list(query),
  }),
  endpoint({
    method: 'get',
    path: '/api/admin/media/:id',
    tag: 'Admin',
    auth: 'admin',
    summary: 'One image, to follow its processing (`state`) and where it is used',
    params: MEDIA_ID,
    responses: { 200: mediaItem('The image.'), 404: NOT_FOUND },
    handle: ({ params }, { services }) => services.media.get(params.id),
  }),
  endpoint({
    method: 'patch',
    path: '/api/admin/media/:id',
    tag: 'Admin',
    auth: 'admin',
    summary: "Set an image's alt text",
    params: MEDIA_ID,
    // The media service validates it (after finding the image).
    body: { schema: mediaAltSchema, example: { alt: 'A salon front desk' }, parse: false },
    responses: {
      200: mediaItem('The image.'),
      400: errorResponse('A bad alt text.', error('validation_failed', 'alt: must be at most 300 characters', [{ path: 'alt', message: 'must be at most 300 characters' }])),
      404: NOT_FOUND,
    },
    handle: ({ params, body }, { services }) => services.media.updateAlt(params.id, body),
  }),
  endpoint({
    method: 'delete',
    path: '/api/admin/media/:id',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Delete an image (refused while a post uses it)',
    params: MEDIA_ID,
    responses: {
      204: { description: 'Deleted.' },
      404: NOT_FOUND,
      409: errorResponse('A post uses the image.', error('media_in_use', 'This image is used by Five automations for busy salons. Choose another image there first.')),
    },
    handle: async ({ params }, { services }) => {
      await services.media.remove(params.id);
    },
  }),
]);
