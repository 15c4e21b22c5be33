import type { AppName, AppStatus } from '@site/contracts/deploys';
import { decidingErrors, rateOf } from '../release-errors/release-errors-service';
import type { CanaryWatch } from './canary-watch';
import type { DeployLog, Provenance } from './deploy-log';
import type { ReleaseDeployer } from './deployer-port';

/*
 * GET /api/releases/{app}/status (issue 52): what a team sees of its own app with its deploy token, without the admin:
 * the served and staged releases with where they came from, the canary with both releases' figures as the automatic
 * check counts them, and the app's last 20 deploy log entries with their reasons (what `promote --wait` follows).
 */

const STATUS_LOG_ENTRIES = 20;
const NONE: Provenance = { notes: null, commit: null, ciUrl: null };

export async function appStatus(app: AppName, services: { releases: Pick<ReleaseDeployer, 'list'>; canaries: Pick<CanaryWatch, 'status' | 'rules'>; deployLog: Pick<DeployLog, 'page' | 'provenance'> }): Promise<AppStatus> {
  const [listed, canaries, page] = await Promise.all([services.releases.list(app), services.canaries.status(), services.deployLog.page({ app, limit: STATUS_LOG_ENTRIES })]);
  const staged = listed.releases.filter((release) => release.staged);
  const provenance = await services.deployLog.provenance(app, [...(listed.served ? [listed.served.version] : []), ...staged.map((release) => release.version)]);
  const canary = canaries.find((running) => running.app === app);
  const minReporters = services.canaries.rules.minReporters ?? 1;
  return {
    app,
    served: listed.served ? { ...listed.served, ...(provenance.get(listed.served.version) ?? NONE) } : null,
    staged: staged.map((release) => ({ version: release.version, createdAt: release.createdAt, by: release.by, ...(provenance.get(release.version) ?? NONE) })),
    canary: canary
      ? {
          version: canary.version,
          current: canary.current,
          percent: canary.percent,
          startedAt: canary.startedAt,
          promoteAfter: canary.promoteAfter,
          pageViews: canary.canary.pageViews,
          errors: decidingErrors(canary.canary, minReporters),
          errorRate: rateOf(canary.canary, minReporters),
          servedPageViews: canary.served.pageViews,
          servedErrors: decidingErrors(canary.served, minReporters),
          servedErrorRate: rateOf(canary.served, minReporters),
        }
      : null,
    log: page.entries.map((entry) => ({
      action: entry.action,
      version: entry.version,
      previous: entry.previous,
      at: entry.at,
      result: entry.result,
      reason: entry.message,
      by: entry.by,
      notes: entry.notes ?? null,
      commit: entry.commit ?? null,
      ciUrl: entry.ciUrl ?? null,
    })),
  };
}
