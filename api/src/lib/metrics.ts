import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from './logger';

/*
 * The Prometheus metrics of one app (GET /metrics with METRICS_TOKEN). One Registry per app, never prom-client's
 * global one, so that several apps in one process (tests) each count their own. Per request: one counter and one
 * histogram; everything read from elsewhere (the render cache's counters, the outboxes, the database pool, the
 * deployed releases) is read when Prometheus scrapes, not as requests come.
 */

/** What a scrape reads from the rest of the app. Each may be absent (a part the app does not have). */
export interface MetricSources {
  renderCache?: () => { hits: number; staleHits: number; misses: number; coalesced: number; entries: number; bytes: number };
  renderQueue?: () => { running: number; waiting: number };
  outboxes?: () => Promise<Array<{ outbox: string; depth: number; oldestCreatedAt: string | null }>>;
  dbPool?: () => { total?: number; idle?: number; waiting: number };
  releases?: () => Promise<Array<{ remote: string; version: string }>>;
  /** The background job kinds (lib/job-runner.ts) and when each last ran. */
  jobs?: () => Array<{ name: string; lastRunAt: string | null; running: boolean }>;
  /** The clock of the outbox ages. */
  now?: () => number;
  /** Page views and errors per release (release-errors/): this process's totals, and each served release's window. */
  releaseErrors?: () => ReleaseErrorSource;
}

/** What a scrape reads of the per-release counts (release-errors/release-errors-service.ts). */
export interface ReleaseErrorSource {
  /** This process's counts since it started, for the releases it keeps a name for (a few per app). */
  processTotals(): Array<{ app: string; release: string; pageViews: number; renderErrors: number; clientErrors: number }>;
  /** Each served release over the alert window, every instance added up. */
  served(): Promise<Array<{ app: string; release: string; window: { rate: number | null }; failing: boolean }>>;
}

/** The metrics of one app; the services see its failed-login, webhook and mail counts as their ServiceMetrics. */
export interface AppMetrics {
  readonly registry: Registry;
  loginFailed(reason: 'invalid_password' | 'locked_out'): void;
  clientLockedOut(): void;
  webhookAttempt(result: 'success' | 'http_error' | 'network_error' | 'refused'): void;
  contactMail(result: 'sent' | 'failed'): void;
  /** One answered request: its method, route pattern (never the raw path), status and duration. */
  requestAnswered(method: string, route: string, status: number, seconds: number): void;
  /** A page render waited its turn (site/render/render-queue.ts): `admitted` false when it waited too long (rendered in the browser). */
  renderQueued(seconds: number, admitted: boolean): void;
  /** A server render of a page of `remote` (`shell` for the shell's own pages): whole, or with an area left to the browser. */
  pageRendered(remote: string, seconds: number, outcome: 'server' | 'browser'): void;
  /** A background job's run ended (lib/job-runner.ts): its kind, result and duration. */
  jobRun(kind: string, result: 'ok' | 'failed' | 'not_leader', seconds: number): void;
  /** The exposition text and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/** Outbox queries get this long at a scrape; past it the scrape answers without them (site_outbox_up 0). */
const OUTBOX_QUERY_TIMEOUT_MS = 2_000;

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const RENDER_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2];
const HTTP_LABELS = ['method', 'route', 'status'] as const;

/** HTTP methods we label by name; anything else a client invents is `other` (bounded label values). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The render queue and the render cache, read from their own counters at each scrape. */
function registerRenderGauges(registry: Registry, sources: MetricSources): void {
  new Gauge({
    name: 'site_ssr_queue',
    help: 'Page renders running and waiting now.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = sources.renderQueue?.();
      if (!stats) return;
      this.set({ state: 'running' }, stats.running);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new Counter({
    name: 'site_render_cache_requests_total',
    help: 'Page requests the render cache answered, by result: hit, stale (sent while re-rendered), coalesced (waited for another render) or miss.',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      const stats = sources.renderCache?.();
      if (!stats) return;
      // The cache keeps its own running totals: the counter is set to them at each scrape.
      this.reset();
      this.inc({ result: 'hit' }, stats.hits);
      this.inc({ result: 'stale' }, stats.staleHits);
      this.inc({ result: 'coalesced' }, stats.coalesced);
      this.inc({ result: 'miss' }, stats.misses);
    },
  });
  new Gauge({
    name: 'site_render_cache_bytes',
    help: 'Memory the render cache holds (bytes, as it counts them).',
    registers: [registry],
    collect() {
      const stats = sources.renderCache?.();
      if (stats) this.set(stats.bytes);
    },
  });
  new Gauge({
    name: 'site_render_cache_entries',
    help: 'Pages the render cache holds.',
    registers: [registry],
    collect() {
      const stats = sources.renderCache?.();
      if (stats) this.set(stats.entries);
    },
  });
}

/** The background jobs and the database pool, read from them at each scrape. */
function registerJobAndPoolGauges(registry: Registry, sources: MetricSources, now: () => number): void {
  new Gauge({
    name: 'site_job_running',
    help: 'Whether a run of each background job kind is in progress on this instance now (1) or not (0).',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const job of sources.jobs?.() ?? []) this.set({ kind: job.name }, job.running ? 1 : 0);
    },
  });
  new Gauge({
    name: 'site_job_last_run_age_seconds',
    help: 'Seconds since each background job kind last ran on this instance (a stuck job grows).',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.reset();
      for (const job of sources.jobs?.() ?? []) if (job.lastRunAt) this.set({ kind: job.name }, Math.max(0, (now() - Date.parse(job.lastRunAt)) / 1000));
    },
  });

  new Gauge({
    name: 'site_db_pool_connections',
    help: 'PostgreSQL pool connections, by state: total (open) and idle.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = sources.dbPool?.();
      if (pool?.total === undefined) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle ?? 0);
    },
  });
  new Gauge({
    name: 'site_db_pool_waiting',
    help: "Queries waiting for a database connection (PostgreSQL: the pool's queue; SQLite: the file's one connection).",
    registers: [registry],
    collect() {
      const pool = sources.dbPool?.();
      if (pool) this.set(pool.waiting);
    },
  });
}

export function createMetrics(sources: MetricSources = {}, options: { logger?: Logger } = {}): AppMetrics {
  const registry = new Registry();
  const now = sources.now ?? Date.now;
  // Event-loop lag, heap and process memory, CPU, handles, GC (prom-client's defaults, on this registry).
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({ name: 'site_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status.', labelNames: HTTP_LABELS, registers: [registry] });
  const durations = new Histogram({
    name: 'site_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (to the last byte of a streamed page), by method, route pattern and status.',
    labelNames: HTTP_LABELS,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const renderSeconds = new Histogram({
    name: 'site_ssr_render_duration_seconds',
    help: "Server render of a page (its data, the remote's render and the shell's), by remote and outcome (browser: an area was left to the browser).",
    labelNames: ['remote', 'outcome'],
    buckets: RENDER_BUCKETS,
    registers: [registry],
  });
  const queueSeconds = new Histogram({ name: 'site_ssr_queue_wait_seconds', help: 'Time a page render waited for its turn (SSR_CONCURRENCY).', buckets: RENDER_BUCKETS, registers: [registry] });
  const queueRejected = new Counter({
    name: 'site_ssr_queue_rejected_total',
    help: 'Page renders that waited longer than SSR_QUEUE_MS and were left to the browser.',
    registers: [registry],
  });
  registerRenderGauges(registry, sources);

  // The outboxes: one query pair per scrape, shared by the three gauges below.
  let outboxRead: Promise<Awaited<ReturnType<NonNullable<MetricSources['outboxes']>>> | undefined> | undefined;
  const readOutboxes = () => {
    outboxRead ??= (async () => {
      if (!sources.outboxes) return undefined;
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          sources.outboxes(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`the outbox query did not answer within ${OUTBOX_QUERY_TIMEOUT_MS} ms`)), OUTBOX_QUERY_TIMEOUT_MS);
          }),
        ]);
      } catch (error) {
        options.logger?.warn({ err: error }, 'metrics: the outboxes could not be read');
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    })();
    return outboxRead;
  };
  new Gauge({
    name: 'site_outbox_up',
    help: 'Whether the last scrape could read the outboxes (1) or not (0: the database did not answer in time).',
    registers: [registry],
    async collect() {
      if (!sources.outboxes) return;
      this.set((await readOutboxes()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'site_outbox_depth',
    help: 'Rows waiting to be sent, by outbox: contact_mail (owner mails) and webhook_deliveries (outgoing webhooks).',
    labelNames: ['outbox'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const o of (await readOutboxes()) ?? []) this.set({ outbox: o.outbox }, o.depth);
    },
  });
  new Gauge({
    name: 'site_outbox_oldest_age_seconds',
    help: 'Age of the oldest row waiting in each outbox (0 when none waits).',
    labelNames: ['outbox'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const o of (await readOutboxes()) ?? []) {
        this.set({ outbox: o.outbox }, o.oldestCreatedAt ? Math.max(0, (now() - Date.parse(o.oldestCreatedAt)) / 1000) : 0);
      }
    },
  });

  const webhookAttempts = new Counter({
    name: 'site_webhook_deliveries_total',
    help: 'Outgoing webhook delivery attempts, by result: success (2xx), http_error (another answer), network_error (no answer), refused (a target webhooks are not sent to: metadata, or private while WEBHOOK_ALLOW_PRIVATE_TARGETS is off).',
    labelNames: ['result'],
    registers: [registry],
  });
  const contactMails = new Counter({ name: 'site_contact_mails_total', help: 'Owner mails of the contact outbox, by result: sent or failed.', labelNames: ['result'], registers: [registry] });
  const loginFailures = new Counter({
    name: 'site_admin_login_failures_total',
    help: 'Refused admin logins, by reason: invalid_password, or locked_out (the client had too many failures).',
    labelNames: ['reason'],
    registers: [registry],
  });
  const lockouts = new Counter({ name: 'site_admin_login_lockouts_total', help: 'Clients locked out of the admin login after too many failures.', registers: [registry] });
  // Every series exists from the start at 0, so rate() and alerts see the first increase.
  for (const result of ['success', 'http_error', 'network_error', 'refused']) webhookAttempts.inc({ result }, 0);
  for (const result of ['sent', 'failed']) contactMails.inc({ result }, 0);
  for (const reason of ['invalid_password', 'locked_out']) loginFailures.inc({ reason }, 0);

  const jobRuns = new Counter({
    name: 'site_job_runs_total',
    help: 'Runs of each background job kind, by result: ok, failed, or not_leader (another instance holds its lease).',
    labelNames: ['kind', 'result'],
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'site_job_run_duration_seconds',
    help: 'Time one run of a background job kind took.',
    labelNames: ['kind'],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  registerJobAndPoolGauges(registry, sources, now);
  // Per release: the labels are only the releases this process keeps a name for (served now, or among the last few
  // per app: release-errors' RECENT_RELEASES_PER_APP), so made-up versions in browsers' reports never become series.
  const releaseCounter = (name: string, help: string, field: 'pageViews' | 'renderErrors' | 'clientErrors') =>
    new Counter({
      name,
      help,
      labelNames: ['app', 'release'],
      registers: [registry],
      collect() {
        const source = sources.releaseErrors?.();
        if (!source) return;
        // The service keeps the running totals: the counter is set to them at each scrape.
        this.reset();
        for (const t of source.processTotals()) this.inc({ app: t.app, release: t.release }, t[field]);
      },
    });
  releaseCounter('site_release_page_views_total', "Pages of each remote's release visitors got from this instance (server page requests and the shell's moves inside the site).", 'pageViews');
  releaseCounter('site_release_render_errors_total', "Server renders of each remote's release that failed or left its area to the browser, on this instance.", 'renderErrors');
  releaseCounter('site_release_client_errors_total', "Browser reports of each remote's release failing (its error boundary, a code file or its entry not loading), received by this instance.", 'clientErrors');
  let releaseRead: ReturnType<ReleaseErrorSource['served']> | undefined;
  const readReleases = () => (releaseRead ??= sources.releaseErrors?.().served().catch((error: unknown) => {
    options.logger?.warn({ err: error }, 'metrics: the release error counts could not be read');
    return [];
  }) ?? Promise.resolve([]));
  new Gauge({
    name: 'site_release_error_rate',
    help: 'Errors per page view of each served release over the alert window (RELEASE_ERROR_WINDOW_MINUTES), every instance added up; absent without page views.',
    labelNames: ['app', 'release'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await readReleases()) if (r.window.rate !== null) this.set({ app: r.app, release: r.release }, r.window.rate);
    },
  });
  new Gauge({
    name: 'site_release_failing',
    help: 'Whether each served release is failing (1): its error rate at or above the threshold over enough page views in the window.',
    labelNames: ['app', 'release'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await readReleases()) this.set({ app: r.app, release: r.release }, r.failing ? 1 : 0);
    },
  });

  new Gauge({
    name: 'site_remote_release',
    help: 'The release each deployed remote serves (always 1; the version is the label).',
    labelNames: ['remote', 'version'],
    registers: [registry],
    async collect() {
      if (!sources.releases) return;
      this.reset();
      for (const { remote, version } of await sources.releases()) this.set({ remote, version }, 1);
    },
  });

  return {
    registry,
    requestAnswered(method, route, status, seconds) {
      const labels = { method: KNOWN_METHODS.has(method) ? method : 'other', route, status: String(status) };
      requests.inc(labels);
      durations.observe(labels, seconds);
    },
    renderQueued(seconds, admitted) {
      queueSeconds.observe(seconds);
      if (!admitted) queueRejected.inc();
    },
    pageRendered(remote, seconds, outcome) {
      renderSeconds.observe({ remote, outcome }, seconds);
    },
    loginFailed: (reason) => loginFailures.inc({ reason }),
    clientLockedOut: () => lockouts.inc(),
    webhookAttempt: (result) => webhookAttempts.inc({ result }),
    contactMail: (result) => contactMails.inc({ result }),
    jobRun(kind, result, seconds) {
      jobRuns.inc({ kind, result });
      jobSeconds.observe({ kind }, seconds);
    },
    async scrape() {
      outboxRead = undefined;
      releaseRead = undefined;
      try {
        return { contentType: registry.contentType, body: await registry.metrics() };
      } finally {
        outboxRead = undefined;
        releaseRead = undefined;
      }
    },
  };
}
