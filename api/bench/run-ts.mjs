// Bundles a TypeScript bench entry with esbuild (an api devDependency) and runs it with the remaining arguments:
// `node api/bench/run-ts.mjs api/bench/<name>.entry.ts [args…]`.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export async function runTs(entry) {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // Written beside this script so node resolves the workspace packages; removed after the run.
  const file = path.join(here, `.${path.basename(entry, '.ts')}.out.mjs`);
  const pkg = JSON.parse(await readFile(path.join(here, '../package.json'), 'utf8'));
  try {
    await build({
      entryPoints: [path.resolve(entry)],
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
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [entry] = process.argv.splice(2, 1);
  if (!entry) {
    console.error('usage: node api/bench/run-ts.mjs <entry.ts> [args…]');
    process.exit(2);
  }
  await runTs(entry);
}
