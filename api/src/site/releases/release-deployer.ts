/*
 * Deploys and rollbacks of a remote, done by the server itself (issue 33): what `POST /api/releases/{app}` and
 * `POST /api/releases/{app}/rollback` call, so a team's CI needs the site's URL, a deploy token and its key, not the
 * serving machine's disk or the database. Also the entry of api/dist/release-deployer.js, through which
 * `npm run deploy` runs the same code.
 *
 * One store, two backends behind one interface (release-backends.ts): this machine's SITE_ROOT, or the shared store
 * on PostgreSQL. Either way the registry (remote-registry.ts) serves what the pointer names, from the next request.
 *
 * Before anything changes, the release is written to a hidden folder of its own and checked as the registry will
 * check it (release-checks.ts). A refusal names the cause in full (file, line, the module's error) and leaves nothing
 * behind. Every outcome, refusals included, goes to the deploy log as it happens (deployer-context.ts). The commands
 * are deploy-commands.ts (deploy, rollback) and promote-commands.ts (promote, canaries); release-builds.ts imports
 * the builds a site served before its first release.
 */
import path from 'node:path';
import { openDatabase, SQLITE_FILE_NAME } from '../../db/database';
import { createDeployLog, type DeployLog } from '../../deploys/deploy-log';
import type { ReleaseDeployer } from '../../deploys/deployer-port';
import { createRecorder, type DeployerContext, type ReleaseDeployerOptions } from './deployer-context';
import { createDeployCommands } from './deploy-commands';
import { createPromoteCommands } from './promote-commands';
import { localBackend, sharedBackend } from './release-backends';
import { createBuildImports } from './release-builds';
import { createReleaseChecks, exists, ReleaseRefusedError } from './release-checks';
import { RELEASE_NAME, type AppName } from './release-format';
import { readRunningCanaries } from './canaries-repository';
import { createSmokeRenderer } from './smoke-render';

// npm run deploy -- <app> --stage prints the preview link with the server's signer (PREVIEW_SECRET) from this bundle.
export { createPreviewTokens, PREVIEW_PARAM } from './preview-tokens';
// npm run deploy -- --all signs and deploys the apps trusted keys would leave unsigned (issue 51).
export { appsWithoutTrustedSignature } from './signing-gate';
// npm run deploy/rollback/promote import all they need from this one bundle (issue 51), nothing copied: the release
// format and store, and the site's release policy read from the environment as the server reads it.
export { loadReleasePolicy } from '../../config';
export {
  checkRelease,
  checkShellRelease,
  packReleaseTarball,
  parseTrustedKeys,
  POINTER_FILE,
  readManifest,
  RELEASE_NAME,
  REMOTE_NAMES,
  releaseDir,
  remoteDir,
  SIGNATURE_FILE,
  signFiles,
  useReleasePolicy,
} from './release-format';
export { openReleaseStore, readSharedPointer, readStoredRelease } from './releases-repository';
// npm run deploy names a build as a deploy over HTTP does (deploy-over-http.ts).
export { freeName, freeReleaseName, manifestVersion, readFolder, ReleaseRefusedError } from './release-checks';
// npm run deploy --notes/--commit/--ci-url are checked as an upload's query is.
export { releaseProvenanceSchema } from '@site/contracts/deploys';
// What the services see of it (deploys/deployer-port.ts): deploy, rollback, list, import builds.
export type { DeployActor, DeployOptions, KeptDistNotice, ReleaseDeployer } from '../../deploys/deployer-port';
export type { ReleaseDeployerOptions } from './deployer-context';

/**
 * For npm run deploy/rollback/promote on the serving machine: the site's deploy log (the admin dashboard's), written as
 * deploys over HTTP write it. The site's database: PostgreSQL with DATABASE_URL, else the SQLite file in DATA_DIR when
 * the site has one (a site that never started has no log to write to: undefined).
 */
export async function openDeployLog(options: { databaseUrl?: string; dataDir: string }): Promise<{ record: DeployLog['record']; close(): Promise<void> } | undefined> {
  if (!options.databaseUrl && !(await exists(path.join(options.dataDir, SQLITE_FILE_NAME)))) return undefined;
  const handle = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  const log = createDeployLog(handle.db);
  return { record: (entry) => log.record(entry), close: () => handle.close() };
}

export function createReleaseDeployer(options: ReleaseDeployerOptions): ReleaseDeployer {
  const { siteRoot, logger } = options;
  const backend = options.shared ? sharedBackend(options.shared) : localBackend(siteRoot, options.canaryDb);
  const { checkedFolder } = createReleaseChecks({ ...options, smoke: options.smokeRender ?? createSmokeRenderer({ logger }) });
  const context: DeployerContext = {
    options,
    backend,
    checkedFolder,
    recorded: createRecorder(options),
    listedBy: options.listedBy ?? ((app: AppName) => `GET /api/releases/${app}`),
  };
  const builds = createBuildImports(context);
  const promotion = createPromoteCommands(context);
  const commands = createDeployCommands(context, builds, promotion.stopCanary);

  return {
    importBuilds: builds.importBuilds,
    deploy: commands.deploy,
    rollback: commands.rollback,
    promote: promotion.promote,
    stopCanary: promotion.stopCanary,

    async canaries() {
      const db = options.shared ?? options.canaryDb;
      return db ? readRunningCanaries(db) : [];
    },

    refuse(app, actor, message) {
      return context.recorded(app, 'deploy', actor, () => null, () => Promise.reject(new ReleaseRefusedError(message)));
    },

    async list(app) {
      const { pointer, releases } = await backend.list(app);
      const shown = releases.slice(0, 100);
      const by = (await options.deployedBy?.(app, shown.map((release) => release.version))) ?? new Map<string, string>();
      return {
        app,
        served: pointer ? { version: pointer.version, since: pointer.since, by: by.get(pointer.version) ?? null } : null,
        releases: shown.map((release) => ({ ...release, current: release.version === pointer?.version, by: by.get(release.version) ?? null })),
      };
    },

    async previewUrl(app, version) {
      if (!options.previewLink) return null;
      return RELEASE_NAME.test(version) && (await backend.isStaged(app, version)) ? ((await options.previewLink(app, version)) ?? null) : null;
    },

    async history(app) {
      const { pointer } = await backend.list(app);
      return pointer ? { version: pointer.version, ...pointer.history } : null;
    },
  };
}
