/*
 * Turning signing on must not take the site down (issue 51). With RELEASE_TRUSTED_KEYS set, an app is served only from
 * a release a trusted key signed; an app that has something to serve (a release, or a complete build before its first
 * one) but nothing so signed would answer "not built". The server refuses to start instead, naming each such app and
 * the command that signs them (server-lifecycle.ts), and `npm run deploy -- --all --key <file>` deploys exactly these.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { REMOTE_NAMES } from '@site/contracts/manifest';
import { POINTER_FILE, RELEASE_NAME, checkRelease, checkShellRelease, distDir, readHistory, releaseDir, remoteDir, servingOrder, type AppName } from './release-format';
import { verifyRelease, type TrustedKey } from './release-signature';

export interface UnsignedApp {
  app: AppName;
  /** Why the first release it would serve may not run (the signature check's reason). */
  reason: string;
}

/** The command that fixes it, named in the refusal and the README. */
export const SIGN_ALL_COMMAND = 'npm run deploy -- --all --key <operator key file>';

/** The apps of `siteRoot` with something to serve but no release (or build) signed by a key trusted for them. */
export async function appsWithoutTrustedSignature(siteRoot: string, trustedKeys: readonly TrustedKey[]): Promise<UnsignedApp[]> {
  if (trustedKeys.length === 0) return [];
  const unsigned: UnsignedApp[] = [];
  for (const app of ['shell', ...REMOTE_NAMES] as AppName[]) {
    const dir = remoteDir(siteRoot, app);
    const pointer = (await readFile(path.join(dir, POINTER_FILE), 'utf8').catch(() => '')).trim();
    const candidates: Array<{ label: string; dir: string }> = [];
    if (pointer) {
      // What the registry would try, in its order: the pointer's release, then the ones below it.
      const { stack } = await readHistory(dir);
      for (const version of servingOrder(pointer, undefined, stack)) {
        const folder = releaseDir(siteRoot, app, version);
        if (RELEASE_NAME.test(version) && (await stat(folder).then((s) => s.isDirectory(), () => false))) candidates.push({ label: `releases/${version}`, dir: folder });
      }
    } else {
      const dist = distDir(siteRoot, app);
      // A shell dist with its page is served without keys even when incomplete: it is named too (it needs a build).
      const served = app === 'shell' ? (await checkShellRelease(dist)).ok || (await stat(path.join(dist, 'index.html')).then((s) => s.isFile(), () => false)) : (await checkRelease(dist, app)).ok;
      if (served) candidates.push({ label: 'dist', dir: dist });
    }
    if (candidates.length === 0) continue;
    let reason = '';
    let signed = false;
    for (const candidate of candidates) {
      const check = await verifyRelease(candidate.dir, app, trustedKeys);
      if (check.ok) {
        signed = true;
        break;
      }
      reason ||= `${candidate.label}: ${check.reason}`;
    }
    if (!signed) unsigned.push({ app, reason });
  }
  return unsigned;
}

/** The refusal to start: each app and why, then what to do. */
export function unsignedAppsMessage(unsigned: readonly UnsignedApp[]): string {
  return [
    `RELEASE_TRUSTED_KEYS leaves ${unsigned.length === 1 ? 'an app' : `${unsigned.length} apps`} without a release signed by a key trusted for it, so the site could not serve ${unsigned.length === 1 ? 'it' : 'them'}:`,
    ...unsigned.map((u) => `  - ${u.app} (${u.reason})`),
    `Sign and deploy them with the operator's key (its public key in RELEASE_TRUSTED_KEYS for ${unsigned.map((u) => u.app).join(', ')}, or for *), then start again:`,
    `  ${SIGN_ALL_COMMAND}`,
    'The server did not start (README, "Signed releases").',
  ].join('\n');
}
