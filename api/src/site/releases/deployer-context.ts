/*
 * What the deployer's use cases (deploy-commands.ts, promote-commands.ts, release-builds.ts) share: the deployer's
 * options, its backend and checks, and the deploy log every outcome goes to as it happens.
 */
import type { ReleaseChange } from '@site/contracts/deploys';
import type { MfeManifest } from '@site/contracts/manifest';
import type { NewDeployLogEntry } from '../../deploys/deploy-log';
import type { DeployActor, DeployOptions } from '../../deploys/deployer-port';
import { DomainError } from '../../lib/domain-errors';
import type { Logger } from '../../lib/logger';
import type { ReleaseBackend } from './release-backends';
import type { CheckedFolder } from './release-checks';
import type { AppName, SharedModules } from './release-format';
import type { TrustedKey } from './release-signature';
import type { ReleasesDb } from './releases-repository';
import type { SmokeRenderer } from './smoke-render';

/** What the deployer's use cases are given: its options and what it built from them. */
export interface DeployerContext {
  options: ReleaseDeployerOptions;
  backend: ReleaseBackend;
  checkedFolder: CheckedFolder;
  recorded: Recorder;
  /** Where the caller finds the list of an app's releases, named in refusals. */
  listedBy: (app: AppName) => string;
}

export interface ReleaseDeployerOptions {
  siteRoot: string;
  /** PostgreSQL: releases go to the shared store (every instance). Absent: this machine's SITE_ROOT. */
  shared?: ReleasesDb;
  trustedKeys: readonly TrustedKey[];
  /** The serving shell's shared singletons, handed to the server module when it is loaded to check it. */
  sharedModules: () => Promise<SharedModules | undefined>;
  /** Writes one line of the deploy log (services.deployLog.record). */
  record: (entry: NewDeployLogEntry) => Promise<unknown>;
  /** Raises the owner's alert for a refused or failed deploy. */
  alert: (alert: { title: string; message: string; key: string }) => void;
  /** The manifests of the remotes served now (a shell release must not strand one). */
  servedManifests: () => Promise<readonly MfeManifest[]>;
  /** Who deployed these releases (the deploy log's successful deploys). */
  deployedBy?: (app: AppName, versions: string[]) => Promise<Map<string, string>>;
  /**
   * Told after a switch or a canary's change (the release sync of this instance, so it does not wait for its NOTIFY,
   * and its canaries read again), before the caller is answered.
   */
  switched?: (app: AppName) => void | Promise<void>;
  /** Where the caller finds the list of an app's releases, named in refusals (default: the HTTP endpoint). */
  listedBy?: (app: AppName) => string;
  /** A preview link of a staged release (site/releases/preview-tokens.ts); absent: staged releases have none. */
  previewLink?: (app: AppName, version: string) => Promise<string | undefined>;
  /**
   * The site's database, where canaries are kept on SQLite (on PostgreSQL: `shared`). Absent (npm run deploy on the
   * serving machine without PostgreSQL): a canary is refused, said to be started on the running site.
   */
  canaryDb?: ReleasesDb;
  /**
   * Renders every page of an uploaded release on a worker before it is stored (smoke-render.ts); default: with no site
   * data (`npm run deploy` on the serving machine), the pages' data left out as when the server has none.
   */
  smokeRender?: SmokeRenderer;
  logger: Logger;
  clock: () => Date;
}

/** Records the outcome (and alerts on a refusal or failure), then answers or rethrows. */
export type Recorder = ReturnType<typeof createRecorder>;

export function createRecorder(options: Pick<ReleaseDeployerOptions, 'record' | 'alert' | 'switched' | 'logger'>) {
  const { logger } = options;
  return async function recorded<T extends ReleaseChange>(
    app: AppName,
    action: NewDeployLogEntry['action'],
    actor: DeployActor,
    version: () => string | null,
    work: () => Promise<T>,
    /** What the log says of a change that went through (a canary's share, why it ended); null says nothing. */
    describe: (change: T) => string | null = () => null,
    /** An upload's notes, commit and pipeline run (the log carries them to the entries about the release after). */
    provenance: DeployOptions['provenance'] = {},
  ): Promise<T> {
    try {
      const change = await work();
      const message = describe(change);
      await options.record({ app, action, version: change.version, previous: change.previous, result: 'ok', by: actor.by, from: actor.from, message, ...provenance });
      const outcome =
        message ?? (action === 'stage' ? `${change.version} stored staged, served to no one (still serving ${change.previous ?? 'nothing'})` : `now serving ${change.version}`);
      logger.info({ app, action, version: change.version, previous: change.previous, by: actor.by, from: actor.from }, `${app} ${action}: ${outcome}`);
      // Awaited: this instance reads the canaries again before the caller is answered (its next page has the split).
      await options.switched?.(app);
      return change;
    } catch (error) {
      const refused = error instanceof DomainError;
      const message = error instanceof Error ? error.message : String(error);
      await options
        .record({ app, action, version: version(), previous: null, result: refused ? 'refused' : 'failed', by: actor.by, from: actor.from, message, ...provenance })
        .catch((recordError: unknown) => logger.error({ err: recordError }, 'could not write the deploy log'));
      logger.warn({ app, action, by: actor.by, from: actor.from, err: error }, `${app} ${action} ${refused ? 'refused' : 'failed'}: ${message}`);
      options.alert({
        title: `${app} ${action} ${refused ? 'refused' : 'failed'}`,
        message: `${actor.by}${actor.from ? ` (${actor.from})` : ''}: ${message}`,
        key: `deploy:${app}:${action}`,
      });
      throw error;
    }
  };
}
