import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { API_VERSION } from '../../lib/version';
import { API_ENDPOINTS } from '../api-routes';
import { apiDescription } from '../openapi-document';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

// `npx @redocly/cli lint` under the repo's redocly.yaml (rules off only with a reason there): no error, no warning.
it('the API description passes Redocly lint with no problem', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(apiDescription(API_ENDPOINTS, { publicOrigin: 'https://example.test', version: API_VERSION }), null, 2));
    const res = spawnSync(path.join(ROOT, 'node_modules/.bin/redocly'), ['lint', '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'stylish', file], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const output = `${res.stdout}\n${res.stderr}`;
    expect(res.status, output).toBe(0);
    // "valid" with no "You have N warnings" line (Redocly's own notice about the Node version is not a finding).
    expect(output, output).toMatch(/Your API description is valid/);
    expect(output, output).not.toMatch(/You have \d+ warnings?/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
