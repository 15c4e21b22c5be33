import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context, Next } from 'koa';

/** A file received by `multipartFile`, on disk in a temp folder that is removed once the handler has answered. */
export interface ReceivedFile {
  path: string;
  /** The name the client gave it (its last path segment). */
  filename: string;
  /** The type the client declared for it (not to be trusted: the content is checked by whoever uses it). */
  mimeType: string;
  size: number;
  /** The other (text) fields of the form. */
  fields: Record<string, string>;
}

const httpError = (status: number, message: string) => Object.assign(new Error(message), { status, expose: true });

function receive(req: IncomingMessage, headers: IncomingHttpHeaders, dir: string, options: { field: string; maxBytes: number; tooLarge: string }): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers, limits: { fileSize: options.maxBytes, files: 1, fields: 8, fieldSize: 8 * 1024, parts: 10 } });
    } catch {
      reject(httpError(400, 'The multipart body is malformed (no boundary).'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: Omit<ReceivedFile, 'fields' | 'size'> | undefined;
    let written: Promise<number> | undefined;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      parser.removeAllListeners('close');
      reject(error);
    };
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== options.field || file) {
        stream.resume();
        return;
      }
      file = { path: path.join(dir, 'upload'), filename: path.basename(info.filename ?? ''), mimeType: info.mimeType ?? '' };
      let size = 0;
      stream.on('data', (chunk: Buffer) => (size += chunk.length));
      // Streamed to disk as it arrives; the limit is counted while streaming, so no more than maxBytes is ever kept.
      stream.on('limit', () => fail(httpError(413, options.tooLarge)));
      written = pipeline(stream, createWriteStream(file.path)).then(() => size);
      written.catch(() => undefined);
    });
    parser.on('error', () => fail(httpError(400, 'The multipart body is malformed.')));
    parser.on('close', () => {
      if (failed) return;
      if (!file || !written) {
        fail(httpError(400, `Send the image in the multipart field "${options.field}".`));
        return;
      }
      const received = file;
      written.then(
        (size) => resolve({ ...received, size, fields }),
        (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
      );
    });
    req.pipe(parser);
  });
}

/**
 * Reads one file of a multipart/form-data request to a temp file (never whole into memory), refusing with 413 as soon
 * as it passes `maxBytes`. The file is `ctx.state.upload` (ReceivedFile) for the handler, and is deleted afterwards,
 * whatever the handler did.
 */
export function multipartFile(options: { field: string; maxBytes: number; tooLarge: string }) {
  return async function receiveMultipartFile(ctx: Context, next: Next) {
    if (!ctx.request.is('multipart/form-data')) ctx.throw(415, `Send the file as multipart/form-data in the field "${options.field}".`);
    const dir = await mkdtemp(path.join(tmpdir(), 'upload-'));
    try {
      try {
        ctx.state.upload = await receive(ctx.req, ctx.headers, dir, options);
      } catch (error) {
        // The rest of the body is not read: the connection ends with the answer.
        ctx.set('Connection', 'close');
        throw error;
      }
      await next();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}
