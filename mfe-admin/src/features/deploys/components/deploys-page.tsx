import { AdminPageHeader } from '../../../components/admin-page-header';
import { adminPages } from '../../../config/pages';
import { CanariesPanel } from './canaries-panel';
import { DeployLog } from './deploy-log';
import { DeployTokensPanel } from './deploy-tokens-panel';

/** /admin/deploys: the canaries running, the tokens teams deploy with, and the log of every deploy, rollback and refusal. */
export function DeploysPage() {
  return (
    <div className="space-y-6">
      <AdminPageHeader heading={adminPages.deploys.heading} lead="Who may deploy which app over HTTP, and what was deployed, rolled back or refused." />
      <CanariesPanel />
      <DeployTokensPanel />
      <DeployLog />
    </div>
  );
}
