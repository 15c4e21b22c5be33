// Hostile pages against the built server: `node api/bench/hostile-bench.mjs [--bytes N] [--timeout S] [--server FILE]`.
// Run `npx pnpm@10.34.9 --filter api build` first (or pass another build's server.js to compare).
import { fileURLToPath } from 'node:url';
import { runTs } from './run-ts.mjs';

await runTs(fileURLToPath(new URL('./hostile-bench.entry.ts', import.meta.url)));
