import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import type { ReleaseCounts, ReleaseErrorRow, ReleaseErrors, RemoteErrorProps } from '@site/contracts/release-errors';
import type { AdminStateRepository } from '../admin/admin-state-repository';
import type { AlertService } from '../admin/alert-service';
import type { Clock } from '../lib/clock';
import type { JobRunner } from '../lib/job-runner';
import type { Logger } from '../lib/logger';
import type { ReleaseCountDelta, ReleaseCountsRepository, ReleaseReporterSeen, StoredReleaseCounts } from './release-counts-repository';

/*
 * Errors per release (issue 34). Every page view of a remote and every error of it is counted against the remote and
 * the release that served it: page views are the server's page requests (the document's first page, which the server
 * rendered or sent from its render cache) and the shell's moves inside the site to a page of the remote (`remote_view`
 * beacons); errors are the server's render failures and fallbacks (the remote's area handed to the browser) and the
 * browser's reports (`remote_error`: the error boundary around the remote, a code file or the remote's entry that did
 * not load). Counted in memory on the request path (a map increment), added to the database's per-minute rows by every
 * instance every few seconds (`release-counts`), read back over a window as the sum of every instance's.
 *
 * What may decide (issue 51): a browser's report counts only with a page-view token (events/release-report-gate.ts: at
 * most one error per page load, 20 reports a minute per address), and browser errors move the rate that decides (health
 * `degraded`, the errors alert, a canary's rollback) only once at least `minReporters` distinct visitors (addresses, an
 * IPv6 one per /64) reported them in the window. Server render errors and fallbacks, which the server saw itself, always
 * count. So a few addresses' reports, however many, never decide; they are still shown as browser errors.
 */

/**
 * When a release is failing: its rate (render errors, plus browser errors once `minReporters` distinct visitors reported
 * them, per page view) at least `rate` over at least `minPageViews` page views in the last `windowMs`.
 */
export interface ReleaseErrorRules {
  rate: number;
  minPageViews: number;
  windowMs: number;
  minReporters: number;
}

/** Distinct visitors whose browser errors it takes before browser errors count toward a decision (RELEASE_ERROR_MIN_REPORTERS). */
export const DEFAULT_MIN_REPORTERS = 5;
/** RELEASE_ERROR_RATE_PERCENT 2, RELEASE_ERROR_MIN_PAGE_VIEWS 20, RELEASE_ERROR_WINDOW_MINUTES 15, RELEASE_ERROR_MIN_REPORTERS 5. */
export const DEFAULT_RELEASE_ERROR_RULES: ReleaseErrorRules = { rate: 0.02, minPageViews: 20, windowMs: 15 * 60_000, minReporters: DEFAULT_MIN_REPORTERS };
/** How often each instance adds what it counted to the shared rows. */
export const RELEASE_COUNTS_FLUSH_MS = 5_000;
/** How often one instance (a lease) looks for releases that started or stopped failing, and raises or clears alerts. */
export const RELEASE_ERRORS_CHECK_MS = 60_000;
/**
 * Releases of an app this instance keeps a name for (besides those it serves): the ones it served or was told about
 * last. Only these are counted from browsers' reports and labelled on /metrics, so neither grows with made-up versions.
 */
export const RECENT_RELEASES_PER_APP = 3;
const DAY_MS = 24 * 60 * 60_000;
const MINUTE_MS = 60_000;
const STATE_KEY = 'release-errors:failing';

export interface ReleaseRef {
  app: RemoteName;
  release: string;
}

/** A release's figures in the window, and whether it is failing by the rules. */
export interface ReleaseVerdict extends ReleaseRef {
  window: ReleaseCounts;
  failing: boolean;
}

export interface ReleaseErrorsService {
  readonly rules: ReleaseErrorRules;
  /** A page of `app` went out (rendered or from the render cache), served by `release`. */
  pageView(app: RemoteName, release: string): void;
  /** The server's render of a page of `app` failed, or left its area to the browser (error, budget, module missing). */
  renderError(app: RemoteName, release: string): void;
  /**
   * What browsers reported (`remote_view`, `remote_error`), counted when the release is one this instance serves or
   * served lately (RECENT_RELEASES_PER_APP), dropped otherwise. `reporter` (the gate's hash of the sender's address)
   * is recorded for each counted error: distinct reporters are what lets browser errors decide. Answers how many were counted.
   */
  fromBrowser(
    events: ReadonlyArray<{ name: 'remote_view'; props: { app: RemoteName; release: string } } | { name: 'remote_error'; props: RemoteErrorProps }>,
    from?: { reporter?: string | undefined },
  ): Promise<number>;
  /** Adds what this instance counted to the shared rows now. */
  flush(): Promise<void>;
  /** Every served release's verdict over the window (every instance's counts). */
  served(): Promise<ReleaseVerdict[]>;
  /** These releases' counts from the minute of `sinceMs` on, every instance's (this one's added first). */
  countsSince(releases: readonly ReleaseRef[], sinceMs: number): Promise<ReleaseCounts[]>;
  /** The admin's table: served releases and every release counted in the last 24 hours. */
  summary(): Promise<ReleaseErrors>;
  /** This process's counts since it started, per release it keeps a name for (GET /metrics). */
  processTotals(): Array<ReleaseRef & { pageViews: number; renderErrors: number; clientErrors: number }>;
  /** Raises an alert for each release that started failing, clears the alert of each that stopped (the job's run). */
  check(): Promise<{ started: string[]; stopped: string[] }>;
}

type Counted = Pick<ReleaseCounts, 'pageViews' | 'renderErrors' | 'clientErrors' | 'clientReporters'>;

/** Whether the browser errors count toward a decision: reported by at least `minReporters` distinct visitors. */
export const browserErrorsCount = (c: Counted, minReporters: number) => c.clientErrors > 0 && (c.clientReporters ?? 0) >= minReporters;

/** The errors that decide: server render errors always, browser errors once enough distinct visitors reported them. */
export function decidingErrors(c: Counted, minReporters: number): number {
  return c.renderErrors + (browserErrorsCount(c, minReporters) ? c.clientErrors : 0);
}

/** The rate that decides: decidingErrors per page view, null without page views. */
export function rateOf(c: Counted, minReporters: number): number | null {
  return c.pageViews > 0 ? decidingErrors(c, minReporters) / c.pageViews : null;
}

export function isFailing(c: Counted, rules: Pick<ReleaseErrorRules, 'rate' | 'minPageViews' | 'minReporters'>): boolean {
  const rate = rateOf(c, rules.minReporters);
  return rate !== null && c.pageViews >= rules.minPageViews && rate >= rules.rate;
}

/** The browser errors' part of a sentence: "9 browser errors from 2 visitors (left out: fewer than 5 visitors)". */
export function browserErrorsText(c: Counted, minReporters: number): string {
  const left = c.clientErrors > 0 && !browserErrorsCount(c, minReporters);
  return `${c.clientErrors} browser errors from ${c.clientReporters ?? 0} visitors${left ? ` (not counted: fewer than ${minReporters} visitors)` : ''}`;
}

const percent = (rate: number | null) => (rate === null ? 'no page views' : `${Math.round(rate * 1000) / 10}%`);
const minuteOf = (ms: number) => new Date(Math.floor(ms / MINUTE_MS) * MINUTE_MS).toISOString();
const keyOf = (app: string, release: string) => `${app}@${release}`;

export function createReleaseErrorsService(deps: {
  repository: ReleaseCountsRepository;
  clock: Clock;
  logger: Logger;
  /** The releases served now (the registry's snapshot). */
  servedReleases: () => Promise<ReleaseRef[]>;
  alerts: Pick<AlertService, 'raise' | 'acknowledge'>;
  /** Which releases are failing, and the id of the alert raised for each: kept across restarts and instances. */
  state: AdminStateRepository;
  jobs?: Pick<JobRunner, 'add'>;
  rules?: Partial<ReleaseErrorRules>;
  flushMs?: number;
  checkMs?: number;
}): ReleaseErrorsService {
  const rules: ReleaseErrorRules = { ...DEFAULT_RELEASE_ERROR_RULES, ...deps.rules };
  /** Increments not yet added to the shared rows, by app, release and minute. */
  let pending = new Map<string, ReleaseCountDelta>();
  /** Reporters of browser errors not yet recorded in the shared rows, by app, release and reporter. */
  let pendingReporters = new Map<string, ReleaseReporterSeen>();
  /** Per app, the releases this instance keeps a name for, most recent first. */
  const recent = new Map<RemoteName, string[]>();
  /** This process's totals per release it keeps a name for. */
  const totals = new Map<string, ReleaseRef & { pageViews: number; renderErrors: number; clientErrors: number }>();

  function remember(app: RemoteName, release: string): void {
    const list = recent.get(app) ?? [];
    if (list[0] === release) return;
    const next = [release, ...list.filter((r) => r !== release)];
    for (const dropped of next.splice(RECENT_RELEASES_PER_APP)) totals.delete(keyOf(app, dropped));
    recent.set(app, next);
  }

  function count(app: RemoteName, release: string, field: 'pageViews' | 'renderErrors' | 'clientErrors', lastError?: string): void {
    remember(app, release);
    const bucket = minuteOf(deps.clock().getTime());
    const key = `${app}\n${release}\n${bucket}`;
    let delta = pending.get(key);
    if (!delta) pending.set(key, (delta = { app, release, bucket, pageViews: 0, renderErrors: 0, clientErrors: 0, lastError: null }));
    delta[field] += 1;
    if (lastError) delta.lastError = lastError;
    const total = totals.get(keyOf(app, release)) ?? { app, release, pageViews: 0, renderErrors: 0, clientErrors: 0 };
    total[field] += 1;
    totals.set(keyOf(app, release), total);
  }

  async function flush(): Promise<void> {
    if (pending.size === 0 && pendingReporters.size === 0) return;
    const batch = pending;
    const reporters = pendingReporters;
    pending = new Map();
    pendingReporters = new Map();
    try {
      await deps.repository.add([...batch.values()], [...reporters.values()]);
    } catch (error) {
      // Kept for the next flush (the database may be back), but only what a window can still read.
      const oldest = minuteOf(deps.clock().getTime() - rules.windowMs);
      for (const [key, seen] of reporters) if (seen.lastSeen >= oldest && !pendingReporters.has(key)) pendingReporters.set(key, seen);
      for (const [key, delta] of batch) {
        if (delta.bucket < oldest) continue;
        const now = pending.get(key);
        if (!now) pending.set(key, delta);
        else {
          now.pageViews += delta.pageViews;
          now.renderErrors += delta.renderErrors;
          now.clientErrors += delta.clientErrors;
          now.lastError ??= delta.lastError;
        }
      }
      throw error;
    }
  }

  async function sums(sinceMs: number): Promise<Map<string, StoredReleaseCounts>> {
    await flush().catch((error: unknown) => deps.logger.warn({ err: error }, 'release counts: could not add this instance’s counts'));
    return new Map((await deps.repository.sums(minuteOf(sinceMs))).map((r) => [keyOf(r.app, r.release), r]));
  }

  const countsOf = (s: StoredReleaseCounts | undefined): ReleaseCounts => {
    const c = { pageViews: s?.pageViews ?? 0, renderErrors: s?.renderErrors ?? 0, clientErrors: s?.clientErrors ?? 0, clientReporters: s?.clientReporters ?? 0 };
    return { ...c, rate: rateOf(c, rules.minReporters) };
  };

  async function servedNow(): Promise<ReleaseRef[]> {
    const served = await deps.servedReleases();
    for (const { app, release } of served) remember(app, release);
    return served;
  }

  async function served(): Promise<ReleaseVerdict[]> {
    const [releases, window] = await Promise.all([servedNow(), sums(deps.clock().getTime() - rules.windowMs)]);
    return releases.map(({ app, release }) => {
      const counts = countsOf(window.get(keyOf(app, release)));
      return { app, release, window: counts, failing: isFailing(counts, rules) };
    });
  }

  /** One check at a time in this process (the job's run and a caller's): each reads the state the last one wrote. */
  let checking: Promise<unknown> = Promise.resolve();
  function check(): Promise<{ started: string[]; stopped: string[] }> {
    const run = checking.then(checkOnce, checkOnce);
    checking = run.catch(() => undefined);
    return run;
  }

  async function checkOnce(): Promise<{ started: string[]; stopped: string[] }> {
    const now = deps.clock().getTime();
    const window = await sums(now - rules.windowMs);
    const failing = (await deps.state.get<Record<string, { alertId: string | null; since: string }>>(STATE_KEY)) ?? {};
    const next: typeof failing = {};
    const started: string[] = [];
    const stopped: string[] = [];
    const threshold =
      `${percent(rules.rate)} over at least ${rules.minPageViews} page views in ${rules.windowMs / MINUTE_MS} minutes ` +
      `(browser errors count once at least ${rules.minReporters} visitors reported them)`;
    for (const [key, s] of window) {
      const counts = countsOf(s);
      if (!isFailing(counts, rules)) continue;
      if (failing[key]) {
        next[key] = failing[key];
        continue;
      }
      started.push(key);
      const alert = await deps.alerts.raise({
        type: 'errors',
        severity: 'high',
        title: `Release ${s.release} of ${s.app} is failing`,
        message:
          `${s.app} ${s.release}: ${counts.renderErrors} server render errors and ${browserErrorsText(counts, rules.minReporters)} in ${counts.pageViews} page views ` +
          `(${percent(counts.rate)}) in the last ${rules.windowMs / MINUTE_MS} minutes; the threshold is ${threshold}. Visitors see its error screen or a page rendered in the browser.`,
        key: `release:${key}`,
      });
      next[key] = { alertId: alert?.id ?? null, since: new Date(now).toISOString() };
    }
    for (const [key, was] of Object.entries(failing)) {
      if (next[key]) continue;
      stopped.push(key);
      // Cleared: the alert raised for it is acknowledged by the server, and a note says since when it is back.
      if (was.alertId) await deps.alerts.acknowledge(was.alertId).catch(() => undefined);
      const counts = countsOf(window.get(key));
      const [app, release] = key.split('@') as [string, string];
      await deps.alerts.raise({
        type: 'errors',
        severity: 'low',
        title: `Release ${release} of ${app} is no longer failing`,
        message: `${app} ${release}: ${decidingErrors(counts, rules.minReporters)} errors in ${counts.pageViews} page views (${percent(counts.rate)}) in the last ${rules.windowMs / MINUTE_MS} minutes, below the threshold of ${threshold}. It was failing since ${was.since.slice(0, 16).replace('T', ' ')} UTC.`,
        key: `release-cleared:${key}`,
      });
    }
    if (started.length > 0 || stopped.length > 0) await deps.state.set(STATE_KEY, next, new Date(now).toISOString());
    for (const key of started) deps.logger.warn({ release: key }, 'a release started failing');
    for (const key of stopped) deps.logger.info({ release: key }, 'a release is no longer failing');
    return { started, stopped };
  }

  deps.jobs?.add({
    name: 'release-counts',
    pollMs: deps.flushMs ?? RELEASE_COUNTS_FLUSH_MS,
    async run() {
      const n = pending.size;
      await flush();
      return { done: n };
    },
  });
  deps.jobs?.add({
    name: 'release-errors',
    pollMs: deps.checkMs ?? RELEASE_ERRORS_CHECK_MS,
    // Renewed by the runner while held: a killed holder's checks resume on another instance within 45 s.
    lease: { ttlMs: Math.min(3 * (deps.checkMs ?? RELEASE_ERRORS_CHECK_MS), 30_000) },
    async run() {
      const { started, stopped } = await check();
      return { done: started.length + stopped.length };
    },
  });

  return {
    rules,
    pageView: (app, release) => count(app, release, 'pageViews'),
    renderError: (app, release) => count(app, release, 'renderErrors'),
    async fromBrowser(events, from) {
      if (events.length === 0) return 0;
      const known = new Set((await servedNow()).map((r) => keyOf(r.app, r.release)));
      for (const [app, releases] of recent) for (const release of releases) known.add(keyOf(app, release));
      let counted = 0;
      for (const event of events) {
        const { app, release } = event.props;
        if (!known.has(keyOf(app, release))) continue;
        if (event.name === 'remote_view') count(app, release, 'pageViews');
        else {
          count(app, release, 'clientErrors', event.props.message ?? `(${event.props.kind})`);
          if (from?.reporter) pendingReporters.set(`${app}\n${release}\n${from.reporter}`, { app, release, reporter: from.reporter, lastSeen: minuteOf(deps.clock().getTime()) });
        }
        counted += 1;
      }
      return counted;
    },
    flush,
    served,
    async countsSince(releases, sinceMs) {
      const window = await sums(sinceMs);
      return releases.map(({ app, release }) => countsOf(window.get(keyOf(app, release))));
    },
    async summary() {
      const now = deps.clock().getTime();
      const [releases, window, day, lastErrors] = await Promise.all([
        servedNow(),
        sums(now - rules.windowMs),
        sums(now - DAY_MS),
        deps.repository.lastErrors(minuteOf(now - DAY_MS)),
      ]);
      const servedKeys = new Set(releases.map((r) => keyOf(r.app, r.release)));
      const refs = new Map<string, ReleaseRef>(releases.map((r) => [keyOf(r.app, r.release), r]));
      for (const s of day.values()) if ((REMOTE_NAMES as readonly string[]).includes(s.app)) refs.set(keyOf(s.app, s.release), { app: s.app as RemoteName, release: s.release });
      const last = new Map(lastErrors.map((e) => [keyOf(e.app, e.release), e.lastError]));
      const rows: ReleaseErrorRow[] = [...refs.entries()].map(([key, { app, release }]) => {
        const inWindow = countsOf(window.get(key));
        return { app, release, served: servedKeys.has(key), window: inWindow, day: countsOf(day.get(key)), failing: isFailing(inWindow, rules), lastError: last.get(key) ?? null };
      });
      rows.sort((a, b) => REMOTE_NAMES.indexOf(a.app) - REMOTE_NAMES.indexOf(b.app) || Number(b.served) - Number(a.served) || b.day.pageViews - a.day.pageViews || a.release.localeCompare(b.release));
      return { windowMinutes: rules.windowMs / MINUTE_MS, threshold: { rate: rules.rate, minPageViews: rules.minPageViews, minReporters: rules.minReporters }, releases: rows };
    },
    processTotals: () => [...totals.values()].map((t) => ({ ...t })),
    check,
  };
}
