import type { Kysely } from 'kysely';
import type { DockerSummary, TrafficEntry, VulnerabilitySummary } from '@site/contracts/admin';
import type { Config } from '../config';
import { createAdminSessionsRepository } from './admin-sessions-repository';
import { createAdminStateRepository } from './admin-state-repository';
import { createAlertsRepository } from './alerts-repository';
import { createFunnelRepository } from '../events/funnel-repository';
import { createLeadsRepository } from '../contact/leads-repository';
import { createLeasesRepository } from '../db/leases-repository';
import type { Database } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { JobKind } from '../lib/job-runner';
import type { RateLimitStore } from '../lib/rate-limit-counter';
import type { Logger } from '../lib/logger';
import { API_VERSION } from '../lib/version';
import type { DeployedRemotes } from '../health/deployed-remotes';
import { createSmtpMailer, type Mailer } from '../lib/mailer';
import { createAlertService, type AlertService } from './alert-service';
import { createAdminAuthService, type AdminAuthService } from './auth-service';
import type { ServiceMetrics } from '../lib/service-metrics';
import { createFunnelService, type FunnelService } from '../events/funnel-service';
import { createHealthService, type HealthService, type HealthServiceDeps } from './system-health-service';
import { dockerSummary, vulnerabilitySummary } from './host-facts';
import { createLeadsService, type LeadsService } from '../contact/leads-service';
import { createPasswordVerifier } from './password';
import { createTrafficMonitor, type TrafficMonitor } from './traffic-monitor';

/** How often the server runs the health checks on its own (and purges expired sessions). */
export const MONITOR_INTERVAL_MS = 60_000;

export interface AdminServices {
  auth: AdminAuthService;
  alerts: AlertService;
  health: HealthService;
  leads: LeadsService;
  funnel: FunnelService;
  traffic: TrafficMonitor;
  docker(): Promise<DockerSummary>;
  vulnerabilities(): Promise<VulnerabilitySummary>;
  /** Hook of the error middleware: a request answered 5xx. */
  serverError(info: { method: string; path: string; status: number; error: unknown }): void;
  /** Hook of the request observer: every answered request (traffic, webhook signature rejects). */
  requestAnswered(info: { address: string; method: string; path: string; status: number }): void;
  /**
   * The `admin-monitor` job: the health checks (and the purge of expired sessions) every `intervalMs`, on one instance
   * of many, the holder of its lease (renewed each run; another instance takes over when it lapses after 2.5
   * intervals, or at once when the holder stops). container.ts adds it to the job runner.
   */
  monitorJob(intervalMs?: number): JobKind;
  /** Waits for alert mails in progress and closes the mailer (after the job runner has stopped). */
  close(): Promise<void>;
}

export interface AdminServicesDeps {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
  config: Pick<
    Config,
    'adminPassword' | 'adminPasswordHash' | 'smtpUrl' | 'contactEmailTo' | 'mailFrom' | 'dataDir' | 'siteRoot' | 'rateLimitMultiplier'
  > &
    Partial<Pick<Config, 'publicOrigin'>>;
  ping: (timeoutMs?: number) => Promise<boolean>;
  remotes: Pick<DeployedRemotes, 'snapshot'>;
  /** Tests: a Docker socket of their own. */
  dockerSocketPath?: string;
  mailer?: Mailer;
  /** Where failed logins are counted (Redis when REDIS_URL is set, so every instance agrees). */
  rateLimits?: RateLimitStore;
  /** Failed logins and lockouts, for GET /metrics. */
  metrics?: Pick<ServiceMetrics, 'loginFailed' | 'clientLockedOut'>;
  /** Each served release's errors over the alert window (release-errors/). */
  releases?: HealthServiceDeps['releases'];
  /** The alerts, when the container built them first (everything reports into them); made here from `mailer` else. */
  alerts?: AlertService;
}

/** The mailer of the owner's alerts (SMTP_URL set); closed by the admin services' close(). */
export function createAlertMailer(config: Pick<Config, 'smtpUrl'>, logger: Logger): Mailer | undefined {
  return config.smtpUrl ? createSmtpMailer(config.smtpUrl, { onError: (err) => logger.warn({ err }, 'SMTP transport error') }) : undefined;
}

/** The owner's alerts: stored, shown in the admin panel, mailed with `mailer`. */
export function createAdminAlerts(
  deps: Pick<AdminServicesDeps, 'db' | 'clock' | 'logger' | 'mailer'> & { config: Pick<Config, 'contactEmailTo' | 'mailFrom'> & Partial<Pick<Config, 'publicOrigin'>> },
): AlertService {
  const { config } = deps;
  return createAlertService({
    alerts: createAlertsRepository(deps.db),
    slots: createLeasesRepository(deps.db),
    clock: deps.clock,
    logger: deps.logger,
    mailer: deps.mailer,
    mailTo: config.contactEmailTo,
    mailFrom: config.mailFrom,
    publicOrigin: config.publicOrigin,
  });
}

export function createAdminServices(deps: AdminServicesDeps): AdminServices {
  const { config, clock, logger } = deps;
  const mailer = deps.mailer ?? createAlertMailer(config, logger);
  const alerts = deps.alerts ?? createAdminAlerts({ ...deps, mailer });
  const auth = createAdminAuthService({
    sessions: createAdminSessionsRepository(deps.db),
    verifier: createPasswordVerifier({ password: config.adminPassword, passwordHash: config.adminPasswordHash }),
    clock,
    lockoutMultiplier: config.rateLimitMultiplier,
    rateLimits: deps.rateLimits,
    onLoginFailure: ({ reason, lockedOut }) => {
      deps.metrics?.loginFailed(reason);
      if (lockedOut) deps.metrics?.clientLockedOut();
    },
    onFailureBurst: ({ address, failures }) =>
      alerts.notify({
        type: 'failedLogins',
        severity: 'high',
        title: 'Burst of failed admin logins',
        message: `${failures} wrong admin passwords from ${address} within 15 minutes`,
        detail: `Client address: ${address}`,
        key: address,
        cooldownMs: 15 * 60_000,
      }),
  });
  const leadsRepository = createLeadsRepository(deps.db);
  const health = createHealthService({
    database: { ping: deps.ping },
    remotes: deps.remotes,
    leads: leadsRepository,
    state: createAdminStateRepository(deps.db),
    alerts,
    clock,
    logger,
    dataDir: config.dataDir,
    siteRoot: config.siteRoot,
    smtpConfigured: Boolean(config.smtpUrl),
    apiVersion: API_VERSION,
    releases: deps.releases,
  });
  const traffic = createTrafficMonitor({
    clock,
    onSuspicious: (entry: TrafficEntry) =>
      alerts.notify({
        type: 'hackAttempts',
        severity: 'medium',
        title: `Suspicious traffic from ${entry.address}`,
        message: `${entry.address}: ${entry.reason}`,
        detail: `${entry.requests} requests, ${entry.clientErrors} 4xx, ${entry.serverErrors} 5xx, ${entry.rateLimited} rate limited in the last hour`,
        key: entry.address,
        cooldownMs: 60 * 60_000,
      }),
  });

  return {
    auth,
    alerts,
    health,
    traffic,
    leads: createLeadsService({ leads: leadsRepository, clock }),
    funnel: createFunnelService({ funnel: createFunnelRepository(deps.db), clock }),
    docker: () => dockerSummary({ socketPath: deps.dockerSocketPath, now: clock() }),
    vulnerabilities: () => vulnerabilitySummary({ siteRoot: config.siteRoot }),

    serverError({ method, path, status, error }) {
      alerts.notify({
        type: 'errors',
        severity: 'high',
        title: `Server error on ${method} ${path}`.slice(0, 200),
        message: `The server answered ${status}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`.slice(0, 500),
        // One alert per path within 5 minutes: a failing endpoint hit by every visitor is one alert, not hundreds.
        key: path,
        cooldownMs: 5 * 60_000,
      });
    },

    requestAnswered({ address, method, path, status }) {
      traffic.record({ address, status, path });
      if (path === '/api/webhook' && method === 'POST' && status === 401) {
        alerts.notify({
          type: 'hackAttempts',
          severity: 'high',
          title: 'Webhook delivery with a bad signature',
          message: `POST /api/webhook from ${address} was refused: missing, wrong or expired signature`,
          detail: `Client address: ${address}`,
          key: `webhook:${address}`,
          cooldownMs: 15 * 60_000,
        });
      }
    },

    monitorJob(intervalMs = MONITOR_INTERVAL_MS) {
      return {
        name: 'admin-monitor',
        pollMs: intervalMs,
        // Renewed by the runner while held: a killed holder's checks resume on another instance within 45 s.
        lease: { ttlMs: Math.min(2.5 * intervalMs, 30_000) },
        async run() {
          const results = await Promise.allSettled([health.run(), auth.purge()]);
          for (const r of results) if (r.status === 'rejected') logger.warn({ err: r.reason }, 'admin monitor run failed');
        },
      };
    },

    async close() {
      await alerts.idle();
      mailer?.close();
    },
  };
}
