import { stat, statfs } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REMOTE_NAMES, type RemoteName } from '@site/contracts/manifest';
import type { AdminHealth, HealthCheck, HealthStatus } from '@site/contracts/admin';
import type { DatabaseHandle } from '../db/database';
import type { AdminStateRepository } from './admin-state-repository';
import type { LeadsRepository } from '../contact/leads-repository';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import type { AppName, DeployedRemotes, SharedReleases } from '../health/deployed-remotes';
import type { AlertService } from './alert-service';
import { gitHead, hostCpuLoad, vulnerabilitySummary, type CpuLoad } from './host-facts';

/** A database round trip or a remote entry slower than these raises a performance alert. */
export const SLOW_DATABASE_MS = 1000;
export const SLOW_REMOTE_MS = 2000;
/**
 * A CPU alert needs every check over this long at or above the threshold: one reading is not a problem (the first
 * start runs right after the build, whose load the 1-minute average still carries).
 */
export const CPU_SUSTAINED_MS = 5 * 60_000;
/** Checks further apart than this say nothing about the time between them: the window starts again. */
const CPU_MAX_GAP_MS = CPU_SUSTAINED_MS / 2;
/** Owner mails waiting beyond this count make the outbox check a warning. */
const OUTBOX_BACKLOG_WARNING = 10;
const REMOTE_TIMEOUT_MS = 5000;

export interface HealthService {
  /** The latest stored results (`unknown` before the first run). */
  latest(): Promise<AdminHealth>;
  /** Runs every check now, stores the results, raises the alerts they call for. One run at a time. */
  run(): Promise<AdminHealth>;
}

export interface HealthServiceDeps {
  database: Pick<DatabaseHandle, 'ping'>;
  remotes: Pick<DeployedRemotes, 'snapshot' | 'shared' | 'shell'>;
  leads: Pick<LeadsRepository, 'outboxBacklog'>;
  state: AdminStateRepository;
  alerts: AlertService;
  clock: Clock;
  logger: Logger;
  dataDir: string;
  siteRoot: string;
  smtpConfigured: boolean;
  apiVersion: string;
  /** For remotes hosted elsewhere (REMOTE_<NAME>_URL). */
  fetch?: typeof fetch;
  /** The host's load (tests: a load of their own). */
  cpuLoad?: () => CpuLoad;
  /** Each served release's errors over the alert window (release-errors/): a failing one makes its remote's check a warning. */
  releases?: () => Promise<Array<{ app: string; release: string; window: { pageViews: number; renderErrors: number; clientErrors: number; rate: number | null }; failing: boolean }>>;
}

const STATE_KEY = 'health:latest';
const RANK: Record<HealthStatus, number> = { ok: 0, unknown: 1, warning: 2, down: 3 };
const round1 = (n: number) => Math.round(n * 10) / 10;
const minutes = (ms: number) => `${ms / 60_000} minutes`;

/**
 * With releases shared through PostgreSQL: the shared pointer and what every instance serves since when, e.g.
 * "shared pointer 1.1.0 (since 2026-11-26 10:02 UTC); instances: web-1 1.1.0 since 10:02 UTC, web-2 1.0.0 since
 * 09:40 UTC (release 1.1.0 could not be copied here: …)".
 * `behind` when an instance does not serve the pointer's release.
 */
function sharedSummary(name: AppName, shared: SharedReleases | undefined): { text: string; behind: boolean } | undefined {
  const pointer = shared?.pointers[name];
  if (!shared || !pointer) return undefined;
  const instances = shared.instances.filter((report) => report.remote === name);
  const described = instances.map((report) => {
    const who = report.instance === shared.self ? `${report.instance} (this one)` : report.instance;
    const problem = report.version !== pointer.version && report.problem ? ` (${report.problem})` : '';
    const since = report.since ? ` since ${report.since.slice(11, 16)} UTC` : '';
    return `${who} ${report.version ?? 'nothing'}${since}${problem}`;
  });
  return {
    text: `; shared pointer ${pointer.version} (since ${pointer.since.slice(0, 16).replace('T', ' ')} UTC); instances: ${described.join(', ') || 'none reported'}`,
    behind: instances.some((report) => report.version !== pointer.version),
  };
}

/** A remote's check, a warning while its served release is failing for visitors (its errors per page view). */
function withReleaseErrors(c: HealthCheck, failing: Map<string, NonNullable<Awaited<ReturnType<NonNullable<HealthServiceDeps['releases']>>>>[number]>): HealthCheck {
  const verdict = c.version ? failing.get(`${c.id.slice('remote:'.length)}@${c.version}`) : undefined;
  if (!verdict || c.status === 'down') return c;
  const { pageViews, renderErrors, clientErrors, rate } = verdict.window;
  return {
    ...c,
    status: 'warning',
    message: `Release ${verdict.release} is failing: ${renderErrors} server render errors and ${clientErrors} browser errors in ${pageViews} page views (${Math.round((rate ?? 0) * 1000) / 10}%) lately. ${c.message}`,
  };
}

/** The alerts the checks call for: a check going down or slow, a threshold passed (CPU: for CPU_SUSTAINED_MS). */
async function raiseAlerts(
  alerts: Pick<AlertService, 'raise'>,
  turned: (id: string, bad: boolean) => boolean,
  checks: HealthCheck[],
  thresholds: Record<'diskSpace' | 'memory' | 'cpu', number>,
  cpuSustained: { lowest: number } | null,
) {
  const raises: Promise<unknown>[] = [];
  for (const c of checks) {
    if (c.kind === 'database' || c.kind === 'remote') {
      if (turned(`${c.id}:down`, c.status === 'down')) {
        raises.push(
          alerts.raise({
            type: 'healthCheck',
            severity: c.kind === 'database' ? 'critical' : 'high',
            title: c.kind === 'database' ? 'Database is down' : `${c.name} is down`,
            message: c.message,
            key: c.id,
          }),
        );
      }
      const slowLimit = c.kind === 'database' ? SLOW_DATABASE_MS : SLOW_REMOTE_MS;
      if (turned(`${c.id}:slow`, c.status !== 'down' && (c.responseTimeMs ?? 0) > slowLimit)) {
        raises.push(
          alerts.raise({
            type: 'performance',
            severity: 'medium',
            title: `${c.name} is slow`,
            message: `${c.name} took ${c.responseTimeMs} ms (limit ${slowLimit} ms)`,
            key: c.id,
          }),
        );
      }
    }
    if (c.kind === 'cpu') {
      const threshold = thresholds.cpu;
      if (turned(`${c.id}:threshold`, cpuSustained !== null) && cpuSustained) {
        const window = minutes(CPU_SUSTAINED_MS);
        raises.push(
          alerts.raise({
            type: 'cpu',
            severity: cpuSustained.lowest >= 95 ? 'critical' : 'medium',
            title: `CPU load above ${threshold}% for ${window}`,
            message: `Every check in the last ${window} read at least ${threshold}% (lowest ${cpuSustained.lowest}%). Now: ${c.message}`,
            key: c.id,
          }),
        );
      }
      continue;
    }
    const thresholdType = c.kind === 'disk' ? 'diskSpace' : c.kind === 'memory' ? 'memory' : undefined;
    if (thresholdType && c.value !== null) {
      const threshold = thresholds[thresholdType];
      if (turned(`${c.id}:threshold`, c.value >= threshold)) {
        raises.push(
          alerts.raise({
            type: thresholdType,
            severity: c.value >= 95 ? 'critical' : 'high',
            title: `${c.name} above ${threshold}%`,
            message: c.message,
            key: c.id,
          }),
        );
      }
    }
  }
  await Promise.allSettled(raises);
}

/** Deployments (a remote's version changed), a new API version, a new commit, a new audit report. */
async function raiseChangeAlerts(deps: Pick<HealthServiceDeps, 'state' | 'alerts' | 'apiVersion' | 'siteRoot' | 'clock'>, checks: HealthCheck[]) {
  const at = deps.clock().toISOString();
  const versions = Object.fromEntries(checks.filter((c) => c.kind === 'remote' && c.version).map((c) => [c.id.slice(7), c.version!]));
  const seen = await deps.state.get<Record<string, string>>('versions:remotes');
  if (seen) {
    for (const [name, version] of Object.entries(versions)) {
      if (seen[name] && seen[name] !== version) {
        await deps.alerts.raise({ type: 'deployment', severity: 'low', title: `mfe-${name} deployed`, message: `mfe-${name} changed from version ${seen[name]} to ${version}` });
      }
    }
  }
  await deps.state.set('versions:remotes', { ...seen, ...versions }, at);

  const api = await deps.state.get<string>('versions:api');
  if (api !== undefined && api !== deps.apiVersion) {
    await deps.alerts.raise({ type: 'serverUpdate', severity: 'low', title: 'Server updated', message: `The API now runs version ${deps.apiVersion} (was ${api})` });
  }
  if (api !== deps.apiVersion) await deps.state.set('versions:api', deps.apiVersion, at);

  const head = await gitHead(deps.siteRoot);
  if (head) {
    const lastHead = await deps.state.get<string>('versions:git');
    if (lastHead && lastHead !== head) {
      await deps.alerts.raise({ type: 'newCommit', severity: 'low', title: 'New commit deployed', message: `The site root is now at commit ${head.slice(0, 12)} (was ${lastHead.slice(0, 12)})` });
    }
    if (lastHead !== head) await deps.state.set('versions:git', head, at);
  }

  const audit = await vulnerabilitySummary({ siteRoot: deps.siteRoot });
  if (audit.available) {
    const signature = `${audit.generatedAt}:${audit.critical}:${audit.high}:${audit.moderate}:${audit.low}`;
    const lastAudit = await deps.state.get<string>('versions:audit');
    if (lastAudit !== signature) {
      await deps.state.set('versions:audit', signature, at);
      if (audit.critical + audit.high > 0) {
        await deps.alerts.raise({
          type: 'vulnerabilityScan',
          severity: audit.critical > 0 ? 'critical' : 'high',
          title: 'Vulnerable dependencies',
          message: `The dependency audit found ${audit.critical} critical, ${audit.high} high, ${audit.moderate} moderate and ${audit.low} low advisories`,
          detail: `Report: ${audit.source} (${audit.generatedAt})`,
        });
      }
    }
  }
}

export function createHealthService(deps: HealthServiceDeps): HealthService {
  const fetcher = deps.fetch ?? fetch;
  /** Status of each check in the previous run: alerts are raised when a check turns bad, not every minute. */
  const previous = new Map<string, string>();
  let running: Promise<AdminHealth> | undefined;
  let lastCpu = { usage: process.cpuUsage(), at: process.hrtime.bigint() };
  const cpuLoad = deps.cpuLoad ?? hostCpuLoad;
  /** CPU readings of the last CPU_SUSTAINED_MS, and the last one before, which opens the window. */
  let cpuReadings: { at: number; percent: number }[] = [];

  const now = () => deps.clock();
  const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const start = performance.now();
    const value = await work();
    return [value, round1(performance.now() - start)];
  };

  function check(partial: Omit<HealthCheck, 'checkedAt' | 'responseTimeMs' | 'value' | 'unit' | 'version'> & Partial<HealthCheck>): HealthCheck {
    return { responseTimeMs: null, value: null, unit: null, version: null, checkedAt: now().toISOString(), ...partial };
  }

  async function databaseCheck(): Promise<HealthCheck> {
    const [ok, ms] = await timed(() => deps.database.ping(3000));
    if (!ok) return check({ id: 'database', kind: 'database', name: 'Database', status: 'down', responseTimeMs: ms, message: 'The database did not answer' });
    const slow = ms > SLOW_DATABASE_MS;
    return check({
      id: 'database',
      kind: 'database',
      name: 'Database',
      status: slow ? 'warning' : 'ok',
      responseTimeMs: ms,
      value: ms,
      unit: 'ms',
      message: slow ? `Round trip took ${ms} ms (slow)` : `Round trip ${ms} ms`,
    });
  }

  /** The shell this instance serves (its release, since when), and on PostgreSQL what every instance serves of it. */
  async function shellCheck(shared?: SharedReleases): Promise<HealthCheck | undefined> {
    const shell = await deps.remotes.shell?.().catch(() => undefined);
    if (!shell) return undefined;
    const base = { id: 'shell', kind: 'remote' as const, name: 'Shell' };
    const where = shell.version ? `shell/releases/${shell.version}` : 'shell/dist';
    const instances = sharedSummary('shell', shared);
    return check({
      ...base,
      status: instances?.behind ? 'warning' : 'ok',
      ...(shell.version ? { version: shell.version } : {}),
      message: `${shell.version ? `version ${shell.version}` : 'no release yet'} from ${where}, served here since ${shell.since.slice(0, 16).replace('T', ' ')} UTC${instances?.text ?? ''}`,
    });
  }

  async function remoteCheck(name: RemoteName, snapshot: Awaited<ReturnType<DeployedRemotes['snapshot']>>, shared?: SharedReleases): Promise<HealthCheck> {
    const base = { id: `remote:${name}`, kind: 'remote' as const, name: `Remote: ${name}` };
    const manifest = snapshot.manifests.find((m) => m.name === name);
    const info = snapshot.map[name];
    if (!manifest || !info) {
      return check({ ...base, status: 'down', message: `Not deployed: mfe-${name}/dist/mfe-manifest.json is missing or invalid` });
    }
    const version = manifest.version;
    if (/^https?:\/\//i.test(info.entry)) {
      try {
        const [res, ms] = await timed(() => fetcher(info.entry, { method: 'GET', signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS), redirect: 'follow' }));
        await res.body?.cancel().catch(() => {});
        if (!res.ok) return check({ ...base, status: 'down', version, responseTimeMs: ms, message: `remoteEntry.js answered ${res.status} at ${info.entry}` });
        return check({ ...base, status: ms > SLOW_REMOTE_MS ? 'warning' : 'ok', version, responseTimeMs: ms, message: `remoteEntry.js answered in ${ms} ms at ${info.entry}` });
      } catch (error) {
        return check({ ...base, status: 'down', version, message: `remoteEntry.js did not answer at ${info.entry}: ${error instanceof Error ? error.message : String(error)}` });
      }
    }
    // Served by this server from the release (or dist) this snapshot serves: the file must be there and readable.
    const relative = info.entry.replace(new RegExp(`^/mfe/${name}/`), '');
    const served = snapshot.served?.[name];
    const where = served?.layout === 'release' ? `mfe-${name}/releases/${served.version}` : `mfe-${name}/dist`;
    const file = path.join(served?.dir ?? `/nonexistent/mfe-${name}/dist`, relative);
    try {
      const [info2, ms] = await timed(() => stat(file));
      if (!info2.isFile() || info2.size === 0) throw new Error('empty or not a file');
      // Which release this instance serves since when, and what the pointer names when that is another release.
      const since = served ? `, served here since ${served.since.slice(0, 16).replace('T', ' ')} UTC` : '';
      const pointer = served?.pointer && served.pointer !== version ? `; the pointer names ${served.pointer}, not served: ${served.rejected?.reason ?? 'see the logs'}` : '';
      const instances = sharedSummary(name, shared);
      return check({
        ...base,
        status: pointer || instances?.behind ? 'warning' : 'ok',
        version,
        responseTimeMs: ms,
        message: `remoteEntry.js present (${info2.size} bytes), version ${version} from ${where}${since}${pointer}${instances?.text ?? ''}`,
      });
    } catch {
      return check({ ...base, status: 'down', version, message: `remoteEntry.js is missing from ${where}/${relative}` });
    }
  }

  async function outboxCheck(): Promise<HealthCheck> {
    const base = { id: 'outbox', kind: 'outbox' as const, name: 'SMTP outbox', unit: 'messages' as const };
    try {
      const { pending, retrying, failed } = await deps.leads.outboxBacklog();
      const backlog = pending + retrying;
      if (!deps.smtpConfigured) return check({ ...base, status: 'ok', value: 0, message: 'SMTP_URL is not set: contact messages are stored, not emailed' });
      const status: HealthStatus = failed > 0 || backlog > OUTBOX_BACKLOG_WARNING ? 'warning' : 'ok';
      return check({ ...base, status, value: backlog, message: `${backlog} waiting (${retrying} retrying), ${failed} given up` });
    } catch (error) {
      return check({ ...base, status: 'unknown', message: `Could not read the outbox: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  async function diskCheck(threshold: number): Promise<HealthCheck> {
    const base = { id: 'disk', kind: 'disk' as const, name: 'Disk (data volume)', unit: 'percent' as const };
    try {
      const s = await statfs(deps.dataDir);
      const used = (s.blocks - s.bfree) * s.bsize;
      const usable = used + s.bavail * s.bsize;
      const percent = usable > 0 ? round1((used / usable) * 100) : 0;
      const freeGb = round1((s.bavail * s.bsize) / 1024 ** 3);
      return check({ ...base, status: percent >= threshold ? 'warning' : 'ok', value: percent, message: `${percent}% used, ${freeGb} GB free (threshold ${threshold}%)` });
    } catch (error) {
      return check({ ...base, status: 'unknown', message: `Could not read the volume of DATA_DIR: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  function memoryCheck(threshold: number): HealthCheck {
    const total = os.totalmem();
    const percent = round1(((total - os.freemem()) / total) * 100);
    const rssMb = Math.round(process.memoryUsage.rss() / 1024 ** 2);
    return check({
      id: 'memory',
      kind: 'memory',
      name: 'Memory',
      status: percent >= threshold ? 'warning' : 'ok',
      value: percent,
      unit: 'percent',
      message: `Host ${percent}% used of ${round1(total / 1024 ** 3)} GB; this server process ${rssMb} MB (threshold ${threshold}%)`,
    });
  }

  /**
   * The CPU check, and whether the load has been at or above the threshold at every check for CPU_SUSTAINED_MS
   * (`sustained`: the lowest of those readings), which is what raises the alert.
   */
  function cpuCheck(threshold: number): { check: HealthCheck; sustained: { lowest: number } | null } {
    const { load, cores } = cpuLoad();
    const percent = round1(Math.min(100, (load / cores) * 100));
    const usage = process.cpuUsage(lastCpu.usage);
    const at = process.hrtime.bigint();
    const elapsedUs = Number(at - lastCpu.at) / 1000;
    lastCpu = { usage: process.cpuUsage(), at };
    const processPercent = elapsedUs > 0 ? round1(((usage.user + usage.system) / elapsedUs) * 100) : 0;

    const nowMs = now().getTime();
    const previous = cpuReadings.at(-1);
    if (previous && (nowMs - previous.at > CPU_MAX_GAP_MS || nowMs < previous.at)) cpuReadings = [];
    cpuReadings.push({ at: nowMs, percent });
    const windowStart = nowMs - CPU_SUSTAINED_MS;
    while (cpuReadings.length > 1 && cpuReadings[1]!.at <= windowStart) cpuReadings.shift();
    const over = percent >= threshold;
    const sustained = cpuReadings[0]!.at <= windowStart && cpuReadings.every((r) => r.percent >= threshold);

    return {
      check: check({
        id: 'cpu',
        kind: 'cpu',
        name: 'CPU load',
        status: over ? 'warning' : 'ok',
        value: percent,
        unit: 'percent',
        message:
          `Load ${round1(load)} on ${cores} cores (${percent}%); this server process ${processPercent}% since the last check (threshold ${threshold}%` +
          (over && !sustained ? `; an alert follows when it stays there for ${minutes(CPU_SUSTAINED_MS)})` : ')'),
      }),
      sustained: sustained ? { lowest: Math.min(...cpuReadings.map((r) => r.percent)) } : null,
    };
  }

  /** True when the check just turned into `status` (or is in it on the first run). */
  function turned(id: string, bad: boolean): boolean {
    const key = `${id}`;
    const was = previous.get(key);
    previous.set(key, bad ? 'bad' : 'good');
    return bad && was !== 'bad';
  }

  async function runOnce(): Promise<AdminHealth> {
    const thresholds = await deps.alerts.thresholds().catch(() => ({ diskSpace: 85, memory: 90, cpu: 90 }));
    const snapshot = await deps.remotes.snapshot();
    const shared = await deps.remotes.shared?.().catch(() => undefined);
    const failing = new Map(((await deps.releases?.().catch(() => undefined)) ?? []).filter((r) => r.failing).map((r) => [`${r.app}@${r.release}`, r]));
    const cpu = cpuCheck(thresholds.cpu);
    const checks = [
      await databaseCheck(),
      ...(await Promise.all(REMOTE_NAMES.map(async (name) => withReleaseErrors(await remoteCheck(name, snapshot, shared), failing)))),
      ...[await shellCheck(shared)].filter((c): c is HealthCheck => c !== undefined),
      await outboxCheck(),
      await diskCheck(thresholds.diskSpace),
      memoryCheck(thresholds.memory),
      cpu.check,
    ];
    const status = checks.reduce<HealthStatus>((worst, c) => (RANK[c.status] > RANK[worst] ? c.status : worst), 'ok');
    const checkedAt = now().toISOString();
    const health: AdminHealth = { status, checkedAt, checks };
    // The database may be the thing that is down: results and alerts are best effort, the answer is not.
    await deps.state.set(STATE_KEY, health, checkedAt).catch((err: unknown) => deps.logger.warn({ err }, 'could not store health results'));
    await raiseAlerts(deps.alerts, turned, checks, thresholds, cpu.sustained).catch((err: unknown) => deps.logger.warn({ err }, 'could not raise health alerts'));
    await raiseChangeAlerts(deps, checks).catch((err: unknown) => deps.logger.warn({ err }, 'could not check versions'));
    return health;
  }

  return {
    async latest() {
      const stored = await deps.state.get<AdminHealth>(STATE_KEY);
      return stored ?? { status: 'unknown', checkedAt: null, checks: [] };
    },
    run() {
      running ??= runOnce().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
