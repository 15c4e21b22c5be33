import type { ReactNode } from 'react';
import * as Popover from '@radix-ui/react-popover';
import { sampleSourceLabel } from '@site/contracts/analysis-rules';
import type { PlatformEvidence } from '@site/contracts/analysis';
import { ExternalLink } from '@site/ui';
import { formatDate } from './normalize-result';
import { StateBadge, type PlatformState } from './platform-evidence';

/*
 * The Radix Popover of one platform's evidence, loaded on first use (Radix and floating-ui stay out of the
 * scorecard's first chunk). It mounts open, replacing the plain button that asked for it; Radix then keeps focus
 * handling: Escape or Close returns focus to the trigger.
 */

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : 'Unknown');

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-muted-fg">{label}</dt>
      <dd className="break-words text-fg">{children}</dd>
    </>
  );
}

export default function PlatformPopover({
  name,
  state,
  evidence,
  face,
  triggerClassName,
  onOpen,
}: {
  name: string;
  state: PlatformState;
  evidence: Partial<PlatformEvidence> | undefined;
  face: ReactNode;
  triggerClassName: string;
  onOpen?: () => void;
}) {
  const links = Array.isArray(evidence?.verificationLinks) ? evidence.verificationLinks : [];
  const extra = (evidence ?? {}) as Record<string, unknown>;
  const rating = typeof extra.rating === 'number' ? extra.rating : null;
  const reviews = typeof extra.reviewCount === 'number' ? extra.reviewCount : null;
  return (
    <Popover.Root defaultOpen onOpenChange={(open) => open && onOpen?.()}>
      <Popover.Trigger data-print-keep="" className={triggerClassName}>
        {face}
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
                <StateBadge state={state} sample={evidence?.isMockData === true} />
              </div>
            </div>
            <Popover.Close className="rounded-md border border-border px-2 py-1 text-xs font-semibold hover:bg-surface-muted">Close</Popover.Close>
          </div>
          {state === 'Unknown' && (
            <p className="mt-2 text-muted-fg">{name} cannot be checked automatically without an account, so we do not claim it either way. Use the links below to check it yourself.</p>
          )}
          {evidence?.error && <p className="mt-2 text-red-700 screen-dark:text-red-300">Error: {evidence.error}</p>}
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
                  <ExternalLink href={l.url} className="font-medium text-primary underline underline-offset-2 screen-dark:text-blue-300">
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
          {evidence?.isMockData && <p className="mt-3 text-xs text-amber-800 screen-dark:text-amber-300">{sampleSourceLabel(text(evidence.source))}</p>}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
