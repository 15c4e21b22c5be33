import { stat } from 'node:fs/promises';
import path from 'node:path';
import { healthSchema, type Health, type RemoteHealth, type RenderCacheHealth } from '@site/contracts/manifest';
import { API_VERSION } from '../lib/version';
import type { DeployedRemotes, RemotesSnapshot } from './deployed-remotes';
import type { DiskHealth, DiskState } from './disk-state';

export interface HealthService {
  /**
   * API version, a database round trip (`ok`/`down`) and each served remote: its version, whether its
   * remoteEntry.js is there and its server module loads, and the last known good release when the one deployed
   * is not served. Never throws for a down database.
   */
  check(): Promise<Health>;
  /** One database round trip: true when it answers in time. Never throws. */
  ping(): Promise<boolean>;
  /**
   * Readiness: true unless the database has answered nothing (no statement, no ping) for the grace period. Asks the
   * database (a ping on a connection of its own) only when nothing answered lately. Never throws.
   */
  ready(): Promise<boolean>;
}

// Readiness answers the same 503 as a request that needs the database (routes read no db/ module).
export { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE_CODE, DATABASE_UNAVAILABLE_MESSAGE } from '../db/db-errors';

/** READY_DB_GRACE_MS's default: how long the database may be away before readiness fails. */
export const DEFAULT_READY_GRACE_MS = 30_000;
/** An answer this recent makes a readiness ping unneeded. */
const RECENT_ANSWER_MS = 2000;

async function remoteEntryStatus(snapshot: RemotesSnapshot, name: string): Promise<RemoteHealth['remoteEntry']> {
  const entry = snapshot.map[name as keyof RemotesSnapshot['map']]?.entry;
  const served = snapshot.served?.[name as keyof RemotesSnapshot['map']];
  if (!entry || !served) return 'missing';
  if (/^https?:\/\//i.test(entry)) return 'external';
  const file = path.join(served.dir, entry.replace(`/mfe/${name}/`, ''));
  try {
    const info = await stat(file);
    return info.isFile() && info.size > 0 ? 'ok' : 'missing';
  } catch {
    return 'missing';
  }
}

/**
 * What `/api/health` tells anyone: the overall status (`down` when the database does not answer, naming it in `down`;
 * `degraded` when a served release is failing), the database and the version each remote serves. Load
 * errors and refused releases name files on the server and the release history, so only an admin session reads them.
 */
export function publicHealth(health: Health): Health {
  return {
    status: health.status,
    version: health.version,
    db: health.db,
    ...(health.down ? { down: health.down } : {}),
    ...(health.disk ? { disk: health.disk } : {}),
    remotes: Object.fromEntries(Object.entries(health.remotes).map(([name, remote]) => [name, { version: remote.version }])),
  };
}

/** The admin's view of the disk: only what is known. */
function diskDetailOf({ reason, lastFailure, freeBytes }: DiskHealth): Health['diskDetail'] {
  return { ...(reason ? { reason } : {}), ...(lastFailure ? { lastFailure } : {}), ...(freeBytes === undefined ? {} : { freeBytes }) };
}

export function createHealthService(deps: {
  /** One trivial query against the database: true when it answers in time. */
  ping: () => Promise<boolean>;
  /** When the database last answered anything (Date.now()); undefined before the first answer. */
  lastAnswerAt?: () => number | undefined;
  /** READY_DB_GRACE_MS. */
  readyGraceMs?: number;
  /** The deployed remotes; none listed when absent. */
  remotes?: Pick<DeployedRemotes, 'snapshot' | 'shared'>;
  /** The render cache's counters (admin view). */
  renderCache?: () => RenderCacheHealth;
  /** Each served release's page views and errors over the alert window, and whether it is failing (release-errors/). */
  releases?: { served(): Promise<Array<{ app: string; release: string; window: Omit<NonNullable<RemoteHealth['errors']>, 'failing'>; failing: boolean }>> };
  /** The data disk (health/disk-state.ts): `full` makes the site degraded; reads still work, so readiness stays. */
  disk?: Pick<DiskState, 'check'>;
}): HealthService {
  const graceMs = deps.readyGraceMs ?? DEFAULT_READY_GRACE_MS;
  /** Since when pings have failed with no answer in between; undefined while the database answers. */
  let failingSince: number | undefined;
  return {
    ping: () => deps.ping(),
    async ready() {
      const last = deps.lastAnswerAt?.();
      if (last !== undefined && failingSince !== undefined && last > failingSince) failingSince = undefined;
      if (last !== undefined && Date.now() - last < RECENT_ANSWER_MS) return true;
      if (await deps.ping()) {
        failingSince = undefined;
        return true;
      }
      const now = Date.now();
      failingSince ??= now;
      return now - failingSince < graceMs;
    },
    async check() {
      const none: RemotesSnapshot = { manifests: [], map: {}, routes: [] };
      const [dbOk, snapshot, shared, releases, disk] = await Promise.all([
        deps.ping(),
        deps.remotes?.snapshot() ?? none,
        // A database that does not answer leaves the shared part out, not the health answer.
        deps.remotes?.shared?.().catch(() => undefined),
        deps.releases?.served().catch(() => undefined),
        deps.disk?.check(),
      ]);
      const errorsOf = new Map((releases ?? []).map((r) => [`${r.app}@${r.release}`, { ...r.window, failing: r.failing }]));
      const remotes = await Promise.all(
        snapshot.manifests.map(async (m): Promise<[string, RemoteHealth]> => {
          const served = snapshot.served?.[m.name];
          const health: RemoteHealth = {
            version: m.version,
            remoteEntry: await remoteEntryStatus(snapshot, m.name),
            serverEntry: served?.serverEntry ?? (m.server ? 'failed' : 'none'),
          };
          if (served?.serverError) health.serverError = served.serverError;
          if (served?.pointer) health.pointer = served.pointer;
          if (served?.since) health.since = served.since;
          const errors = errorsOf.get(`${m.name}@${m.version}`);
          if (errors) health.errors = { pageViews: errors.pageViews, renderErrors: errors.renderErrors, clientErrors: errors.clientErrors, rate: errors.rate, failing: errors.failing };
          if (served?.rejected) {
            health.lastKnownGood = served.version;
            health.failedRelease = served.rejected;
          }
          const pointer = shared?.pointers[m.name];
          if (shared && pointer) {
            health.shared = {
              pointer: pointer.version,
              since: pointer.since,
              instances: shared.instances
                .filter((report) => report.remote === m.name)
                .map(({ instance, version, since, problem }) => ({ instance, self: instance === shared.self, version, since, problem })),
            };
          }
          return [m.name, health];
        }),
      );
      // A served release failing for visitors makes the site degraded (still 200: the instance itself is fine).
      const failing = (releases ?? []).some((r) => r.failing);
      return healthSchema.parse({
        status: !dbOk ? 'down' : failing || disk?.status === 'full' ? 'degraded' : 'ok',
        version: API_VERSION,
        db: dbOk ? 'ok' : 'down',
        ...(dbOk ? {} : { down: ['database'] }),
        remotes: Object.fromEntries(remotes),
        ...(deps.renderCache ? { renderCache: deps.renderCache() } : {}),
        ...(disk ? { disk: disk.status, diskDetail: diskDetailOf(disk) } : {}),
      });
    },
  };
}
