import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_DOC, CONFIGURATION_DOC_COMMAND, renderConfigurationDoc } from '../config-docs';
import { SETTINGS } from '../config-schema';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const apiSrc = path.join(repoRoot, 'api/src');

/**
 * Environment variables the API's source may read without being settings of the server, each with why.
 * The deploy tools' ones run on a team's machine, not the server; docs/configuration.md names them under "Read elsewhere".
 */
const NOT_SETTINGS: Record<string, string> = {
  HOSTNAME: "set by the OS or the container: names this instance in the release sync's log, nothing to configure",
  DEPLOY_TOKEN: 'read by the deploy tools on the machine that deploys, not by the server',
  RELEASE_SIGNING_KEY: 'read by the deploy tools on the machine that deploys, not by the server',
  SITE_URL: 'read by the one-file deploy tool (/site-deploy.mjs), not by the server',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' || entry.name === 'test-support' ? [] : sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Every `env.X`, `env?.X`, `process.env.X` and `env['X']` read in `text`. */
function envReads(text: string): string[] {
  const names = [...text.matchAll(/\benv\??\.([A-Z][A-Z0-9_]*)\b/g), ...text.matchAll(/\benv\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g)];
  return names.map((m) => m[1]!);
}

describe('docs/configuration.md', () => {
  it('is what the settings table renders', () => {
    const onDisk = readFileSync(path.join(repoRoot, CONFIGURATION_DOC), 'utf8');
    expect(onDisk, `${CONFIGURATION_DOC} is stale: run \`${CONFIGURATION_DOC_COMMAND}\` and commit it`).toBe(renderConfigurationDoc());
  });

  it('gives every setting a group, a meaning and its default', () => {
    const doc = renderConfigurationDoc();
    for (const [name, setting] of Object.entries(SETTINGS)) {
      expect(setting.meaning.length, name).toBeGreaterThan(10);
      expect(doc).toContain(`| \`${name}\` |`);
    }
    expect(doc).toMatch(/\| `DISK_MIN_FREE` \| `50mb` \|/);
    expect(doc).toMatch(/\| `SSR_TIMEOUT_MS` \| `150` \|/);
    expect(doc).toMatch(/\| `DATABASE_URL` \| SQLite under `DATA_DIR` \|/);
  });

  it('escapes a pipe in a meaning so the table keeps its columns', () => {
    const doc = renderConfigurationDoc({ X_TEST: { ...SETTINGS.PORT, meaning: 'one | two' } });
    expect(doc).toContain('| `X_TEST` | `3000` | one \\| two |');
  });
});

describe('the settings table', () => {
  it('holds every environment variable the API source reads', () => {
    const missing: string[] = [];
    for (const file of sourceFiles(apiSrc)) {
      for (const name of envReads(readFileSync(file, 'utf8'))) {
        if (!(name in SETTINGS) && !(name in NOT_SETTINGS)) missing.push(`${name} (${path.relative(repoRoot, file)})`);
      }
    }
    expect(missing, 'add these to SETTINGS in api/src/config-schema.ts (or, if not a setting, to NOT_SETTINGS with why)').toEqual([]);
  });

  it('finds reads however they are written, and the doc names the deploy tools\' variables', () => {
    expect(envReads('process.env.FOO_BAR; env?.BAZ; io.env.QUX; env["X1"]; environment.NOPE; env.lower')).toEqual(['FOO_BAR', 'BAZ', 'QUX', 'X1']);
    const doc = renderConfigurationDoc();
    for (const name of ['DEPLOY_TOKEN', 'RELEASE_SIGNING_KEY', 'SITE_URL']) expect(doc).toContain(`\`${name}\``);
  });
});
