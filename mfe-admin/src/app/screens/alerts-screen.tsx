import { AdminPageHeader } from '../../components/admin-page-header';
import { adminPages } from '../../config/pages';
import { AlertHistoryPanel } from '../../features/alerts/components/alert-history-panel';
import { AlertSettingsPanel } from '../../features/alerts/components/alert-settings-panel';
import { HealthSummary } from '../../features/monitoring/components/health-summary';

/** /admin/alerts: what raises alerts, the thresholds, and the history. */
export function AlertsScreen() {
  return (
    <div className="space-y-6">
      <AdminPageHeader heading={adminPages.alerts.heading} lead="Choose which alerts are raised and mailed, and review what happened." />
      <AlertHistoryPanel />
      <AlertSettingsPanel />
      <HealthSummary />
    </div>
  );
}
