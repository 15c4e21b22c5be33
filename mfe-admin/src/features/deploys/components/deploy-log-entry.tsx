import type { DeployLogEntry as Entry } from '@site/contracts/deploys';
import { cn } from '@site/ui';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { ACTION_LABEL, DeployResultBadge } from './deploy-result-badge';

const edge: Record<Entry['result'], string> = {
  ok: 'border-l-transparent',
  refused: 'border-l-amber-500 dark:border-l-amber-300',
  failed: 'border-l-red-600 dark:border-l-red-400',
};

/** What an entry is about, in one line a screen reader reads first. */
export const entrySummary = (e: Entry) => `${ACTION_LABEL[e.action]} of ${e.app}${e.version ? ` ${e.version}` : ''}`;

/**
 * One line of the deploy log: result, action, app and version, when, what it replaced, who and from where, and the
 * full reason of a refusal or failure (or what a canary serves, why it ended), where the release came from (its upload's
 * commit, CI run and notes), and a staged release's preview link while
 * it is staged (`canaryShare`: it is a canary's, served to that share of visitors). A refused or failed entry has a
 * coloured edge besides its badge's words.
 * `compact` (the dashboard) keeps the first line, who and the reason.
 */
export function DeployLogEntry({ entry, compact = false, canaryShare }: { entry: Entry; compact?: boolean; canaryShare?: number }) {
  return (
    <article aria-label={`${entrySummary(entry)}: ${entry.result}`} className={cn('min-w-0 border-l-4 pl-3', edge[entry.result])}>
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <DeployResultBadge result={entry.result} />
          <span className="font-semibold text-fg">{ACTION_LABEL[entry.action]}</span>
          <code className="rounded bg-surface-muted px-1.5 py-0.5 text-xs text-fg">{entry.app}</code>
          <span className="break-all font-mono text-xs text-fg">{entry.version ?? 'no version named'}</span>
        </p>
        <time dateTime={entry.at} title={formatDateTime(entry.at)} className="shrink-0 text-xs text-muted-fg">
          {compact ? formatRelative(entry.at) : formatDateTime(entry.at)}
        </time>
      </div>
      {compact ? (
        <p className="mt-1 break-words text-xs text-muted-fg">by {entry.by}</p>
      ) : (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs sm:grid-cols-[auto_1fr_auto_1fr_auto_1fr]">
          <dt className="text-muted-fg">Previous</dt>
          <dd className="min-w-0 break-all font-mono text-fg">{entry.previous ?? '—'}</dd>
          <dt className="text-muted-fg">By</dt>
          <dd className="min-w-0 break-words text-fg">{entry.by}</dd>
          <dt className="text-muted-fg">From</dt>
          <dd className="min-w-0 break-all font-mono text-fg">{entry.from ?? '—'}</dd>
        </dl>
      )}
      {!compact && (entry.commit || entry.ciUrl || entry.notes) && (
        // Where the release came from, as its upload named it (a promotion or rollback of it carries the same).
        <p className="mt-2 flex flex-wrap items-baseline gap-x-3 gap-y-1 text-xs text-fg">
          {entry.commit && (
            <span>
              <span className="text-muted-fg">Commit </span>
              <code className="font-mono">{entry.commit}</code>
            </span>
          )}
          {entry.ciUrl && (
            // An http(s) URL (the server checks it); the pipeline's page, not this site.
            <a href={entry.ciUrl} target="_blank" rel="noopener noreferrer" className="font-semibold underline underline-offset-2">
              CI run<span className="sr-only"> of {entry.version ?? entry.app} (opens in a new tab)</span>
            </a>
          )}
          {entry.notes && <q className="min-w-0 break-words">{entry.notes}</q>}
        </p>
      )}
      {entry.previewUrl && (
        <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-fg">
          <span className="text-muted-fg">{canaryShare === undefined ? 'Served to no one yet.' : `Served to ${canaryShare}% of visitors as a canary.`}</span>
          {/* A plain link: opening it sets this browser's preview cookie, then shows the site with this release. */}
          <a href={entry.previewUrl} target="_blank" rel="noopener" className="font-semibold text-fg underline underline-offset-2">
            Preview {entry.app} {entry.version}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </p>
      )}
      {entry.message && (
        <p
          className={cn(
            'mt-2 whitespace-pre-wrap break-words rounded-lg p-2 text-xs text-fg',
            // A failure, a refusal or a canary rolled back stands out; what a canary serves is information.
            entry.result === 'failed' ? 'bg-danger-soft' : entry.result === 'refused' || entry.action === 'canary_rollback' ? 'bg-warning-soft' : 'bg-surface-muted',
            compact && 'line-clamp-2',
          )}
        >
          {entry.message}
        </p>
      )}
    </article>
  );
}
