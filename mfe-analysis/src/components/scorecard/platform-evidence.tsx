import type { ReactNode } from 'react';
import * as Popover from '@radix-ui/react-popover';
import type { PlatformEvidence } from '@site/contracts/analysis';
import { ExternalLink, cn } from '@site/ui';
import { formatDate } from './normalize-result';

/* Platform evidence for the Visibility card: one button per platform opens its evidence (Radix Popover). */

export const PLATFORM_ORDER: Array<{ key: string; name: string; priority: 'high' | 'medium' }> = [
  { key: 'yelp', name: 'Yelp', priority: 'high' },
  { key: 'googleBusinessProfile', name: 'Google Business Profile', priority: 'high' },
  { key: 'facebook', name: 'Facebook Business', priority: 'medium' },
  { key: 'instagram', name: 'Instagram', priority: 'medium' },
  { key: 'linkedin', name: 'LinkedIn', priority: 'medium' },
];

export type PlatformState = 'Found' | 'Error' | 'Not Found' | 'Unknown';

/** Found, Error (the check failed), Not Found, or Unknown (not checkable automatically: links only). */
export function platformState(ev: Partial<PlatformEvidence> | undefined): PlatformState {
  if (!ev) return 'Unknown';
  if (ev.error || ev.status === 'error') return 'Error';
  if (ev.status === 'unknown' || ev.found === null || ev.found === undefined) return ev.status === 'found' ? 'Found' : ev.status === 'not_found' ? 'Not Found' : 'Unknown';
  return ev.found ? 'Found' : 'Not Found';
}

const STATE_STYLE: Record<PlatformState, string> = {
  Found: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300',
  Error: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  'Not Found': 'bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-300',
  Unknown: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
};
const STATE_ICON: Record<PlatformState, string> = { Found: '✓', Error: '!', 'Not Found': '✕', Unknown: '?' };

export function StateBadge({ state }: { state: PlatformState }) {
  return (
    <span className={cn('inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold', STATE_STYLE[state])}>
      <span aria-hidden="true">{STATE_ICON[state]}</span>
      {state}
    </span>
  );
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : 'Unknown');

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-muted-fg">{label}</dt>
      <dd className="break-words text-fg">{children}</dd>
    </>
  );
}

/** One platform's button and its evidence popover: opens on click, Enter or Space; Escape or Close shuts it. */
export function PlatformEvidenceItem({
  name,
  priority,
  evidence,
  onOpen,
}: {
  name: string;
  priority: 'high' | 'medium';
  evidence: Partial<PlatformEvidence> | undefined;
  onOpen?: () => void;
}) {
  const state = platformState(evidence);
  const links = Array.isArray(evidence?.verificationLinks) ? evidence.verificationLinks : [];
  const extra = (evidence ?? {}) as Record<string, unknown>;
  const rating = typeof extra.rating === 'number' ? extra.rating : null;
  const reviews = typeof extra.reviewCount === 'number' ? extra.reviewCount : null;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border bg-bg px-3 py-2">
      <div className="min-w-0">
        <span className="text-sm font-semibold text-fg">{name}</span>
        <span className="ml-2 text-xs text-muted-fg">{priority === 'high' ? 'High priority' : 'Medium priority'}</span>
      </div>
      <Popover.Root onOpenChange={(open) => open && onOpen?.()}>
        <Popover.Trigger
          data-print-keep=""
          className="inline-flex items-center gap-2 rounded-md px-1.5 py-1 text-sm hover:bg-surface-muted focus-visible:outline-2"
          aria-label={`${name}: ${state}. Show evidence`}
        >
          <StateBadge state={state} />
          <span className="text-primary underline underline-offset-2 dark:text-blue-300 print:hidden" aria-hidden="true">
            Evidence
          </span>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content
            side="bottom"
            align="end"
            collisionPadding={16}
            sideOffset={6}
            aria-label={`${name} evidence`}
            className="z-50 w-[min(24rem,calc(100vw-2rem))] rounded-xl border border-border bg-surface p-4 text-sm text-fg shadow-xl"
          >
            <div className="flex items-start justify-between gap-3">
              <div>
                <p className="font-bold">{name}</p>
                <div className="mt-1">
                  <StateBadge state={state} />
                </div>
              </div>
              <Popover.Close className="rounded-md border border-border px-2 py-1 text-xs font-semibold hover:bg-surface-muted">Close</Popover.Close>
            </div>
            {state === 'Unknown' && (
              <p className="mt-2 text-muted-fg">{name} cannot be checked automatically without an account, so we do not claim it either way. Use the links below to check it yourself.</p>
            )}
            {evidence?.error && <p className="mt-2 text-red-700 dark:text-red-300">Error: {evidence.error}</p>}
            <dl className="mt-3 grid grid-cols-[7.5rem_1fr] gap-x-2 gap-y-1">
              <Row label="Search term">{text(evidence?.searchTerm)}</Row>
              <Row label="Data source">{text(evidence?.dataSource)}</Row>
              <Row label="API endpoint">{text(evidence?.apiEndpoint)}</Row>
              <Row label="Last checked">{formatDate(evidence?.lastChecked, true)}</Row>
              {rating !== null && <Row label="Rating">{`${rating.toFixed(1)} stars${reviews !== null ? `, ${reviews} reviews` : ''}`}</Row>}
            </dl>
            <p className="mt-3 font-semibold">Verification links</p>
            {links.length === 0 ? (
              <p className="mt-1 text-muted-fg">No verification links available</p>
            ) : (
              <ul className="mt-1 space-y-1.5">
                {links.map((l) => (
                  <li key={l.url}>
                    <ExternalLink href={l.url} className="font-medium text-primary underline underline-offset-2 dark:text-blue-300">
                      {l.title}
                    </ExternalLink>
                    <span className="block text-xs text-muted-fg">
                      {l.domain}
                      {l.description ? ` · ${l.description}` : ''}
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {evidence?.isMockData && <p className="mt-3 text-xs text-amber-800 dark:text-amber-300">{text(evidence.source)}</p>}
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </li>
  );
}
