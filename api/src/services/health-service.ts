import { healthSchema, type Health } from '@site/contracts/manifest';
import { API_VERSION } from '../lib/version';
import type { RemoteRegistry } from '../site/remote-registry';

export interface HealthService {
  /** API version, a database round trip (`ok`/`down`) and the version of each deployed remote. Never throws for a down database. */
  check(): Promise<Health>;
}

export function createHealthService(deps: {
  /** One trivial query against the database: true when it answers in time. */
  ping: () => Promise<boolean>;
  /** The deployed remotes; none listed when absent. */
  remotes?: Pick<RemoteRegistry, 'snapshot'>;
}): HealthService {
  return {
    async check() {
      const [dbOk, snapshot] = await Promise.all([deps.ping(), deps.remotes?.snapshot() ?? { manifests: [] }]);
      return healthSchema.parse({
        status: dbOk ? 'ok' : 'degraded',
        version: API_VERSION,
        db: dbOk ? 'ok' : 'down',
        remotes: Object.fromEntries(snapshot.manifests.map((m) => [m.name, { version: m.version }])),
      });
    },
  };
}
