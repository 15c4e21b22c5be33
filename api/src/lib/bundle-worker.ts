import { fileURLToPath } from 'node:url';

/**
 * A worker entry's TypeScript bundled into one CommonJS script (esbuild), for running from the sources (vitest, the
 * benches): a build has the entry as its own file (api/build.mjs). `externals` maps a package to the path it is
 * required from (a native package such as sharp, resolved where the caller finds it).
 */
export async function bundleWorker(entry: URL, externals: Readonly<Record<string, string>> = {}): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'externals',
        // Bare package names only; one in `externals` is required from its given path, the rest bundled.
        setup: (b) => b.onResolve({ filter: /^[^./]/ }, (args) => (Object.hasOwn(externals, args.path) ? { path: externals[args.path]!, external: true } : undefined)),
      },
    ],
  });
  return result.outputFiles[0]!.text;
}
