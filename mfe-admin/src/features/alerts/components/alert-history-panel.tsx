import { useState } from 'react';
import { ALERT_TYPE_LABELS, type AlertSeverity } from '@site/contracts/admin';
import { ApiError, Button, notify } from '@site/ui';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { StatusPill, type Tone } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { useAcknowledgeAlertMutation } from '../api/acknowledge-alert';
import { useClearAlertHistoryMutation } from '../api/clear-alert-history';
import { useAlertHistoryQuery } from '../api/get-alert-history';

const SEVERITY_TONE: Record<AlertSeverity, Tone> = { critical: 'danger', high: 'danger', medium: 'warning', low: 'info' };

/**
 * The alert history, newest first, in a scrolling list: severity, what happened, when, whether it was emailed;
 * Acknowledge per alert and 'Clear history' (after a confirmation). Reloads every 30 seconds.
 */
export function AlertHistoryPanel() {
  const history = useAlertHistoryQuery();
  const acknowledge = useAcknowledgeAlertMutation();
  const clear = useClearAlertHistoryMutation();
  const [confirmClear, setConfirmClear] = useState(false);
  const acking = acknowledge.isPending ? acknowledge.variables : null;
  const reload = () => void history.refetch();

  const onAcknowledge = (id: string) =>
    acknowledge.mutate(id, {
      onError: (err) => {
        if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Failed to acknowledge the alert'));
      },
    });

  const onClear = () =>
    clear.mutate(undefined, {
      onSuccess: () => {
        setConfirmClear(false);
        notify.success('Alert history cleared');
      },
      onError: (err) => {
        setConfirmClear(false);
        if (!(err instanceof ApiError && err.status === 401)) notify.error('Failed to clear history');
      },
    });

  const data = history.data;
  return (
    <Panel
      title="Alert history"
      description={data ? `${data.total} ${data.total === 1 ? 'alert' : 'alerts'}, ${data.unacknowledged} not acknowledged.` : 'Alerts raised by the server.'}
      actions={
        <>
          <Button variant="secondary" size="sm" onClick={reload} disabled={history.isFetching} aria-busy={history.isFetching || undefined}>
            {history.isFetching && data ? 'Refreshing…' : 'Refresh'}
          </Button>
          <Button variant="danger" size="sm" onClick={() => setConfirmClear(true)} disabled={!data || data.total === 0}>
            Clear history
          </Button>
        </>
      }
    >
      {history.error && !data ? (
        <LoadFailed title="Could not load the alert history" message={errorMessage(history.error, 'The server did not answer.')} onRetry={reload} />
      ) : !data ? (
        <LoadingRows label="Loading the alert history…" rows={3} />
      ) : data.alerts.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-6 text-center text-sm text-muted-fg">No alerts. The server records one here when something needs attention.</p>
      ) : (
        <div role="region" aria-label="Alert history entries" tabIndex={0} className="max-h-[28rem] overflow-y-auto rounded-xl border border-border focus-visible:outline-2 focus-visible:outline-offset-2">
          <ul className="divide-y divide-border">
            {data.alerts.map((a) => (
              <li key={a.id} className={a.acknowledged ? 'bg-surface p-3 sm:p-4' : 'bg-surface-muted/60 p-3 sm:p-4'}>
                <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                  <div className="min-w-0 space-y-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <StatusPill tone={SEVERITY_TONE[a.severity]}>{a.severity}</StatusPill>
                      <span className="text-xs font-semibold text-muted-fg">{ALERT_TYPE_LABELS[a.type]}</span>
                      {a.emailSent && <span className="text-xs text-muted-fg">· emailed</span>}
                    </div>
                    <p className="break-words font-semibold text-fg">{a.title}</p>
                    <p className="break-words text-sm text-fg">{a.message}</p>
                    {a.detail && <p className="break-words font-mono text-xs text-muted-fg">{a.detail}</p>}
                    <p className="text-xs text-muted-fg">
                      <time dateTime={a.timestamp} title={formatDateTime(a.timestamp)}>
                        {formatRelative(a.timestamp)}
                      </time>
                      {a.acknowledged && a.acknowledgedAt && ` · acknowledged ${formatRelative(a.acknowledgedAt)}`}
                    </p>
                  </div>
                  {a.acknowledged ? (
                    <StatusPill tone="ok" className="self-start">
                      Acknowledged
                    </StatusPill>
                  ) : (
                    <Button size="sm" variant="secondary" className="self-start" onClick={() => onAcknowledge(a.id)} disabled={acking === a.id} aria-busy={acking === a.id || undefined}>
                      {acking === a.id ? 'Acknowledging…' : 'Acknowledge'}
                      {' '}<span className="sr-only">“{a.title}”</span>
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title="Clear history"
        description="Every alert in the history is deleted. New alerts are still recorded."
        confirmLabel="Clear history"
        busyLabel="Clearing…"
        busy={clear.isPending}
        onConfirm={onClear}
      />
    </Panel>
  );
}
