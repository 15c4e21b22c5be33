// Dumps the API description the server serves (/api/openapi.json) to a temp file and lints it with Redocly CLI under
// the repo's redocly.yaml: `npm run lint:openapi`. `npm test` runs the same check in api/src/http/__tests__/openapi-lint.test.ts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTs } from '../bench/run-ts.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
const file = path.join(dir, 'openapi.json');
try {
  process.argv[2] = file;
  await runTs(path.join(root, 'api/scripts/openapi-dump.entry.ts'));
  const res = spawnSync(path.join(root, 'node_modules/.bin/redocly'), ['lint', '--config', path.join(root, 'redocly.yaml'), file], { stdio: 'inherit' });
  process.exitCode = res.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
