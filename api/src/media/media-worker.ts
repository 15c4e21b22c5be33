import { InvalidInputError } from '../lib/domain-errors';
import { configureImageProcessing, processImage, type ProcessedVariant } from './media-processing';

/*
 * The child process that makes one image's variants (media-child.ts starts it): it receives the original, sends each
 * variant as it is made, then its size, and exits. libvips' memory is the child's: it goes back to the system when
 * the child exits, whatever the allocator kept, so the server's own memory stays where it was.
 */

export type MediaWorkerRequest = { input: Uint8Array; hash: string; format: Parameters<typeof processImage>[2]; threads: number };
export type MediaWorkerMessage =
  | { kind: 'variant'; variant: Omit<ProcessedVariant, 'data'> & { data: Uint8Array } }
  | { kind: 'done'; width: number; height: number }
  | { kind: 'error'; message: string; code?: string; invalid: boolean };

const send = (message: MediaWorkerMessage) => new Promise<void>((resolve, reject) => process.send!(message, undefined, {}, (error) => (error ? reject(error) : resolve())));

process.once('message', (request: MediaWorkerRequest) => {
  configureImageProcessing({ threads: request.threads, cacheMb: 0 });
  void (async () => {
    try {
      const done = await processImage(Buffer.from(request.input), request.hash, request.format, (variant) => send({ kind: 'variant', variant }));
      await send({ kind: 'done', width: done.width, height: done.height });
    } catch (error) {
      const invalid = error instanceof InvalidInputError;
      await send({ kind: 'error', message: error instanceof Error ? error.message : String(error), code: invalid ? error.code : undefined, invalid });
    } finally {
      process.disconnect();
    }
  })();
});
