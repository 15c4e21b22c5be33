import { useState } from 'react';
import { TRAFFIC_CLASSES, type TrafficClass } from '@site/contracts/admin';
import { Button } from '@site/ui';
import { controlClass } from '../../../components/form-field';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { StatusPill, type Tone } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatNumber, formatRelative } from '../../../lib/format';
import { useTrafficQuery } from '../api/get-traffic';

const TONE: Record<TrafficClass, Tone> = { suspicious: 'danger', legitimate: 'ok', normal: 'neutral' };
const LABEL: Record<TrafficClass, string> = { suspicious: 'Suspicious', legitimate: 'Legitimate', normal: 'Normal' };
const SHOWN = 3;

/** Recent requests per client address, classified; the first 3 of the filtered entries, then '+N more'. */
export function TrafficPanel() {
  const traffic = useTrafficQuery();
  const reload = () => void traffic.refetch();
  const [filter, setFilter] = useState<TrafficClass | 'all'>('all');
  const [expanded, setExpanded] = useState(false);
  const data = traffic.data;
  const entries = data ? data.entries.filter((e) => filter === 'all' || e.classification === filter) : [];
  const visible = expanded ? entries : entries.slice(0, SHOWN);
  const more = entries.length - SHOWN;

  return (
    <Panel
      title="Traffic"
      description={
        data
          ? `${formatNumber(data.totals.requests)} requests from ${data.totals.addresses} ${data.totals.addresses === 1 ? 'address' : 'addresses'} in the last ${data.windowMinutes} minutes; ${data.totals.suspicious} suspicious. Private, local and container addresses count as legitimate.`
          : 'Recent requests by client address.'
      }
      actions={
        <Button size="sm" variant="secondary" onClick={reload} disabled={traffic.isFetching} aria-busy={traffic.isFetching || undefined}>
          {traffic.isFetching && data ? 'Refreshing…' : 'Refresh'}
        </Button>
      }
    >
      {traffic.error && !data ? (
        <LoadFailed title="Could not load the traffic" message={errorMessage(traffic.error, 'The server did not answer.')} onRetry={reload} />
      ) : !data ? (
        <LoadingRows label="Loading traffic…" rows={3} />
      ) : (
        <>
          <div className="mb-3 max-w-xs">
            <label htmlFor="traffic-filter" className="text-sm font-semibold text-fg">
              Show
            </label>
            <select
              id="traffic-filter"
              className={controlClass}
              value={filter}
              onChange={(e) => {
                setFilter(e.target.value as TrafficClass | 'all');
                setExpanded(false);
              }}
            >
              <option value="all">All addresses ({data.entries.length})</option>
              {TRAFFIC_CLASSES.map((c) => (
                <option key={c} value={c}>
                  {LABEL[c]} ({data.entries.filter((e) => e.classification === c).length})
                </option>
              ))}
            </select>
          </div>
          {entries.length === 0 ? (
            <p className="rounded-xl border border-dashed border-border p-4 text-sm text-muted-fg">No requests in this group yet.</p>
          ) : (
            <ul id="traffic-entries" className="divide-y divide-border rounded-xl border border-border">
              {visible.map((e) => (
                <li key={e.address} className="flex flex-col gap-1 p-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="break-all font-mono text-sm font-semibold text-fg">{e.address}</p>
                    <p className="text-xs text-muted-fg">
                      {e.reason} · last seen {formatRelative(e.lastSeen)}
                    </p>
                  </div>
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-fg">
                    <span>
                      <span className="font-semibold text-fg">{formatNumber(e.requests)}</span> requests
                    </span>
                    <span>{e.clientErrors} 4xx</span>
                    <span>{e.serverErrors} 5xx</span>
                    <span>{e.rateLimited} rate-limited</span>
                    <StatusPill tone={TONE[e.classification]}>{LABEL[e.classification]}</StatusPill>
                  </div>
                </li>
              ))}
            </ul>
          )}
          {more > 0 && (
            <Button variant="ghost" size="sm" className="mt-2" aria-expanded={expanded} aria-controls="traffic-entries" onClick={() => setExpanded((x) => !x)}>
              {expanded ? 'Show fewer' : `+${more} more`}
            </Button>
          )}
        </>
      )}
    </Panel>
  );
}
