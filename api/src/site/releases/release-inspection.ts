/*
 * How the registry (remote-registry.ts) judges a release folder before serving it: complete, fitting the serving
 * shell, signed by a trusted key (checked again only when its signature file changes), and its server module loading.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { MfeManifest, RemoteName } from '@site/contracts/manifest';
import type { RemoteServerModule } from '@site/contracts/server-render';
import type { ServedRemote, ServerEntryStatus } from '../../health/deployed-remotes';
import { statShared } from '../../lib/stat-shared';
import { importRelease, judgeRelease, RELEASE_NAME, releaseDir, serverFiles, stagedDir as stagedDirOf, type SharedModules } from './release-format';
import { SIGNATURE_FILE, verifyRelease, type SignatureCheck, type TrustedKey } from './release-signature';

/** Loads a release's server module(s): release-format's importRelease unless a test wraps it. */
export type ReleaseImporter = (dir: string, manifest: MfeManifest, shared?: SharedModules) => ReturnType<typeof importRelease>;

export type Inspection = { ok: true; manifest: MfeManifest; dir: string } | { ok: false; reason: string };
export type Probe = { status: ServerEntryStatus; module: RemoteServerModule | null; reason?: string };

/** What decides whether a file changed: its identity, times and size ('absent' when there is none). */
export const statKey = async (file: string) => {
  const info = await statShared(file);
  return info ? `${info.ino}:${info.mtimeMs}:${info.ctimeMs}:${info.size}` : 'absent';
};

/** What the registry serves of a release folder; `pointer` is the version `current` named then (null: not a pointer's). */
export const servedRemote = (name: RemoteName, version: string, dir: string, layout: ServedRemote['layout'], probe: Probe, since: string, pointer: string | null): ServedRemote => ({
  name,
  version,
  dir,
  layout,
  serverEntry: probe.status,
  ...(probe.reason ? { serverError: probe.reason } : {}),
  module: probe.module,
  since,
  pointer,
});

export interface ReleaseInspector {
  /** Why a folder may not run, or undefined when it may (signed by a trusted key, or no key is configured). */
  unsigned(dir: string, name: RemoteName): Promise<string | undefined>;
  /** A release is served when it is complete and can run in the serving shell (a staged one: in staged/). */
  inspectRelease(name: RemoteName, version: string, where?: 'releases' | 'staged'): Promise<Inspection>;
  /** Imports the server module(s) of a release with release-format's importer, the same as the deploy checks them. */
  probeServer(dir: string, manifest: MfeManifest): Promise<Probe>;
}

export function createReleaseInspector(options: {
  siteRoot: string;
  trustedKeys: readonly TrustedKey[];
  importer?: ReleaseImporter;
  shared?: () => Promise<SharedModules | undefined>;
}): ReleaseInspector {
  const { trustedKeys } = options;
  /** Signature checks by folder and signature file (a release folder never changes once named). */
  const verified = new Map<string, { key: string; check: Promise<SignatureCheck> }>();
  /** The signature check of a folder, done again only when its signature file changes. */
  async function verifyCached(dir: string, name: RemoteName): Promise<SignatureCheck> {
    const key = await statKey(path.join(dir, SIGNATURE_FILE));
    let entry = verified.get(dir);
    if (entry?.key !== key) {
      entry = { key, check: verifyRelease(dir, name, trustedKeys) };
      verified.set(dir, entry);
    }
    return entry.check;
  }
  /** Why a folder may not run, or undefined when it may (signed by a trusted key, or no key is configured). */
  async function unsigned(dir: string, name: RemoteName): Promise<string | undefined> {
    if (trustedKeys.length === 0) return undefined;
    const check = await verifyCached(dir, name);
    return check.ok ? undefined : `not signed by a key trusted for ${name}: ${check.reason}`;
  }
  const importer = options.importer ?? importRelease;

  async function inspectRelease(name: RemoteName, version: string, where: 'releases' | 'staged' = 'releases'): Promise<Inspection> {
    if (!RELEASE_NAME.test(version)) return { ok: false, reason: `"${version.slice(0, 100)}" is not a release name` };
    const dir = where === 'staged' ? stagedDirOf(options.siteRoot, name, version) : releaseDir(options.siteRoot, name, version);
    if (!(await stat(dir).then((s) => s.isDirectory(), () => false))) return { ok: false, reason: `${where}/${version}/ does not exist` };
    // The deployer's judgement of an upload, made again of what is on disk (release-format's judgeRelease).
    const check = await judgeRelease(dir, name, { siteRoot: options.siteRoot, trustedKeys, verify: verifyCached });
    if (!check.ok) return { ok: false, reason: check.part === 'format' ? `${where}/${version}/${check.problem}` : `${where}/${version}: ${check.problem}` };
    return { ok: true, manifest: { ...check.manifest, version }, dir };
  }

  async function probeServer(dir: string, manifest: MfeManifest): Promise<Probe> {
    if (serverFiles(manifest).length === 0) return { status: 'none', module: null };
    const result = await importer(dir, manifest, await options.shared?.());
    if (!result.ok) return { status: 'failed', module: null, reason: result.reason };
    return { status: 'ok', module: result.module };
  }

  return { unsigned, inspectRelease, probeServer };
}
