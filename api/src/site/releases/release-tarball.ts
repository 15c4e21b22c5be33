import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { extract, pack } from 'tar-stream';

/*
 * A release over HTTP is its built folder as a .tar.gz (issue 33). It is read here into memory, file by file, with
 * every limit checked as the bytes arrive: a path with `..` or an absolute path, a link or any entry that is not a
 * plain file or folder, too many files, or more bytes expanded than a release may hold (a small archive of a huge
 * file: a tarball bomb) stops the reading at once. Nothing is written anywhere until the whole archive was read and
 * passed, and then only by the deployer, into a hidden folder of its own.
 */

export interface TarballLimits {
  /** Expanded bytes of every file together. */
  maxBytes: number;
  maxFiles: number;
}

export const RELEASE_TARBALL_LIMITS: TarballLimits = { maxBytes: 100 * 1024 * 1024, maxFiles: 5_000 };

/** Why an archive is refused; the message names the entry and the rule. */
export class TarballError extends Error {}

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** The path of an entry inside the release, or why it may not be one. */
export function releasePath(name: string): string {
  if (name.includes('\0') || name.includes('\\')) throw new TarballError(`${JSON.stringify(name.slice(0, 200))}: a path with a backslash or NUL is refused`);
  if (name.startsWith('/') || /^[a-z]:/i.test(name)) throw new TarballError(`${JSON.stringify(name.slice(0, 200))}: an absolute path is refused`);
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) throw new TarballError(`${JSON.stringify(name.slice(0, 200))}: a path with .. is refused`);
  return parts.join('/');
}

/** Reads a release's .tar.gz into its files (path -> bytes), or throws a TarballError saying why it is refused. */
export async function readReleaseTarball(source: Readable | Buffer, limits: TarballLimits = RELEASE_TARBALL_LIMITS): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  let total = 0;
  const reader = extract();
  reader.on('entry', (header, stream, next) => {
    const fail = (error: Error) => {
      // The entry's stream is destroyed with the reader: its error is the reader's, answered once by the pipeline.
      stream.on('error', () => undefined);
      reader.destroy(error);
    };
    let name: string;
    try {
      name = releasePath(header.name);
    } catch (error) {
      fail(error as Error);
      return;
    }
    if (header.type === 'directory') {
      stream.resume();
      stream.on('end', next);
      return;
    }
    if (header.type !== 'file' && header.type !== 'contiguous-file') {
      fail(new TarballError(`${JSON.stringify(name)}: a ${header.type} is refused (a release holds plain files and folders only)`));
      return;
    }
    if (name === '') {
      fail(new TarballError('an entry without a name is refused'));
      return;
    }
    if (files.has(name)) {
      fail(new TarballError(`${JSON.stringify(name)} is in the archive twice`));
      return;
    }
    if (files.size + 1 > limits.maxFiles) {
      fail(new TarballError(`the archive holds more than ${limits.maxFiles} files`));
      return;
    }
    const chunks: Buffer[] = [];
    stream.on('data', (data: unknown) => {
      const chunk = data as Buffer;
      total += chunk.length;
      if (total > limits.maxBytes) {
        stream.on('error', () => undefined);
        reader.destroy(new TarballError(`the archive expands to more than ${mb(limits.maxBytes)} (at ${JSON.stringify(name)}): refused`));
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => {
      files.set(name, Buffer.concat(chunks));
      next();
    });
  });
  // A request is piped, not handed to the pipeline: a refusal stops reading it without destroying it (the answer
  // still goes out on its connection), and what is left of it is drained (bounded by the endpoint's body limit).
  const input = Buffer.isBuffer(source) ? Readable.from([source]) : source.pipe(new PassThrough());
  try {
    await pipeline(input, createGunzip(), reader);
  } catch (error) {
    if (!Buffer.isBuffer(source)) {
      source.unpipe();
      source.resume();
    }
    if (error instanceof TarballError) throw error;
    const code = (error as { code?: string }).code;
    if (code?.startsWith('Z_')) throw new TarballError('the body is not a gzip-compressed tar archive (.tar.gz)');
    throw new TarballError(`the archive cannot be read: ${(error as Error).message}`);
  }
  if (files.size === 0) throw new TarballError('the archive holds no files');
  return files;
}

/** Packs files (path -> bytes) as a .tar.gz: what `npm run deploy -- <app> --to <url>` sends. */
export async function packReleaseTarball(files: ReadonlyMap<string, Buffer>): Promise<Buffer> {
  const packer = pack();
  const chunks: Buffer[] = [];
  const done = pipeline(packer, createGzip(), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) chunks.push(chunk);
  });
  for (const [name, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await new Promise<void>((resolve, reject) => packer.entry({ name, size: content.length, mode: 0o644, mtime: new Date(0) }, content, (error) => (error ? reject(error) : resolve())));
  }
  packer.finalize();
  await done;
  return Buffer.concat(chunks);
}
