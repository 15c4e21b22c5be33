// Bundles the TypeScript bench with esbuild (an api devDependency) and runs it: `node api/bench/analysis-bench.mjs`.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// Written beside this script so node resolves the workspace packages; removed after the run.
const file = path.join(here, '.analysis-bench.out.mjs');
const pkg = JSON.parse(await readFile(path.join(here, '../package.json'), 'utf8'));
try {
  await build({
    entryPoints: [path.join(here, 'analysis-bench.entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: file,
    // Bundle our own TypeScript (and the workspace contracts); leave every npm package to node.
    external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !name.startsWith('@site/')),
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  await import(pathToFileURL(file).href);
} finally {
  await rm(file, { force: true });
}
