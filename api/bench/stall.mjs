// One input against everyone else: the leads export, four of the largest accepted images at once and a GIF of 20,000
// frames, each while /api/health/live is probed and the server's RSS sampled. `node api/bench/stall.mjs [--leads N] [--built]`
// (--built: run `npx pnpm@10.34.9 --filter api build` first). See stall-bench.entry.ts.
import { fileURLToPath } from 'node:url';
import { runTs } from './run-ts.mjs';

await runTs(fileURLToPath(new URL('./stall-bench.entry.ts', import.meta.url)));
