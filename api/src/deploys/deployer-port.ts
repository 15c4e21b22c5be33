import type { AppName, AppReleases, CanaryStatus, ReleaseChange } from '@site/contracts/deploys';

/*
 * What the services and routes know of deploys (issue 33): an interface. The deployer itself, which reads and writes
 * releases in the site's folders and store, is site/releases/release-deployer.ts; container.ts builds it and passes it in.
 */

/**
 * A canary running (issue 34): a staged release of a remote served to `percent` of visitors (1 to 99), the others
 * keeping `current`. Kept by the deployer in the site's database (site/releases/canaries-repository.ts).
 */
export type Canary = Omit<CanaryStatus, 'countedSince' | 'canary' | 'served'> & {
  /** Its row; hashed with a visitor's bucket to say which release the visitor gets. */
  id: string;
};

/** Who asked: a deploy token's name (or `npm run deploy`), and from where. */
export interface DeployActor {
  by: string;
  from: string | null;
}

/**
 * What a first deploy did with the build served before it (`<app>/dist`): kept as a release (the rollback target), or
 * not, and why. `npm run deploy` prints it; the deploy's entry in the deploy log says it.
 */
export type KeptDistNotice = { kept: { version: string; files: number; bytes: number } } | { notKept: string };

/** How a deploy or rollback goes. `skipLoadCheck` (npm run deploy --skip-load-check only) switches to a release whose server module does not load. */
export interface DeployOptions {
  version?: string;
  skipLoadCheck?: boolean;
  /** Told what became of the served build on a first deploy. */
  keptDist?: (notice: KeptDistNotice) => void;
  /**
   * Stored and checked like any deploy (format, shell fit, signature, server module), served to no one: a browser
   * with its preview link sees it (issue 34) until it is promoted.
   */
  stage?: boolean;
  /**
   * Serves a release whose version is below the served one (semver; issue 51): refused without it, and the deploy log
   * says it was a downgrade. A rollback to a stored release never needs it.
   */
  allowDowngrade?: boolean;
  /**
   * Runs every check of a deploy (staged: of a staged upload) and stores nothing (issue 52): no release, no pointer
   * move, no staged folder, no deploy log entry; the name stays free. Answers the change with `dryRun: true`.
   */
  dryRun?: boolean;
  /** Where the release came from (issue 52), kept on its deploy log entry (and, through it, on those about it). */
  provenance?: { notes?: string; commit?: string; ciUrl?: string };
}

export interface ReleaseDeployer {
  /** Checks `files` (path -> bytes, a built dist) as a release of `app` and makes it the served one (or stores it staged). */
  deploy(app: AppName, files: ReadonlyMap<string, Buffer>, actor: DeployActor, options?: DeployOptions): Promise<ReleaseChange>;
  /** Serves `version`, else the release below the served one; with a canary running and no `version`, ends the canary. */
  rollback(app: AppName, actor: DeployActor, options?: Omit<DeployOptions, 'keptDist' | 'allowDowngrade' | 'dryRun' | 'provenance'>): Promise<ReleaseChange>;
  /**
   * Imports each remote's built output (`mfe-<name>/dist`) as a release named after its version and content
   * (`1.0.0+build.<8 hex>`), so that a build never changes what is served by itself: `first` only where the remote
   * has no release at all in its store, `changed` also where the served release is another imported build (`npm start`,
   * which builds in order to serve). Never throws: what could not be imported is logged and in the deploy log.
   */
  importBuilds(mode: 'first' | 'changed', by: string): Promise<Array<{ app: AppName; version: string; result: 'imported' | 'served' | 'skipped'; reason?: string }>>;
  /**
   * Serves a staged release to everyone, checked again as it will be served now (the rollback stack gains it); with a
   * `percent` below 100, to that share of visitors as a canary (issue 34: it stays staged, the served release keeps
   * the others; promoting it again changes the share, or serves it to everyone without a percent or at 100), until
   * `promoteAfter` if given. One canary per app at a time.
   */
  promote(app: AppName, actor: DeployActor, options: { version: string; percent?: number; promoteAfter?: string; skipLoadCheck?: boolean; allowDowngrade?: boolean }): Promise<ReleaseChange>;
  /**
   * Ends `app`'s running canary (`id`: only that one) and writes `canary_rollback` to the deploy log with `reason`:
   * everyone gets the served release again (`version` of the answer; `previous`: the canary's). Null, with nothing
   * written, when no such canary runs.
   */
  stopCanary(app: AppName, actor: DeployActor, end: { id?: string; outcome: 'rolled_back' | 'stopped'; reason: string }): Promise<ReleaseChange | null>;
  /** The canaries running now, read from the database (none where no database keeps them). */
  canaries(): Promise<Canary[]>;
  /** A fresh preview link of `app`'s release `version` while it is staged, else null. */
  previewUrl(app: AppName, version: string): Promise<string | null>;
  /** Records and alerts a deploy refused before it reached the checks (its archive), then throws the refusal. */
  refuse(app: AppName, actor: DeployActor, message: string): Promise<never>;
  /** What is stored of `app`, which is served, since when and by whom. */
  list(app: AppName): Promise<Omit<AppReleases, 'app'> & { app: AppName }>;
  /**
   * The served release's history (null before any release): the stack a rollback walks down, which release holds the
   * dist served before the first deploy, which were imported from a build. What happened is the deploy log's.
   */
  history(app: AppName): Promise<{ version: string; stack: string[]; keptDist?: string; builds?: string[] } | null>;
}
