import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Logger, Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text files worth compressing; the API serves `<file>.br` / `<file>.gz` for these (api/src/site/static/static-files.ts). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|xml|txt|webmanifest)$/i;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? filesBelow(path.join(dir, e.name)) : Promise.resolve([path.join(dir, e.name)]))),
  );
  return nested.flat();
}

/**
 * Writes a brotli (quality 11) and a gzip (level 9) copy next to every text file of `outDir` of 1 KiB or more, so the
 * server sends built files compressed without spending CPU per request. A copy that would not be smaller is not written.
 * Returns the number of files compressed and their total sizes.
 */
export async function precompressDir(outDir: string): Promise<{ files: number; bytes: number; brotliBytes: number; gzipBytes: number }> {
  const files = (await filesBelow(outDir)).filter((f) => COMPRESSIBLE.test(f));
  const totals = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  await Promise.all(
    files.map(async (file) => {
      let data: Buffer;
      try {
        if ((await stat(file)).size < MIN_BYTES) return;
        data = await readFile(file);
      } catch (error) {
        // Gone since the listing (another build emptied the directory): nothing to compress.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      const [br, gzipped] = await Promise.all([
        brotli(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gz(data, { level: 9 }),
      ]);
      if (br.length < data.length) await writeFile(`${file}.br`, br);
      if (gzipped.length < data.length) await writeFile(`${file}.gz`, gzipped);
      totals.files += 1;
      totals.bytes += data.length;
      totals.brotliBytes += Math.min(br.length, data.length);
      totals.gzipBytes += Math.min(gzipped.length, data.length);
    }),
  );
  return totals;
}

/** Build only: once every other plugin has written its files, precompress the whole output directory. */
export function precompressPlugin(): Plugin {
  let outDir = '';
  let logger: Logger | undefined;
  return {
    name: 'site:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const t = await precompressDir(outDir);
        const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
        logger?.info(
          `precompressed ${t.files} files: ${kib(t.bytes)} -> brotli ${kib(t.brotliBytes)}, gzip ${kib(t.gzipBytes)}`,
        );
      },
    },
  };
}
