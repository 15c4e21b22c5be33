import { Link } from 'react-router-dom';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { adminPages } from '../../../config/pages';
import { errorMessage } from '../../../lib/admin-request';
import { useRecentDeploysQuery } from '../api/get-deploy-log';
import { DeployLogEntry } from './deploy-log-entry';

const RECENT = 5;

/** The dashboard's last five deploys, rollbacks and refusals of any app, with the way to the whole log. */
export function RecentDeploysPanel() {
  const recent = useRecentDeploysQuery(RECENT);
  const data = recent.data;
  return (
    <Panel
      title="Recent deploys"
      actions={
        <Link to={adminPages.deploys.path} className="text-sm font-semibold text-primary underline-offset-2 hover:underline dark:text-blue-300">
          All deploys
        </Link>
      }
    >
      {!data ? (
        recent.error ? (
          <LoadFailed title="Could not load the recent deploys" message={errorMessage(recent.error, 'The server did not answer.')} onRetry={() => void recent.refetch()} />
        ) : (
          <LoadingRows label="Loading recent deploys…" rows={2} />
        )
      ) : data.entries.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-fg">No deploys yet.</p>
      ) : (
        <ol aria-label="Recent deploys, newest first" className="divide-y divide-border rounded-xl border border-border">
          {data.entries.map((entry) => (
            <li key={entry.id} className="p-3">
              <DeployLogEntry entry={entry} compact />
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
