// Bundles the TypeScript bench with esbuild (an api devDependency) and runs it: `node api/bench/analysis-bench.mjs`.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// Written beside this script so node resolves the workspace packages; removed after the run.
const file = path.join(here, '.analysis-bench.out.mjs');
try {
  await build({
    entryPoints: [path.join(here, 'analysis-bench.entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: file,
    // Bundle our workspace package (TypeScript source); leave npm packages to node.
    external: ['zod', 'ipaddr.js'],
    logLevel: 'warning',
  });
  await import(pathToFileURL(file).href);
} finally {
  await rm(file, { force: true });
}
