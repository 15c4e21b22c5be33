import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { distDir, type AppName } from '../site/releases/release-format';
import { signRelease } from '../site/releases/release-signature';

/**
 * Signs the built dists of `apps` under `siteRoot` in place, as `npm run deploy -- --all --key <file>` does for an
 * operator. A server with RELEASE_TRUSTED_KEYS refuses to start while an app with something to serve has no trusted
 * signature (signing-gate.ts), so a test trusting a key for one app signs the others with a key trusted for them.
 * Call it after the last write to those dists: a file added later is not covered.
 */
export async function signDists(siteRoot: string, apps: readonly AppName[], privateKeyPem: string): Promise<void> {
  for (const app of apps) {
    const dist = distDir(siteRoot, app);
    const manifest = path.join(dist, app === 'shell' ? 'shell-manifest.json' : 'mfe-manifest.json');
    const version = await readFile(manifest, 'utf8').then((text) => String((JSON.parse(text) as { version?: unknown }).version ?? 'dist'), () => 'dist');
    await signRelease(dist, app, version, privateKeyPem);
  }
}
