import { useEffect, useId, useRef, useState } from 'react';
import { APP_NAMES, type AppName } from '@site/contracts/deploys';
import { Button } from '@site/ui';
import { controlClass } from '../../../components/form-field';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { errorMessage } from '../../../lib/admin-request';
import { useCanariesQuery } from '../api/get-canaries';
import { useDeployLogQuery } from '../api/get-deploy-log';
import { DeployLogEntry } from './deploy-log-entry';

/**
 * The deploy log, newest first, of every app or one. "Load more" keeps the keyboard focus while it waits (never
 * disabled under it); then the focus moves to the first entry loaded and a status line says how many came.
 */
export function DeployLog() {
  const [app, setApp] = useState<AppName | null>(null);
  const log = useDeployLogQuery(app);
  // A staged release that is a canary's is served to a share of visitors, not to no one.
  const canaries = useCanariesQuery().data?.canaries ?? [];
  const shareOf = (entry: { app: string; version: string | null }) => canaries.find((c) => c.app === entry.app && c.version === entry.version)?.percent;
  const filterId = useId();
  const list = useRef<HTMLOListElement>(null);
  const focusFrom = useRef<number | null>(null);
  const [loaded, setLoaded] = useState('');
  const data = log.data;
  const entries = data?.pages.flatMap((page) => page.entries) ?? [];

  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || entries.length <= from) return;
    focusFrom.current = null;
    const first = list.current?.children.item(from);
    if (first instanceof HTMLElement) first.focus();
  }, [entries.length]);

  async function loadMore() {
    if (log.isFetchingNextPage) return;
    focusFrom.current = entries.length;
    setLoaded('');
    const answer = await log.fetchNextPage();
    const count = answer.data?.pages.at(-1)?.entries.length ?? 0;
    if (answer.isError || count === 0) focusFrom.current = null;
    if (!answer.isError) setLoaded(`${count} more ${count === 1 ? 'entry' : 'entries'} loaded${answer.hasNextPage ? '' : '; that is the whole log'}.`);
  }

  return (
    <Panel title="Deploy log" description="Every deploy, staged upload, promotion, canary, rollback and refusal, newest first, recorded as it happens.">
      <div className="mb-4 max-w-xs">
        <label htmlFor={filterId} className="text-sm font-semibold text-fg">
          App
        </label>
        <select
          id={filterId}
          className={controlClass}
          value={app ?? ''}
          onChange={(e) => {
            setApp((e.target.value || null) as AppName | null);
            setLoaded('');
          }}
        >
          <option value="">All apps</option>
          {APP_NAMES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      {!data ? (
        log.error ? (
          <LoadFailed title="Could not load the deploy log" message={errorMessage(log.error, 'The server did not answer.')} onRetry={() => void log.refetch()} />
        ) : (
          <LoadingRows label="Loading the deploy log…" rows={3} />
        )
      ) : entries.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-6 text-center text-sm text-muted-fg">
          {app ? `No deploys of ${app} yet.` : 'No deploys yet. Each deploy, rollback and refusal shows here as it happens.'}
        </p>
      ) : (
        <>
          <ol ref={list} aria-label="Deploys, newest first" className="divide-y divide-border rounded-xl border border-border">
            {entries.map((entry) => (
              <li key={entry.id} tabIndex={-1} className="p-3 focus-visible:outline-2 focus-visible:-outline-offset-2 sm:p-4">
                <DeployLogEntry entry={entry} canaryShare={entry.action === 'stage' ? shareOf(entry) : undefined} />
              </li>
            ))}
          </ol>
          <div className="mt-4 flex flex-col items-center gap-2 text-sm">
            {log.hasNextPage && (
              <Button variant="secondary" onClick={() => void loadMore()} aria-disabled={log.isFetchingNextPage || undefined} aria-busy={log.isFetchingNextPage || undefined}>
                {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </Button>
            )}
            {log.isFetchNextPageError && (
              <p role="alert" className="font-medium text-danger">
                Could not load more entries. {errorMessage(log.error, 'The server did not answer.')}
              </p>
            )}
          </div>
        </>
      )}
      <p role="status" className="mt-2 text-center text-sm text-muted-fg">
        {loaded}
      </p>
    </Panel>
  );
}
