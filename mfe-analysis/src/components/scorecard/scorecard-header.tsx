import type { ReactNode } from 'react';
import { formatDate, type ScorecardData } from './normalize-result';
import { PrintPermalink } from './print-permalink';
import { SampleMark } from './sample-mark';

/** The spec's mock-data warning: shown when any evidence detail is simulated, with the distinct sources. */
export function MockDataWarning({ sources }: { sources: string[] }) {
  if (sources.length === 0) return null;
  return (
    <div role="note" aria-labelledby="mock-data-heading" className="mt-5 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 screen-dark:border-amber-700 screen-dark:bg-amber-950 screen-dark:text-amber-100">
      <p id="mock-data-heading" className="font-semibold">
        <span aria-hidden="true">⚠ </span>Mock Data Detected
      </p>
      <p className="mt-1 text-sm">This analysis contains simulated data from: {sources.join(', ')}</p>
      <p className="mt-1 text-sm">Real API integration is needed for accurate business insights</p>
    </div>
  );
}

export function ScorecardHeader({ data, actions }: { data: ScorecardData; actions?: ReactNode }) {
  return (
    <header className="rounded-2xl border border-border bg-surface p-5 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm font-semibold uppercase tracking-wider text-primary screen-dark:text-blue-300">
            Business Growth Scorecard
            {data.sample && <SampleMark className="normal-case tracking-normal">Sample data</SampleMark>}
          </p>
          <h2 className="mt-1 break-words text-2xl font-bold text-fg sm:text-3xl">{data.businessName}</h2>
          <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm text-muted-fg">
            <div className="flex gap-1">
              <dt className="font-medium">Type:</dt>
              <dd>{data.businessType}</dd>
            </div>
            <div className="flex gap-1">
              <dt className="font-medium">Location:</dt>
              <dd>{data.location}</dd>
            </div>
            <div className="flex gap-1">
              <dt className="font-medium">Analyzed:</dt>
              <dd>
                {data.analyzedAt ? <time dateTime={data.analyzedAt}>{formatDate(data.analyzedAt)}</time> : 'Unknown'}
              </dd>
            </div>
            {data.website && (
              <div className="flex min-w-0 gap-1">
                <dt className="font-medium">Website:</dt>
                <dd className="break-all">{data.website}</dd>
              </div>
            )}
          </dl>
          {data.cacheNote && <p className="mt-2 text-sm text-muted-fg">{data.cacheNote}</p>}
          <PrintPermalink id={data.id} />
        </div>
        {actions && <div className="flex flex-wrap gap-2 print:hidden">{actions}</div>}
      </div>
      <MockDataWarning sources={data.mockSources} />
    </header>
  );
}
