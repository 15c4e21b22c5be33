import { AdminPageHeader } from '../../components/admin-page-header';
import { adminPages } from '../../config/pages';
import { RecentDeploysPanel } from '../../features/deploys/components/recent-deploys-panel';
import { FunnelPanel } from '../../features/funnel/components/funnel-panel';
import { LeadsInbox } from '../../features/leads/components/leads-inbox';
import { DockerPanel } from '../../features/monitoring/components/docker-panel';
import { HealthSummary } from '../../features/monitoring/components/health-summary';
import { TrafficPanel } from '../../features/monitoring/components/traffic-panel';
import { VulnerabilityPanel } from '../../features/monitoring/components/vulnerability-panel';
import { ReleaseErrorsPanel } from '../../features/release-errors/components/release-errors-panel';

/** /admin/dashboard: how the site is doing (health, errors per release, visitors, messages, traffic, recent deploys, containers, dependencies). */
export function DashboardScreen() {
  return (
    <div className="space-y-6">
      <AdminPageHeader heading={adminPages.dashboard.heading} lead="The site's health, visitors and messages at a glance." />
      <HealthSummary />
      <ReleaseErrorsPanel />
      <FunnelPanel />
      <LeadsInbox />
      <TrafficPanel />
      <RecentDeploysPanel />
      <div className="grid gap-6 xl:grid-cols-2">
        <DockerPanel />
        <VulnerabilityPanel />
      </div>
    </div>
  );
}
