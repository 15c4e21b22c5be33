/*
 * The builds a site served before its first release (release-deployer.ts): imported as releases at the first start
 * (`importBuilds`), or kept below the first deploy (`keepServedDist`) so that a rollback returns to them.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { REMOTE_NAMES, type MfeManifest } from '@site/contracts/manifest';
import type { KeptDistNotice, ReleaseDeployer } from '../../deploys/deployer-port';
import type { DeployerContext } from './deployer-context';
import type { History, LockedStore } from './release-backends';
import { builtVersion, freeName, readFolder } from './release-checks';
import { checkRelease, checkShellRelease, distDir, RELEASE_NAME, type AppName } from './release-format';
import { verifyRelease } from './release-signature';
import { releaseDigest, sha256 } from './releases-repository';

const APPS: readonly AppName[] = ['shell', ...REMOTE_NAMES];

export interface BuildImports extends Pick<ReleaseDeployer, 'importBuilds'> {
  keepServedDist(app: AppName, store: LockedStore, history: History, now: Date, deploying: string): Promise<KeptDistNotice | null>;
  relativeDist(app: AppName): string;
  firstServed(app: AppName, history: History, version: string): string | undefined;
}

export function createBuildImports({ options, backend, checkedFolder }: DeployerContext): BuildImports {
  const { siteRoot, logger } = options;

  /** The release name of a build: its manifest version and the digest of its files. */
  function buildName(version: string, files: ReadonlyMap<string, Buffer>): string {
    const digest = releaseDigest(Object.fromEntries([...files].map(([file, bytes]) => [file, sha256(bytes)]))).slice(0, 8);
    const name = `${version}${version.includes('+') ? '.' : '+'}build.${digest}`;
    return RELEASE_NAME.test(name) ? name : `build.${digest}`;
  }

  /** Imports `app`'s built dist as a release where the store has none (`first`), or replaces an imported one (`changed`). */
  async function importBuild(app: AppName, mode: 'first' | 'changed', by: string) {
    const dist = distDir(siteRoot, app);
    const check = await builtVersion(dist, app);
    if (!check) return { app, version: '', result: 'skipped' as const, reason: 'nothing built' };
    if (options.trustedKeys.length > 0) {
      // An unsigned build would not be served anyway: with keys, releases arrive signed, by a deploy.
      return { app, version: '', result: 'skipped' as const, reason: 'RELEASE_TRUSTED_KEYS is set: deploy it signed' };
    }
    // What is served is the store's to say: a build is imported only where the store has no release at all (no
    // pointer, no stored or staged release), whatever a database or a first start remembers.
    const listed = await backend.list(app);
    if (mode === 'first' && (listed.pointer || listed.releases.length > 0)) return { app, version: '', result: 'served' as const };
    const files = await readFolder(dist);
    const version = buildName(check.version, files);
    let previous: string | null = null;
    const result = await backend.locked(app, async (store) => {
      const pointer = await store.pointer();
      previous = pointer?.version ?? null;
      if (pointer && (mode === 'first' || pointer.version === version)) return 'served' as const;
      // `changed` (npm start) replaces only a release that was itself imported from a build: a deploy, a rollback or a
      // promote since then is the served release until the next deploy, never a rebuilt dist.
      if (pointer && pointer.history.servedBuild !== pointer.version) return 'deployed' as const;
      if (!pointer && (await backend.list(app)).releases.length > 0) return 'served' as const;
      const history: History = pointer ? { ...pointer.history, stack: [...pointer.history.stack] } : { stack: [] };
      const now = options.clock();
      if (!(await store.taken(version))) {
        const { dir } = await checkedFolder(app, version, files);
        try {
          await store.store(version, dir, files, now);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }
      if (pointer && history.stack.at(-1) !== pointer.version) history.stack.push(pointer.version);
      history.stack.push(version);
      // What `npm start` may replace, and what a rollback at the bottom says this release is (the deploy log has the rest).
      await store.point(version, { ...history, builds: [...(history.builds ?? []), version], servedBuild: version });
      return 'imported' as const;
    });
    if (result === 'imported') {
      await options.record({ app, action: 'deploy', version, previous, result: 'ok', by, from: null, message: `mfe-${app}/dist imported as a release` });
      logger.info({ app, version, previous }, `mfe-${app}/dist imported as release ${version}: a build changes what is served only through a deploy`);
      void options.switched?.(app);
    }
    if (result === 'deployed') {
      const reason = `${previous} was deployed: a build does not replace it (npm run deploy -- ${app} serves the build)`;
      logger.info({ app, version: previous, build: version }, `mfe-${app}/dist (${version}) is not imported: ${reason}`);
      return { app, version: previous ?? '', result: 'served' as const, reason };
    }
    return { app, version, result };
  }

  /** `<app>/dist` as a person names it: relative to the site's root, with `/`. */
  function relativeDist(app: AppName): string {
    return path.relative(siteRoot, distDir(siteRoot, app)).split(path.sep).join('/');
  }

  /** What the release `version` at the bottom of the history was, when it is the build served before any deploy. */
  function firstServed(app: AppName, history: History, version: string): string | undefined {
    const dist = relativeDist(app);
    if (history.keptDist === version) return `${version} is ${dist} as it was served before the first release`;
    if (history.builds?.includes(version)) return `${version} is ${dist} as built when the site first started`;
    return undefined;
  }

  /**
   * The first deploy of an app on a site that served its built dist: that dist is kept as a release below the new
   * one (`deploying`), so the first rollback returns to exactly what was served before (the history's `keptDist`).
   * Says what it kept, or why it could not; null when no build of this app was there.
   */
  async function keepServedDist(app: AppName, store: LockedStore, history: History, now: Date, deploying: string): Promise<KeptDistNotice | null> {
    const dist = distDir(siteRoot, app);
    const shown = relativeDist(app);
    const check = app === 'shell' ? await checkShellRelease(dist) : await checkRelease(dist, app);
    // Without its manifest there was nothing of this app to serve: nothing to keep, nothing promised.
    if (!check.ok && /-manifest\.json is missing$/.test(check.problems[0] ?? '')) return null;
    const notKept = (reason: string): KeptDistNotice => {
      const message = `${shown} was served but is not kept as a release, so a rollback cannot return to it: ${reason}`;
      logger.warn({ app }, message);
      return { notKept: message };
    };
    if (!check.ok) return notKept(check.problems.join('; '));
    // With trusted keys, an unsigned build was never served (release-signature.ts): there is nothing to return to.
    if (options.trustedKeys.length > 0 && !(await verifyRelease(dist, app, options.trustedKeys)).ok) return null;
    const built = app === 'shell' ? (check as { version: string }).version : (check as { manifest: MfeManifest }).manifest.version;
    const marked = `${built}${built.includes('+') ? '.' : '+'}dist`;
    const version = await freeName(async (v) => v === deploying || (await store.taken(v)), RELEASE_NAME.test(marked) ? marked : 'dist');
    const files = await readFolder(dist);
    let kept: { dir: string };
    try {
      kept = await checkedFolder(app, version, files);
    } catch (error) {
      return notKept(error instanceof Error ? error.message : String(error));
    }
    // Older than the new release (earlier releases answer old hashed chunks, newest first).
    await store.store(version, kept.dir, files, new Date(now.getTime() - 1000));
    history.keptDist = version;
    return { kept: { version, files: files.size, bytes: [...files.values()].reduce((sum, bytes) => sum + bytes.length, 0) } };
  }

  return {
    async importBuilds(mode, by) {
      const results = [];
      // The shell first: the remotes are then judged against the shell that will serve them.
      for (const app of APPS) {
        try {
          results.push(await importBuild(app, mode, by));
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          logger.error({ app, err: error }, `mfe-${app}/dist could not be imported as a release: ${reason}`);
          await options.record({ app, action: 'deploy', version: null, previous: null, result: 'failed', by, from: null, message: `mfe-${app}/dist could not be imported: ${reason}` }).catch(() => undefined);
          results.push({ app, version: '', result: 'skipped' as const, reason });
        }
      }
      return results;
    },
    keepServedDist,
    relativeDist,
    firstServed,
  };
}
