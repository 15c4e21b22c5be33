import { createRetentionRepository } from './retention/retention-repository';
import { createReleaseCountsRepository } from './release-errors/release-counts-repository';
import { createReleaseErrorsService, type ReleaseErrorsService } from './release-errors/release-errors-service';
import { createAdminStateRepository } from './admin/admin-state-repository';
import { createRetentionService, type RetentionService } from './retention/retention-service';
import type { Kysely } from 'kysely';
import type { Database } from './db/schema';
import { createEventsRepository } from './events/events-repository';
import type { Config } from './config';
import { createContactRepository, type StoredContactMessage } from './contact/contact-repository';
import type { Clock } from './lib/clock';
import type { JobRunner } from './lib/job-runner';
import type { RateLimitStore } from './lib/rate-limit-counter';
import { createLogger, type Logger } from './lib/logger';
import { createContactService, type ContactService } from './contact/contact-service';
import { createSmtpMailer, type Mailer } from './lib/mailer';
import type { ServiceMetrics } from './lib/service-metrics';
import { createEventService, type EventService } from './events/event-service';
import { createReleaseReportGate, type PageTokenReader } from './events/release-report-gate';
import { createPostsRepository, createWebhookDeliveriesRepository } from './posts/posts-repository';
import { createPostService, type PostEvent, type PostService } from './posts/post-service';
import { createPostScheduler, type PostScheduler } from './posts/post-scheduler';
import { createWebhookService, type WebhookService } from './incoming-webhook/incoming-webhook-service';
import { createAnalysesRepository, type StoredAnalysis } from './analysis/analyses-repository';
import {
  createAnalysisEngine,
  createAnalysisService,
  type AnalysisEngineDeps,
  type AnalysisService,
} from './analysis/analysis-service';
import { createHealthService, type HealthService } from './health/health-service';
import { createDiskState, type DiskState } from './health/disk-state';
import type { DeployedRemotes } from './health/deployed-remotes';
import type { RenderCacheHealth } from '@site/contracts/manifest';
import { createAdminAlerts, createAdminServices, createAlertMailer, type AdminServices } from './admin/admin-services';
import type { AlertService } from './admin/alert-service';
import { createMediaBlobsRepository, createMediaRepository } from './media/media-repository';
import { createMediaService, type MediaService } from './media/media-service';
import { configureImageProcessing } from './media/media-processing';
import { createChildImageProcessor } from './media/media-child';
import { createFileMediaStore, type MediaStore } from './media/media-store';
import { createRemoteImageImporter } from './media/import-remote-image';
import path from 'node:path';
import { createDeployLog, type DeployLog } from './deploys/deploy-log';
import type { CanaryWatch } from './deploys/canary-watch';
import type { Canary, ReleaseDeployer } from './deploys/deployer-port';
import { createDeployTokensRepository } from './deploys/deploy-tokens-repository';
import { createDeployTokenService, type DeployTokenService } from './deploys/deploy-tokens-service';
import { createWebhooksOutRepository } from './outgoing-webhooks/outgoing-webhooks-repository';
import { createWebhookSender, type WebhookSender } from './outgoing-webhooks/webhook-sender';
import type { Resolver } from './outgoing-webhooks/webhook-targets';
import { analysisCompletedData, createWebhooksOutService, leadCreatedData, postEventData, type WebhooksOutService } from './outgoing-webhooks/outgoing-webhooks-service';

/**
 * The analysis engine's dependencies besides config's keys: provider base URLs, timeouts, the website fetcher's
 * options. Production takes the defaults; tests aim them at local fakes (test-support/test-server.ts).
 */
export type AnalysisEngineOverrides = Omit<AnalysisEngineDeps, 'googlePlacesApiKey' | 'yelpApiKey' | 'clock'>;

/** Every domain service the routes call. Built once per app; add a service here. */
export interface Services {
  events: EventService;
  contact: ContactService;
  posts: PostService;
  /** Publishes scheduled posts at their time (its jobs run in the app's job runner, container.ts). */
  scheduler: PostScheduler;
  webhook: WebhookService;
  analysis: AnalysisService;
  health: HealthService;
  /** The data disk: told of writes that failed for want of room (the error middleware), read by /api/health. */
  disk: DiskState;
  /** The admin panel: sessions, alerts, health checks, leads, funnel, traffic. */
  admin: AdminServices;
  /** The media library: uploads, their variants, alt text, where used. */
  media: MediaService;
  /** Outgoing webhooks: the owner's endpoints and the delivery outbox (its job runs in the app's job runner, container.ts). */
  webhooksOut: WebhooksOutService;
  /** Every deploy, rollback and refusal of the five apps, as it happens (issue 33). */
  deployLog: DeployLog;
  /** Deploys and rollbacks over HTTP, checked and switched by the server (POST /api/releases/{app}). */
  releases: ReleaseDeployer;
  /** The deploy tokens the admin issues to a team's CI, and the check of each deploy request's token (issue 33). */
  deployTokens: DeployTokenService;
  /** Deletes what is kept for a while only, when its time is over (a job kind of the app's runner). */
  retention: RetentionService;
  /** Page views and errors of each remote's releases, their rate, and the alert of a failing release (issue 34). */
  releaseErrors: ReleaseErrorsService;
  /** The running canaries with their live figures, and the check that rolls one back by itself (issue 34). */
  canaries: CanaryWatch;
}

/** Every service but the deployer and the canary watch, which are built from these (container.ts adds them). */
export type DomainServices = Omit<Services, 'releases' | 'canaries'>;

/**
 * The owner's alerts and the per-release error counts, built before the other services: those report into the alerts,
 * and GET /metrics (built next, container.ts) reads the counts while the services count into it.
 */
export interface Alerting {
  /** The alerts' mailer (SMTP_URL set): the admin services close it. */
  mailer: Mailer | undefined;
  alerts: AlertService;
  releaseErrors: ReleaseErrorsService;
}

export function createAlerting(deps: {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  jobs: Pick<JobRunner, 'add'>;
  config: Pick<
    Config,
    | 'smtpUrl'
    | 'contactEmailTo'
    | 'mailFrom'
    | 'publicOrigin'
    | 'releaseErrorRatePercent'
    | 'releaseErrorMinPageViews'
    | 'releaseErrorWindowMinutes'
    | 'releaseErrorMinReporters'
  >;
  /** The deployed remotes: their served releases' reports are counted. */
  remotes?: Pick<DeployedRemotes, 'snapshot'>;
  /** The canaries this instance serves now (site/releases/release-choice.ts's cache): their releases are served too. */
  runningCanaries?: () => readonly Canary[];
}): Alerting {
  const { db, clock, logger, config } = deps;
  const mailer = createAlertMailer(config, logger);
  const alerts = createAdminAlerts({ db, clock, logger, config, mailer });
  const releaseErrors = createReleaseErrorsService({
    repository: createReleaseCountsRepository(db),
    clock,
    logger,
    // The manifest's version: the one the remotes map gives the browser, so its reports name the same release.
    // A canary's release is served too (to its share of visitors): the browser's reports of it are counted.
    servedReleases: async () => [
      ...(await (deps.remotes ?? NO_REMOTES).snapshot()).manifests.map((m) => ({ app: m.name, release: m.version })),
      ...(deps.runningCanaries?.() ?? []).map((c) => ({ app: c.app, release: c.version })),
    ],
    alerts,
    state: createAdminStateRepository(db),
    jobs: deps.jobs,
    rules: {
      ...(config.releaseErrorRatePercent !== undefined ? { rate: config.releaseErrorRatePercent / 100 } : {}),
      ...(config.releaseErrorMinPageViews !== undefined ? { minPageViews: config.releaseErrorMinPageViews } : {}),
      ...(config.releaseErrorWindowMinutes !== undefined ? { windowMs: config.releaseErrorWindowMinutes * 60_000 } : {}),
      ...(config.releaseErrorMinReporters !== undefined ? { minReporters: config.releaseErrorMinReporters } : {}),
    },
  });
  return { mailer, alerts, releaseErrors };
}

/** No remotes deployed (a container built without a site root). */
const NO_REMOTES: Pick<DeployedRemotes, 'snapshot'> = {
  snapshot: async () => ({ manifests: [], map: {}, routes: [] }),
};

export function createServices(deps: {
  db: Kysely<Database>;
  clock: Clock;
  /** The app's background-work runner: the outboxes and scheduled publishing add their job kinds to it. */
  jobs: Pick<JobRunner, 'add'>;
  /** Every default lives in config.ts (loadConfig); nothing here invents one. */
  config: Pick<
    Config,
    | 'smtpUrl'
    | 'contactEmailTo'
    | 'mailFrom'
    | 'webhookSecret'
    | 'webhookAllowPrivateTargets'
    | 'publicOrigin'
    | 'googlePlacesApiKey'
    | 'yelpApiKey'
    | 'adminPassword'
    | 'adminPasswordHash'
    | 'dataDir'
    | 'diskMinFreeBytes'
    | 'siteRoot'
    | 'rateLimitMultiplier'
    | 'mediaJobs'
    | 'mediaQueue'
    | 'contactMailRate'
    | 'mediaThreads'
    | 'mediaCacheMb'
    | 'mediaMaxMb'
    | 'retentionDeliveryDays'
    | 'retentionEventDays'
    | 'retentionAnalysisDays'
    | 'retentionReleaseDays'
    | 'retentionReleaseKeep'
    | 'retentionReleaseCountDays'
    | 'releaseErrorCounting'
  > &
    Partial<Pick<Config, 'readyDbGraceMs'>>;
  /** The database round trip the health check makes. */
  ping: () => Promise<boolean>;
  /** When the database last answered anything (readiness: how long it has been away). */
  lastDatabaseAnswerAt?: () => number | undefined;
  /** Reads the page-view tokens browsers' release reports carry (site/releases/visitor-tokens.ts); without it none counts. */
  pageTokens?: PageTokenReader;
  /** The deployed remotes the health check lists. */
  remotes?: Pick<DeployedRemotes, 'snapshot' | 'shared'>;
  analysis?: AnalysisEngineOverrides;
  logger?: Logger;
  /** Where rate-limit counters live (the admin login lockout); this process when absent. */
  rateLimits?: RateLimitStore;
  /**
   * Told, after each stored change of public content, which pages it touches (lib/content-tags.ts): the render cache
   * drops them, here and on every instance. Called before the change's caller gets its answer.
   */
  onContentChange?: (tags: string[]) => void;
  /** How often the scheduler looks for due posts (tests make it short). */
  schedulerPollMs?: number;
  /** How often each instance looks for due outgoing webhook deliveries (5 s by default). */
  webhookPollMs?: number;
  /** Resolves the host names of outgoing webhook endpoints (the system's DNS by default; tests give their own). */
  webhookResolver?: Resolver;
  /** The render cache's counters, for the admin view of /api/health. */
  renderCacheStats?: () => RenderCacheHealth;
  /** The database in use: on PostgreSQL media files live in it (every instance shares them), else in DATA_DIR/media. */
  databaseDialect?: 'sqlite' | 'postgres';
  /** Counts for GET /metrics (only when METRICS_TOKEN is set). */
  metrics?: ServiceMetrics;
  /** The alerts and release error counts, built first (createAlerting). */
  alerting: Alerting;
}): DomainServices {
  const events = createEventsRepository(deps.db);
  const logger = deps.logger ?? createLogger({ level: 'silent' });
  const deployLog = createDeployLog(deps.db, deps.clock);
  const disk = createDiskState({ dir: deps.config.dataDir, minFreeBytes: deps.config.diskMinFreeBytes, clock: deps.clock });
  // Every way a post changes (admin, webhook, the scheduler, imports) goes through it: it keeps each revision and tells
  // the render cache which public pages a change touched.
  const { alerts, releaseErrors } = deps.alerting;
  const admin = createAdminServices({
    db: deps.db,
    clock: deps.clock,
    logger,
    config: deps.config,
    ping: deps.ping,
    remotes: deps.remotes ?? NO_REMOTES,
    rateLimits: deps.rateLimits,
    metrics: deps.metrics,
    releases: () => releaseErrors.served(),
    alerts,
    mailer: deps.alerting.mailer,
  });
  // Events reach the owner's endpoints through a delivery outbox in the database (one row per event x endpoint).
  const webhooksOut = createWebhooksOutService({
    repository: createWebhooksOutRepository(deps.db),
    sender: countedSender(createWebhookSender({ allowPrivateTargets: deps.config.webhookAllowPrivateTargets, resolver: deps.webhookResolver }), deps.metrics),
    allowPrivateTargets: deps.config.webhookAllowPrivateTargets,
    clock: deps.clock,
    logger,
    alerts,
    jobs: deps.jobs,
    pollMs: deps.webhookPollMs,
  });
  const origin = deps.config.publicOrigin;
  const mediaStore: MediaStore =
    deps.databaseDialect === 'postgres'
      ? { kind: 'database', ...createMediaBlobsRepository(deps.db, deps.clock) }
      : createFileMediaStore(path.join(deps.config.dataDir, 'media'));
  // libvips is one per process: its threads and cache are set for every app of the process alike.
  configureImageProcessing({ threads: deps.config.mediaThreads ?? 1, cacheMb: deps.config.mediaCacheMb ?? 0 });
  const media = createMediaService({
    repository: createMediaRepository(deps.db),
    store: mediaStore,
    clock: deps.clock,
    logger,
    jobs: deps.jobs,
    processing: { concurrency: deps.config.mediaJobs ?? 1, maxWaiting: deps.config.mediaQueue ?? 8 },
    processor: createChildImageProcessor({ threads: deps.config.mediaThreads ?? 1, maxMb: deps.config.mediaMaxMb ?? 1024, budgetMs: 120_000 }),
    onContentChange: deps.onContentChange,
  });
  const posts = createPostService({
    posts: createPostsRepository(deps.db),
    clock: deps.clock,
    logger,
    onContentChange: deps.onContentChange,
    events: webhooksOut.changeEvents<PostEvent>(({ type, post }) => ({ type, data: postEventData(post, origin, type === 'post.deleted') })),
    // The owner's alt text of a media-library image is that image's alt wherever a post shows it.
    imageAlts: async (urls) => new Map([...(await media.describe(urls))].flatMap(([url, facts]) => (facts.alt ? [[url, facts.alt] as const] : []))),
  });
  return {
    releaseErrors,
    webhooksOut,
    posts,
    media,
    scheduler: createPostScheduler({ posts, logger, jobs: deps.jobs, pollMs: deps.schedulerPollMs }),
    webhook: createWebhookService({
      secret: deps.config.webhookSecret,
      posts,
      deliveries: createWebhookDeliveriesRepository(deps.db),
      clock: deps.clock,
      publicOrigin: deps.config.publicOrigin,
      // `storeImages: true`: the post's image URLs are fetched once, by the analysis' SSRF-safe rules, into the library.
      importImage: createRemoteImageImporter({ media, fetch: deps.analysis?.website }),
    }),
    events: createEventService({
      events,
      clock: deps.clock,
      // Browsers' release reports count only through the gate: a valid page-view token, its release, its caps.
      ...(deps.config.releaseErrorCounting !== false && deps.pageTokens ? { releases: releaseErrors, gate: createReleaseReportGate({ tokens: deps.pageTokens, clock: deps.clock }) } : {}),
    }),
    contact: createContactService({
      messages: createContactRepository(deps.db),
      clock: deps.clock,
      logger,
      mailer: deps.config.smtpUrl ? countedMailer(createSmtpMailer(deps.config.smtpUrl, { onError: (err) => logger.warn({ err }, 'SMTP transport error') }), deps.metrics) : undefined,
      mailTo: deps.config.contactEmailTo,
      mailFrom: deps.config.mailFrom,
      publicOrigin: deps.config.publicOrigin,
      mailRatePerSecond: deps.config.contactMailRate,
      jobs: deps.jobs,
      events: webhooksOut.changeEvents<StoredContactMessage>((message) => ({ type: 'lead.created', data: leadCreatedData(message) })),
    }),
    analysis: createAnalysisService({
      engine: createAnalysisEngine({
        ...deps.analysis,
        googlePlacesApiKey: deps.config.googlePlacesApiKey,
        yelpApiKey: deps.config.yelpApiKey,
        clock: deps.clock,
      }),
      repository: createAnalysesRepository(deps.db),
      clock: deps.clock,
      events: webhooksOut.changeEvents<StoredAnalysis>((stored) => ({ type: 'analysis.completed', data: analysisCompletedData(stored, origin) })),
    }),
    disk,
    health: createHealthService({
      disk,
      ping: deps.ping,
      lastAnswerAt: deps.lastDatabaseAnswerAt,
      readyGraceMs: deps.config.readyDbGraceMs,
      remotes: deps.remotes,
      renderCache: deps.renderCacheStats,
      releases: releaseErrors,
    }),
    admin,
    deployLog,
    deployTokens: createDeployTokenService({ repository: createDeployTokensRepository(deps.db), clock: deps.clock, logger }),
    retention: createRetentionService({
      repository: createRetentionRepository(deps.db),
      logger,
      jobs: deps.jobs,
      rules: {
        deliveryDays: deps.config.retentionDeliveryDays,
        eventDays: deps.config.retentionEventDays,
        analysisDays: deps.config.retentionAnalysisDays,
        releaseDays: deps.config.retentionReleaseDays,
        releaseKeep: deps.config.retentionReleaseKeep,
        releaseCountDays: deps.config.retentionReleaseCountDays,
      },
      releaseCounts: createReleaseCountsRepository(deps.db),
    }),
  };
}

/** The webhook sender, each POST's outcome counted (webhook deliveries by result). */
function countedSender(sender: WebhookSender, metrics: ServiceMetrics | undefined): WebhookSender {
  if (!metrics) return sender;
  return {
    async post(url, body, headers) {
      const result = await sender.post(url, body, headers);
      metrics.webhookAttempt(result.kind !== 'answered' ? (result.kind === 'network' ? 'network_error' : 'refused') : result.status >= 200 && result.status < 300 ? 'success' : 'http_error');
      return result;
    },
  };
}

/** The contact outbox's mailer, each mail's outcome counted. */
function countedMailer(mailer: Mailer, metrics: ServiceMetrics | undefined): Mailer {
  if (!metrics) return mailer;
  return {
    async send(mail) {
      try {
        await mailer.send(mail);
        metrics.contactMail('sent');
      } catch (error) {
        metrics.contactMail('failed');
        throw error;
      }
    },
    close: () => mailer.close(),
  };
}
