import type { CanaryRules, CanaryStatus } from '@site/contracts/deploys';
import type { ReleaseCounts } from '@site/contracts/release-errors';
import type { AlertService } from '../admin/alert-service';
import type { Clock } from '../lib/clock';
import type { JobRunner } from '../lib/job-runner';
import type { Logger } from '../lib/logger';
import { browserErrorsText, DEFAULT_MIN_REPORTERS, decidingErrors, rateOf, type ReleaseErrorsService } from '../release-errors/release-errors-service';
import type { Canary, DeployActor, ReleaseDeployer } from './deployer-port';

/*
 * The canary check (issue 34): while a canary serves a staged release to a share of visitors, one instance (the job's
 * lease) compares the canary's error rate with the served release's every few seconds, over the minutes since the
 * canary started (at most the error window): server render errors and fallbacks plus the browser's reports, per page
 * view, every instance's counts added up (release-errors/). A canary whose rate is at least RELEASE_CANARY_MAX_RATE_PERCENT
 * and at least RELEASE_CANARY_RATIO times the served release's, over at least RELEASE_CANARY_MIN_VIEWS of its page
 * views, is rolled back by itself: the canary ends (everyone gets the served release from the next request, on every
 * instance), the deploy log says why (`canary_rollback`, with both rates and counts) and a Deployment alert is raised.
 * A canary given `promoteAfter` and not rolled back by then is served to everyone at that time.
 *
 * Raw browser reports never decide (issue 51): a browser's report counts only with its page load's signed token (one
 * error per page load, 20 reports a minute per address), and browser errors enter either rate only once at least
 * `minReporters` distinct visitors (addresses, an IPv6 one per /64) reported them since the canary started; server
 * render errors and fallbacks, which the server saw itself, always count. Page views are the server's page requests and
 * the token-carrying moves inside the site.
 */

/** RELEASE_CANARY_MAX_RATE_PERCENT 2, RELEASE_CANARY_RATIO 3, RELEASE_CANARY_MIN_VIEWS 50, RELEASE_ERROR_MIN_REPORTERS 5. */
export const DEFAULT_CANARY_RULES: Required<CanaryRules> = { maxRate: 0.02, ratio: 3, minPageViews: 50, minReporters: DEFAULT_MIN_REPORTERS };
/** How often the canary check runs (counts reach the database every 5 s from each instance; the checker adds its own first). */
export const CANARY_CHECK_MS = 10_000;
/** Who the deploy log says ended or promoted a canary by itself. */
export const CANARY_CHECK_ACTOR: DeployActor = { by: 'automatic canary check', from: null };
const MINUTE_MS = 60_000;

const percent = (rate: number | null) => (rate === null ? 'no page views' : `${Math.round(rate * 1000) / 10}%`);
/**
 * Whether a canary is rolled back: its rate at least `maxRate` and at least `ratio` times the served release's (a
 * served release without errors: any rate), over at least `minPageViews` of its page views. Both rates count server
 * render errors, and browser errors only once at least `minReporters` distinct visitors reported them: a few
 * addresses' reports neither roll a canary back nor, against the served release, keep a failing one in. `why` says it
 * with figures.
 */
export function canaryVerdict(canary: ReleaseCounts, served: ReleaseCounts, rules: CanaryRules): { rollBack: boolean; why: string } {
  const minReporters = rules.minReporters ?? DEFAULT_MIN_REPORTERS;
  const canaryRate = rateOf(canary, minReporters);
  const servedRate = rateOf(served, minReporters);
  const rate = canaryRate ?? 0;
  const rollBack = canary.pageViews >= rules.minPageViews && rate >= rules.maxRate && rate >= rules.ratio * (servedRate ?? 0);
  const why =
    `error rate ${percent(canaryRate)} (${canary.renderErrors} server render errors and ${browserErrorsText(canary, minReporters)} in ${canary.pageViews} page views) ` +
    `against ${percent(servedRate)} for the served release (${decidingErrors(served, minReporters)} errors in ${served.pageViews} page views); ` +
    `the threshold is at least ${percent(rules.maxRate)} and ${rules.ratio} times the served release's rate over at least ${rules.minPageViews} page views, ` +
    `browser errors counting once at least ${minReporters} visitors reported them`;
  return { rollBack, why };
}

export interface CanaryWatch {
  readonly rules: CanaryRules;
  /** The canaries running now with both releases' counts (the admin's Deploys screen). */
  status(): Promise<CanaryStatus[]>;
  /** The check: rolls back each failing canary, promotes each whose time came, ends each whose served release changed. */
  check(): Promise<{ rolledBack: string[]; promoted: string[]; stopped: string[] }>;
}

export function createCanaryWatch(deps: {
  releaseErrors: Pick<ReleaseErrorsService, 'countsSince' | 'rules'>;
  releases: Pick<ReleaseDeployer, 'stopCanary' | 'promote' | 'history' | 'canaries'>;
  alerts: Pick<AlertService, 'raise'>;
  clock: Clock;
  logger: Logger;
  jobs?: Pick<JobRunner, 'add'>;
  rules?: Partial<CanaryRules>;
  checkMs?: number;
}): CanaryWatch {
  // The reporters it takes are the errors alert's unless told otherwise: one rule for what browser reports may decide.
  const rules: Required<CanaryRules> = { ...DEFAULT_CANARY_RULES, minReporters: deps.releaseErrors.rules.minReporters, ...deps.rules };

  /** From the canary's start (its minute), or the error window's start when that is later. */
  function countedSince(canary: Canary): number {
    const started = Math.floor(Date.parse(canary.startedAt) / MINUTE_MS) * MINUTE_MS;
    return Math.max(started, deps.clock().getTime() - deps.releaseErrors.rules.windowMs);
  }

  async function figures(canary: Canary) {
    const since = countedSince(canary);
    const [ofCanary, ofServed] = await deps.releaseErrors.countsSince(
      [
        { app: canary.app, release: canary.version },
        { app: canary.app, release: canary.current },
      ],
      since,
    );
    return { since: new Date(Math.floor(since / MINUTE_MS) * MINUTE_MS).toISOString(), canary: ofCanary!, served: ofServed! };
  }

  async function checkOne(canary: Canary, outcome: { rolledBack: string[]; promoted: string[]; stopped: string[] }): Promise<void> {
    const name = `${canary.app}@${canary.version}`;
    // What it was compared with is no longer served (a deploy or rollback that did not go through this server's checks):
    // the comparison means nothing any more.
    const served = (await deps.releases.history(canary.app))?.version ?? null;
    if (served !== canary.current) {
      const stopped = await deps.releases.stopCanary(canary.app, CANARY_CHECK_ACTOR, {
        id: canary.id,
        outcome: 'stopped',
        reason: `${canary.app} serves ${served ?? 'nothing'} now, not ${canary.current}, which the canary ran against`,
      });
      if (stopped) outcome.stopped.push(name);
      return;
    }
    const counts = await figures(canary);
    const verdict = canaryVerdict(counts.canary, counts.served, rules);
    if (verdict.rollBack) {
      const reason = `Rolled back by itself: ${canary.app} ${canary.version} at ${canary.percent}% of visitors had an ${verdict.why} (counted since ${counts.since})`;
      const ended = await deps.releases.stopCanary(canary.app, CANARY_CHECK_ACTOR, { id: canary.id, outcome: 'rolled_back', reason });
      if (!ended) return;
      outcome.rolledBack.push(name);
      deps.logger.warn({ app: canary.app, version: canary.version, canary: counts.canary, served: counts.served }, 'a canary was rolled back by itself');
      await deps.alerts
        .raise({
          type: 'deployment',
          severity: 'high',
          title: `Canary ${canary.version} of ${canary.app} rolled back`,
          message: `${reason}. Everyone gets ${canary.current} again; the release stays staged (its preview link still shows it).`,
          key: `canary:${canary.id}`,
        })
        .catch((error: unknown) => deps.logger.error({ err: error }, 'could not raise the canary rollback alert'));
      return;
    }
    if (canary.promoteAfter && Date.parse(canary.promoteAfter) <= deps.clock().getTime()) {
      try {
        await deps.releases.promote(canary.app, { by: 'canary timer (promoteAfter)', from: null }, { version: canary.version });
        outcome.promoted.push(name);
      } catch (error) {
        // Refused (it no longer passes the checks) or failed: the deploy log and an alert say why; the canary ends so
        // that it is not tried again every few seconds.
        const reason = `could not be served to everyone at ${canary.promoteAfter}: ${error instanceof Error ? error.message : String(error)}`;
        if (await deps.releases.stopCanary(canary.app, CANARY_CHECK_ACTOR, { id: canary.id, outcome: 'stopped', reason })) outcome.stopped.push(name);
      }
    }
  }

  /** One check at a time in this process (the job's run and a caller's). */
  let checking: Promise<unknown> = Promise.resolve();
  function check() {
    const run = checking.then(checkOnce, checkOnce);
    checking = run.catch(() => undefined);
    return run;
  }
  async function checkOnce() {
    const outcome = { rolledBack: [] as string[], promoted: [] as string[], stopped: [] as string[] };
    for (const canary of await deps.releases.canaries()) {
      try {
        await checkOne(canary, outcome);
      } catch (error) {
        deps.logger.error({ err: error, app: canary.app, version: canary.version }, 'the canary check failed for this canary');
      }
    }
    return outcome;
  }

  const checkMs = deps.checkMs ?? CANARY_CHECK_MS;
  deps.jobs?.add({
    name: 'release-canary',
    pollMs: checkMs,
    budgetMs: Math.max(30_000, checkMs),
    // One instance checks (and rolls back) for all; another takes over within a few checks if it stops.
    lease: { ttlMs: Math.min(3 * checkMs, 30_000) },
    async run() {
      const { rolledBack, promoted, stopped } = await check();
      return { done: rolledBack.length + promoted.length + stopped.length };
    },
  });

  return {
    rules,
    async status() {
      const running = await deps.releases.canaries();
      return Promise.all(
        running.map(async (canary) => {
          const counts = await figures(canary);
          return {
            app: canary.app,
            version: canary.version,
            current: canary.current,
            percent: canary.percent,
            startedAt: canary.startedAt,
            promoteAfter: canary.promoteAfter,
            by: canary.by,
            countedSince: counts.since,
            canary: counts.canary,
            served: counts.served,
          };
        }),
      );
    },
    check,
  };
}
