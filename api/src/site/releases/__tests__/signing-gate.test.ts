import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MANIFESTS, createSiteFixture } from '../../../test-support/site-fixture';
import { startTestServer } from '../../../test-support/test-server';
import { newSigningKey, signRelease, trustedKeyEntry } from '../release-signature';

/*
 * Issue 51: turning signing on for one app without signing the rest. The server refuses to start, naming each app
 * left unsigned and the command; after that command (npm run deploy -- --all --key <file>) it starts and serves every
 * app signed.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const DEPLOY_SCRIPT = path.resolve(import.meta.dirname, '../../../../../scripts/deploy-remote.mjs');
function script(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [DEPLOY_SCRIPT, ...args], { env: { ...process.env, DATABASE_URL: '', ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('turning signing on', () => {
  it('refuses to start naming each unsigned app and the command; after npm run deploy -- --all --key, every app is served signed', async () => {
    const site = await createSiteFixture();
    cleanups.push(() => site.cleanup());
    const blogKey = newSigningKey();
    const operator = newSigningKey();
    // A built shell (its manifest as the build writes it); the blog team signed its build; the operator's apps are not signed yet.
    await site.writeFile('shell/dist/shell-manifest.json', await readFile(path.resolve(import.meta.dirname, '../../../../../shell/dist/shell-manifest.json')));
    await signRelease(path.join(site.root, 'mfe-blog', 'dist'), 'blog', MANIFESTS.blog.version, blogKey.privateKeyPem);
    const blogOnly = trustedKeyEntry(['blog'], blogKey.publicKey);

    const refused = await startTestServer({ siteRoot: site.root, env: { RELEASE_TRUSTED_KEYS: blogOnly } }).then(
      async (server) => {
        await server.close();
        return null;
      },
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(refused).not.toBeNull();
    expect(refused).toContain('RELEASE_TRUSTED_KEYS leaves 3 apps without a release signed by a key trusted for it');
    expect(refused).toMatch(/- shell \(dist: release-signature\.json is missing/);
    expect(refused).toMatch(/- marketing \(dist: release-signature\.json is missing/);
    expect(refused).toMatch(/- admin \(dist: /);
    expect(refused).not.toMatch(/- blog /);
    expect(refused).toContain('npm run deploy -- --all --key <operator key file>');

    // The documented order: the operator's key is trusted for its apps, then the command signs and deploys them.
    const keys = [blogOnly, trustedKeyEntry(['*'], operator.publicKey)].join(',');
    const keyFile = path.join(site.root, 'operator.key');
    await writeFile(keyFile, operator.privateKeyPem, { mode: 0o600 });
    const signed = await script(['deploy', '--all', '--key', keyFile], { SITE_ROOT: site.root, INIT_CWD: site.root, RELEASE_TRUSTED_KEYS: keys });
    expect(signed.stderr).toBe('');
    expect(signed.code).toBe(0);
    expect(signed.stdout).toContain('Signing and deploying shell, marketing, admin');

    const server = await startTestServer({ siteRoot: site.root, env: { RELEASE_TRUSTED_KEYS: keys } });
    cleanups.push(() => server.close());
    const health = (await (await fetch(`${server.url}/api/health`)).json()) as { status: string; remotes?: Record<string, { version: string }> };
    expect(Object.keys(health.remotes ?? {}).sort()).toEqual(['admin', 'blog', 'marketing']);
    expect(health.remotes?.marketing?.version).toBe(MANIFESTS.marketing.version);
    expect(health.remotes?.blog?.version).toBe(MANIFESTS.blog.version);
    for (const page of ['/', '/blog']) expect((await fetch(`${server.url}${page}`)).status, page).toBe(200);
  }, 60_000);
});
