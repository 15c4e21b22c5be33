import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MediaFormat } from '@site/contracts/media-rules';
import { bundleWorker } from '../lib/bundle-worker';
import { InvalidInputError } from '../lib/domain-errors';
import type { ProcessedImage, ProcessedVariant } from './media-processing';
import type { MediaWorkerMessage, MediaWorkerRequest } from './media-worker';

export const CHILD_MESSAGES = {
  tooMuchMemory: (mb: number) => `The image needs more than ${mb} MB of memory to process. Save it smaller and try again.`,
  tooLong: (seconds: number) => `The image took more than ${seconds} seconds to process. Save it smaller and try again.`,
} as const;

/** How one image's variants are made: in a child process (the default) or, for tests of the job, in this one. */
export type ImageProcessor = (input: Buffer, hash: string, format: MediaFormat, onVariant: (variant: ProcessedVariant) => Promise<void>) => Promise<ProcessedImage>;

let bundled: Promise<string> | undefined;

/**
 * The worker's file: dist/media-worker.js beside the built server, else (running from the sources: tests, benches)
 * media-worker.ts bundled once per process into a temp folder, with sharp imported from where this package finds it.
 */
function workerFile(): Promise<string> {
  const built = fileURLToPath(new URL('./media-worker.js', import.meta.url));
  if (existsSync(built)) return Promise.resolve(built);
  bundled ??= (async () => {
    // Beside this file (its source), or api/src/media from a bundle in api/dist or api/bench (the benches' run-ts.mjs).
    const source = ['./media-worker.ts', '../src/media/media-worker.ts'].map((name) => new URL(name, import.meta.url)).find((url) => existsSync(fileURLToPath(url)));
    if (!source) throw new Error('media-worker.js is missing beside the server, and so is media-worker.ts: build the API (npm run build)');
    const code = await bundleWorker(source, { sharp: createRequire(import.meta.url).resolve('sharp') });
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'media-worker-')), 'media-worker.cjs');
    await writeFile(file, code);
    return file;
  })();
  // A failed bundle is tried again by the next image, not remembered.
  bundled.catch(() => (bundled = undefined));
  return bundled;
}

async function rssMb(child: ChildProcess): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
  } catch {
    return undefined; // not Linux, or the child is gone
  }
}

/**
 * Makes an image's variants in a child process of its own: its memory goes back to the system when it exits (the
 * server's RSS stays where it was), it is killed past `maxMb` of memory (read every 250 ms; Linux) or `budgetMs`, and a
 * crash takes the child only. Variants arrive one by one, as the child makes them.
 */
export function createChildImageProcessor(options: { threads: number; maxMb: number; budgetMs: number }): ImageProcessor {
  return async (input, hash, format, onVariant) => {
    const child = fork(await workerFile(), [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [] });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    return new Promise<ProcessedImage>((resolve, reject) => {
      let settled = false;
      let size: { width: number; height: number } | undefined;
      const variants: ProcessedVariant[] = [];
      // Variants are stored one after another, in the order made; the answer waits for the last one.
      let storing = Promise.resolve();
      const settle = (error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(budget);
        clearInterval(watch);
        if (child.exitCode === null) child.kill('SIGKILL');
        storing.then(() => (error ? reject(error) : resolve({ ...size!, variants })), reject);
      };
      const budget = setTimeout(() => settle(new InvalidInputError(CHILD_MESSAGES.tooLong(Math.round(options.budgetMs / 1000)), { code: 'image_too_slow' })), options.budgetMs);
      const watch = setInterval(() => {
        void rssMb(child).then((mb) => {
          if (mb !== undefined && mb > options.maxMb) settle(new InvalidInputError(CHILD_MESSAGES.tooMuchMemory(options.maxMb), { code: 'image_too_much_memory' }));
        });
      }, 250);
      child.on('message', (message: MediaWorkerMessage) => {
        if (message.kind === 'variant') {
          const variant = { ...message.variant, data: Buffer.from(message.variant.data) };
          variants.push(variant);
          storing = storing.then(() => onVariant(variant));
          // A failed store (or an image deleted meanwhile) ends the child's work too.
          storing.catch((error: unknown) => settle(error as Error));
        } else if (message.kind === 'done') {
          size = { width: message.width, height: message.height };
          settle();
        } else {
          settle(message.invalid ? new InvalidInputError(message.message, { code: message.code ?? 'corrupt_image' }) : new Error(message.message));
        }
      });
      child.on('error', (error) => settle(error));
      child.on('exit', (code, signal) => settle(new Error(`the image process stopped (${signal ?? code}) ${stderr.trim()}`.trim())));
      child.send({ input: new Uint8Array(input.buffer, input.byteOffset, input.length), hash, format, threads: options.threads } satisfies MediaWorkerRequest);
    });
  };
}
