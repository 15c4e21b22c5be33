// Bundles the TypeScript bench with esbuild and runs it: `node api/bench/analysis-bench.mjs`.
import { fileURLToPath } from 'node:url';
import { runTs } from './run-ts.mjs';

await runTs(fileURLToPath(new URL('./analysis-bench.entry.ts', import.meta.url)));
