import { useEffect, useState } from 'react';
import { ListPager } from '../../../components/list-pager';
import { LEAD_FILTERS, type AdminLead, type LeadMailState } from '@site/contracts/admin';
import { ApiError, Button, buttonClasses, cn, notify } from '@site/ui';
import { controlClass } from '../../../components/form-field';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { StatusPill, type Tone } from '../../../components/status-pill';
import { errorMessage } from '../../../lib/admin-request';
import { formatCount, formatDateTime, formatRelative } from '../../../lib/format';
import { leadsExportUrl, useLeadsQuery } from '../api/list-leads';
import { useUpdateLeadMutation } from '../api/update-lead';

type LeadFilter = (typeof LEAD_FILTERS)[number];
const FILTER_LABELS: Record<LeadFilter, string> = { all: 'All messages', unread: 'Unread', read: 'Read', handled: 'Handled', open: 'Not handled' };
const MAIL: Record<LeadMailState, { tone: Tone; label: string }> = {
  sent: { tone: 'ok', label: 'Email sent' },
  pending: { tone: 'neutral', label: 'Email queued' },
  retrying: { tone: 'warning', label: 'Email retrying' },
  failed: { tone: 'danger', label: 'Email failed' },
  disabled: { tone: 'neutral', label: 'No email (SMTP off)' },
};
const PAGE_SIZE = 25;

function MailState({ lead }: { lead: AdminLead }) {
  const { tone, label } = MAIL[lead.mail.state];
  const detail =
    lead.mail.state === 'retrying'
      ? `${lead.mail.attempts} ${lead.mail.attempts === 1 ? 'attempt' : 'attempts'}${lead.mail.nextAttemptAt ? `, next ${formatRelative(lead.mail.nextAttemptAt)}` : ''}`
      : lead.mail.state === 'failed'
        ? `${lead.mail.attempts} attempts${lead.mail.lastError ? `: ${lead.mail.lastError}` : ''}`
        : lead.mail.state === 'sent' && lead.mail.sentAt
          ? formatRelative(lead.mail.sentAt)
          : null;
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      <StatusPill tone={tone}>{label}</StatusPill>
      {detail && <span className="break-words text-xs text-muted-fg">{detail}</span>}
    </span>
  );
}

/** Contact messages, newest first: read/unread and handled state, search, filter, CSV export, owner-email state. */
export function LeadsInbox() {
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [filter, setFilter] = useState<LeadFilter>('all');
  const [cursor, setCursor] = useState<string | undefined>();
  const leads = useLeadsQuery({ q: q || undefined, filter, cursor: q ? undefined : cursor, limit: PAGE_SIZE });
  const update = useUpdateLeadMutation();
  const busy = update.isPending ? update.variables.lead.id : null;

  useEffect(() => {
    // Only a changed search starts over at the newest page (the first run, on mount, must not undo a page change).
    if (search.trim() === q) return;
    const timer = window.setTimeout(() => {
      setQ(search.trim());
      setCursor(undefined);
    }, 300);
    return () => window.clearTimeout(timer);
  }, [search, q]);

  const change = (lead: AdminLead, patch: { read?: boolean; handled?: boolean }) =>
    update.mutate(
      { lead, patch },
      {
        onError: (err) => {
          if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Could not update the message. Please try again.'));
        },
      },
    );

  const data = leads.data;
  // A page emptied by changes meanwhile (its messages moved out of the filter): back to the newest page, nothing lost.
  // (State adjusted while rendering, React's way for state derived from an answer.)
  if (cursor && data && !leads.isPlaceholderData && data.leads.length === 0) setCursor(undefined);
  const messages = (n: number) => `${n} ${n === 1 ? 'message' : 'messages'}`;
  return (
    <Panel
      title="Contact messages"
      description={
        data
          ? `${messages(data.counts.all)} · ${data.unread} unread${q ? ` · ${formatCount(data.total, data.totalIsLowerBound)} matching` : filter === 'all' || filter === 'unread' ? '' : ` · ${data.total} ${FILTER_LABELS[filter].toLowerCase()}`}`
          : 'Messages sent through the contact form.'
      }
      actions={
        <a href={leadsExportUrl({ q: q || undefined, filter })} download className={buttonClasses('secondary', 'sm')}>
          Export CSV
        </a>
      }
    >
      <form role="search" className="mb-4 grid gap-3 sm:grid-cols-[1fr_12rem]" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label htmlFor="lead-search" className="text-sm font-semibold text-fg">
            Search messages
          </label>
          <input
            id="lead-search"
            type="search"
            className={controlClass}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name, email, company, subject or text"
          />
        </div>
        <div>
          <label htmlFor="lead-filter" className="text-sm font-semibold text-fg">
            Show
          </label>
          <select
            id="lead-filter"
            className={controlClass}
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value as LeadFilter);
              setCursor(undefined);
            }}
          >
            {LEAD_FILTERS.map((f) => (
              <option key={f} value={f}>
                {FILTER_LABELS[f]}
                {data ? ` (${data.counts[f]})` : ''}
              </option>
            ))}
          </select>
        </div>
      </form>

      {leads.error && !data ? (
        <LoadFailed title="Could not load the messages" message={errorMessage(leads.error, 'The server did not answer.')} onRetry={() => void leads.refetch()} />
      ) : !data ? (
        <LoadingRows label="Loading messages…" rows={3} />
      ) : data.leads.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border p-6 text-center text-sm text-muted-fg">
          {q || filter !== 'all' ? 'No messages match.' : 'No messages yet. Contact-form messages appear here.'}
        </p>
      ) : (
        <>
          <ul className="divide-y divide-border rounded-xl border border-border" aria-busy={leads.isFetching || undefined}>
            {data.leads.map((lead) => (
              <li key={lead.id} className={cn('p-3 sm:p-4', !lead.read && 'bg-primary-soft/40')}>
                <article aria-label={`Message from ${lead.name}`} className="space-y-2">
                  <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between">
                    <div className="min-w-0">
                      <h3 className="flex flex-wrap items-center gap-2 font-semibold text-fg">
                        {!lead.read && <span className="h-2 w-2 rounded-full bg-primary dark:bg-blue-300" aria-hidden="true" />}
                        <span className="break-words">{lead.subject || '(no subject)'}</span>
                      </h3>
                      <p className="break-words text-sm text-muted-fg">
                        <span className="font-semibold text-fg">{lead.name}</span> ·{' '}
                        {/* Underlined: in a line of text a link told apart by colour alone fails axe's link-in-text-block. */}
                        <a className="font-medium text-primary underline underline-offset-2 hover:decoration-2 dark:text-blue-300" href={`mailto:${lead.email}`}>
                          {lead.email}
                        </a>
                        {lead.company && ` · ${lead.company}`}
                      </p>
                    </div>
                    <time className="shrink-0 text-xs text-muted-fg" dateTime={lead.createdAt} title={formatDateTime(lead.createdAt)}>
                      {formatRelative(lead.createdAt)}
                    </time>
                  </div>
                  <p className="whitespace-pre-wrap break-words text-sm text-fg">{lead.message}</p>
                  <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
                    <div className="flex flex-wrap items-center gap-1.5">
                      <StatusPill tone={lead.read ? 'neutral' : 'info'}>{lead.read ? 'Read' : 'Unread'}</StatusPill>
                      <StatusPill tone={lead.handled ? 'ok' : 'warning'}>{lead.handled ? 'Handled' : 'Not handled'}</StatusPill>
                      <MailState lead={lead} />
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <Button size="sm" variant="secondary" disabled={busy === lead.id} onClick={() => change(lead, { read: !lead.read })}>
                        {lead.read ? 'Mark as unread' : 'Mark as read'}
                        {' '}<span className="sr-only">(message from {lead.name})</span>
                      </Button>
                      <Button size="sm" variant={lead.handled ? 'secondary' : 'primary'} disabled={busy === lead.id} onClick={() => change(lead, lead.handled ? { handled: false } : { handled: true, read: true })}>
                        {lead.handled ? 'Reopen' : 'Mark handled'}
                        {' '}<span className="sr-only">(message from {lead.name})</span>
                      </Button>
                    </div>
                  </div>
                </article>
              </li>
            ))}
          </ul>
          {q && data.total > data.leads.length && (
            <p className="mt-3 text-sm text-muted-fg">
              The best {data.leads.length} of {formatCount(data.total, data.totalIsLowerBound)} matching messages. Add words to narrow the search.
            </p>
          )}
          <ListPager label="Pages of messages" newer={data.prevCursor} older={data.nextCursor} loading={leads.isPlaceholderData && leads.isFetching} onPage={setCursor} />
        </>
      )}
    </Panel>
  );
}
