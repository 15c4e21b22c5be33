import { lazy, startTransition, Suspense, useState } from 'react';
import type { PlatformEvidence } from '@site/contracts/analysis';
import { cn } from '@site/ui';
import { TONE_BADGE } from './score-tone';

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
  Found: 'bg-green-100 text-green-800 screen-dark:bg-green-950 screen-dark:text-green-300',
  Error: 'bg-red-100 text-red-800 screen-dark:bg-red-950 screen-dark:text-red-300',
  'Not Found': 'bg-orange-100 text-orange-800 screen-dark:bg-orange-950 screen-dark:text-orange-300',
  Unknown: 'bg-slate-100 text-slate-700 screen-dark:bg-slate-800 screen-dark:text-slate-300',
};
const STATE_ICON: Record<PlatformState, string> = { Found: '✓', Error: '!', 'Not Found': '✕', Unknown: '?' };

/** The state; in sample data it says so and takes no found/not-found colour (a green tick would claim a real find). */
export function StateBadge({ state, sample: sampleData = false }: { state: PlatformState; sample?: boolean }) {
  // A failed or uncheckable lookup has no figure to mark: only a found / not found can be a sample.
  const sample = sampleData && (state === 'Found' || state === 'Not Found');
  return (
    <span className={cn('inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold', sample ? TONE_BADGE.sample : STATE_STYLE[state])}>
      <span aria-hidden="true">{sample ? '~' : STATE_ICON[state]}</span>
      {state}
      {sample && ' (sample data)'}
    </span>
  );
}

const PlatformPopover = lazy(() => import('./platform-popover'));
const preloadPopover = () => void import('./platform-popover');

const TRIGGER_CLASS = 'inline-flex items-center gap-2 rounded-md px-1.5 py-1 text-sm hover:bg-surface-muted focus-visible:outline-2';

/**
 * One platform with its state; its button opens the evidence popover on click, Enter or Space. The Radix popover
 * is loaded on first use (prefetched on hover or focus) and takes the button's place, opened.
 */
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
  const [activated, setActivated] = useState(false);
  const state = platformState(evidence);
  const sample = evidence?.isMockData === true;
  // Named by what it shows ('Found Evidence for Yelp'), so the visible words are part of the name.
  const face = (
    <>
      <StateBadge state={state} sample={sample} />{' '}
      <span className="text-primary underline underline-offset-2 screen-dark:text-blue-300 print:hidden">Evidence</span>{' '}
      <span className="sr-only">for {name}</span>
    </>
  );
  const plain = (
    <button
      type="button"
      data-print-keep=""
      className={TRIGGER_CLASS}
      aria-haspopup="dialog"
      aria-expanded={false}
      onPointerEnter={preloadPopover}
      onFocus={preloadPopover}
      onClick={() => {
        // In a transition: the press is answered at the next frame, and the popover (Radix, its positioning and
        // focus handling) mounts right after it instead of holding that frame (INP, e2e/scripts/inp.mjs).
        startTransition(() => setActivated(true));
        onOpen?.();
      }}
    >
      {face}
    </button>
  );
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border bg-bg px-3 py-2">
      <div className="min-w-0">
        <span className="text-sm font-semibold text-fg">{name}</span>
        <span className="ml-2 text-xs text-muted-fg">{priority === 'high' ? 'High priority' : 'Medium priority'}</span>
      </div>
      {activated ? (
        <Suspense fallback={plain}>
          <PlatformPopover name={name} state={state} evidence={evidence} face={face} triggerClassName={TRIGGER_CLASS} onOpen={onOpen} />
        </Suspense>
      ) : (
        plain
      )}
    </li>
  );
}
