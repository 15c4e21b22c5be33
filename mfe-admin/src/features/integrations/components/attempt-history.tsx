import { useState } from 'react';
import type { WebhookAttempt } from '@site/contracts/webhooks-out';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { StatusPill, type Tone } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatDateTime } from '../../../lib/format';
import { useWebhookAttemptsQuery } from '../api/list-webhook-attempts';

const OUTCOME: Record<WebhookAttempt['outcome'], { tone: Tone; label: string }> = {
  delivered: { tone: 'ok', label: 'Delivered' },
  retrying: { tone: 'warning', label: 'Failed, retried' },
  failed: { tone: 'danger', label: 'Failed' },
};

function Attempts({ endpointId, deliveryId, count }: { endpointId: string; deliveryId: string; count: number }) {
  const list = useWebhookAttemptsQuery(endpointId, deliveryId, count);
  if (list.error && !list.data) return <LoadFailed title="Could not load the attempts" message={errorMessage(list.error, 'The server did not answer.')} onRetry={() => void list.refetch()} />;
  if (!list.data) return <LoadingRows label="Loading attempts…" rows={1} />;
  if (list.data.attempts.length === 0) return <p className="text-muted-fg">Not tried yet.</p>;
  return (
    <ol className="space-y-1.5" aria-label="Attempts, oldest first">
      {list.data.attempts.map((a) => (
        <li key={a.attempt} className="space-y-1 rounded-lg bg-surface-muted p-2">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="font-medium text-fg">Attempt {a.attempt}</span>
            <time dateTime={a.at} className="text-muted-fg">
              {formatDateTime(a.at)}
            </time>
            <StatusPill tone={OUTCOME[a.outcome].tone}>{OUTCOME[a.outcome].label}</StatusPill>
            <span className="text-muted-fg">
              {a.responseStatus !== null ? `HTTP ${a.responseStatus}` : 'No answer'}
              {a.latencyMs !== null ? ` · ${a.latencyMs} ms` : ''}
            </span>
          </p>
          {a.responseExcerpt && <pre className="max-h-24 overflow-auto whitespace-pre-wrap break-all text-fg">{a.responseExcerpt}</pre>}
        </li>
      ))}
    </ol>
  );
}

/** A delivery's every attempt, loaded when the owner opens it. */
export function AttemptHistory({ endpointId, deliveryId, count }: { endpointId: string; deliveryId: string; count: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="text-xs" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer text-muted-fg">All attempts ({count})</summary>
      <div className="mt-1">{open && <Attempts endpointId={endpointId} deliveryId={deliveryId} count={count} />}</div>
    </details>
  );
}
