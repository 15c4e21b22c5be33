// Writes the OpenAPI description the API serves at /api/openapi.json to the file named by the first argument
// (`node api/bench/run-ts.mjs api/scripts/openapi-dump.entry.ts out.json`), for tools that read a file (Redocly).
import { writeFileSync } from 'node:fs';
import { API_VERSION } from '../src/lib/version';
import { API_ENDPOINTS } from '../src/http/api-routes';
import { apiDescription } from '../src/http/openapi-document';

const out = process.argv[2];
if (!out) {
  console.error('usage: openapi-dump.entry.ts <out.json> [publicOrigin]');
  process.exit(2);
}
writeFileSync(out, `${JSON.stringify(apiDescription(API_ENDPOINTS, { publicOrigin: process.argv[3] ?? 'https://example.test', version: API_VERSION, metrics: true }), null, 2)}\n`);
