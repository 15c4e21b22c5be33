import { Readable, pipeline } from 'node:stream';
import { constants as zlibConstants, createGzip } from 'node:zlib';
import { z } from 'zod';
import { ADMIN_MESSAGES, adminLeadListQuerySchema, adminLeadListSchema, adminLeadSchema, adminLeadUpdateSchema } from '@site/contracts/admin';
import { defineEndpoints } from '../http/endpoint';
import { error, errorResponse } from '../http/openapi-parts';
import { acceptedEncodings } from '../lib/compression';

const BAD_QUERY = errorResponse('A bad query field.', error('validation_failed', 'filter: Invalid option', [{ path: 'filter', message: 'Invalid option' }]));

/** A BOM first, so spreadsheet programs read the names as UTF-8. */
async function* withBom(pieces: AsyncGenerator<string, void, undefined>) {
  yield '\uFEFF';
  yield* pieces;
}

/** The contact-message inbox: list (newest first, search, filter, pages), read/handled flags, CSV export. */
export const adminLeadsRoutes = defineEndpoints({ config: ['bodyLimit', 'publicOrigin'], services: ['admin'], context: ['clock', 'logger'] }, (endpoint) => [
  endpoint({
    method: 'get',
    path: '/api/admin/leads',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Contact messages, newest first (with `q`: best match first), with search, filter and pages',
    description:
      'Pages by keyset: pass `nextCursor` back as `cursor` for older messages, `prevCursor` for newer ones (send the same `filter`). `total` and `counts` come from counters the database keeps, not a count per page. ' +
      '`q` searches name, email, company, subject and message through the full-text index: every word must match, the last one may be the start of a word, case-insensitive; punctuation separates words and is never query syntax. A search answers one page, the best `limit` of the newest 1,000 matches, and takes no cursor; `total` counts the matches up to 1,000 and `totalIsLowerBound` is true when more match (show "1,000+").',
    query: { schema: adminLeadListQuerySchema },
    responses: {
      200: { description: 'One page.', body: { schema: adminLeadListSchema } },
      400: errorResponse('A bad query field, or a cursor the server did not issue.', error('invalid_cursor', 'The cursor is not valid. Start again from the first page.')),
    },
    handle: ({ query }, { services }) => services.admin.leads.list(query),
  }),
  endpoint({
    method: 'get',
    path: '/api/admin/leads/export.csv',
    tag: 'Admin',
    auth: 'admin',
    summary: "Every matching contact message as CSV (UTF-8 with a BOM; cells starting with = + - @ are prefixed with ')",
    query: { schema: adminLeadListQuerySchema.pick({ q: true, filter: true }) },
    responses: {
      200: { description: 'The CSV attachment.', body: { schema: z.string(), contentType: 'text/csv' }, headers: { 'Content-Disposition': 'attachment; filename="contact-messages-<date>.csv"' } },
      400: BAD_QUERY,
    },
    handle: ({ query }, { services, clock, logger }, ctx) => {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.attachment(`contact-messages-${clock().toISOString().slice(0, 10)}.csv`);
      ctx.vary('Accept-Encoding');
      // Streamed as it is read: a batch of messages is read when the client has taken the previous ones (16 kB
      // buffered at most), the first bytes leave at once, and a client that goes away stops the reading (Koa
      // destroys the body, which ends the generator). The compress and ETag middleware leave streams alone.
      const csv = Readable.from(withBom(services.admin.leads.exportCsv(query)), { objectMode: false, highWaterMark: 16 * 1024 });
      if (!acceptedEncodings(ctx.get('Accept-Encoding')).includes('gzip')) return csv;
      ctx.set('Content-Encoding', 'gzip');
      // Each batch is flushed as it is compressed, so the first bytes do not wait for zlib's 16 kB of output.
      const gzip = createGzip({ level: 6, flush: zlibConstants.Z_SYNC_FLUSH });
      // The headers are sent by the time a batch fails: the answer is cut short, and the log says why.
      pipeline(csv, gzip, (err) => {
        if (err && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.error({ err }, 'the leads CSV export failed');
      });
      return gzip;
    },
  }),
  endpoint({
    method: 'patch',
    path: '/api/admin/leads/:id',
    tag: 'Admin',
    auth: 'admin',
    summary: 'Mark a contact message read or handled',
    params: { id: { description: 'The message id.', example: 'lead_1b2c3d4e' } },
    body: { schema: adminLeadUpdateSchema.meta({ minProperties: 1 }), example: { read: true } },
    responses: {
      200: { description: 'The message.', body: { schema: adminLeadSchema } },
      400: errorResponse('Neither flag, a flag that is not true/false, or another field.', error('validation_failed', 'Send read or handled', [{ path: '(body)', message: 'Send read or handled' }])),
      404: errorResponse('No message has this id.', error('not_found', ADMIN_MESSAGES.leadNotFound)),
    },
    handle: ({ params, body }, { services }) => services.admin.leads.update(params.id, body),
  }),
]);
