import { useId, useState } from 'react';
import type { EvidenceSignal } from '@site/contracts/analysis';
import { sampleSourceLabel } from '@site/contracts/analysis-rules';
import { ExternalLink, cn } from '@site/ui';
import { SampleMark } from './sample-mark';
import type { ScoreView } from './normalize-result';

/* Evidence per point: the signals behind a factor's score, each with points, value, source and a link. */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The signals of a factor; for reports stored before `signals` existed, read from the detail entries. */
export function signalsOf(score: ScoreView): EvidenceSignal[] {
  const ev = score.evidence;
  if (Array.isArray(ev?.signals)) return ev.signals;
  if (!isRecord(ev?.details)) return [];
  return Object.entries(ev.details).flatMap(([key, d]): EvidenceSignal[] => {
    if (!isRecord(d) || typeof d.label !== 'string' || typeof d.maxPoints !== 'number') return [];
    const status = d.status === 'verified' || d.status === 'simulated' ? d.status : 'unverified';
    return [
      {
        key,
        label: d.label,
        measures: typeof d.measures === 'string' ? d.measures : '',
        status,
        points: typeof d.points === 'number' ? d.points : 0,
        maxPoints: d.maxPoints,
        valueText: status === 'unverified' ? 'Not verified' : d.value === null || d.value === undefined ? 'No value' : String(d.value),
        source: typeof d.source === 'string' ? d.source : 'Source not recorded',
        verificationUrl: null,
        ...(d.isMockData === true ? { isMockData: true } : {}),
      },
    ];
  });
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return 'the source';
  }
}

function SignalRow({ s }: { s: EvidenceSignal }) {
  const counted = s.status !== 'unverified';
  const sample = s.isMockData === true || s.status === 'simulated';
  return (
    <li className="rounded-lg border border-border bg-bg p-3 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <span className="font-semibold text-fg">{s.label}</span>
        <span className="flex flex-wrap items-center gap-2 font-semibold tabular-nums text-fg">
          {counted ? `${fmt(s.points)} of ${fmt(s.maxPoints)} points` : `Not counted (worth ${fmt(s.maxPoints)} points)`}
          {sample && <SampleMark />}
        </span>
      </div>
      <dl className="mt-1.5 grid gap-x-3 gap-y-0.5 text-muted-fg sm:grid-cols-[7rem_1fr]">
        <dt className="font-medium">Measured</dt>
        <dd className="break-words text-fg">{s.valueText}</dd>
        <dt className="font-medium">Source</dt>
        <dd className={cn('break-words', sample && 'text-amber-800 screen-dark:text-amber-300')}>{sample ? sampleSourceLabel(s.source) : s.source}</dd>
        {s.measures && (
          <>
            <dt className="font-medium">How it counts</dt>
            <dd className="break-words">{s.measures}</dd>
          </>
        )}
        {s.verificationUrl && (
          <>
            <dt className="font-medium">Check it</dt>
            <dd className="min-w-0">
              <ExternalLink href={s.verificationUrl} className="break-all text-primary underline underline-offset-2 screen-dark:text-blue-300">
                Verify on {hostOf(s.verificationUrl)}
              </ExternalLink>
            </dd>
          </>
        )}
      </dl>
    </li>
  );
}

/** A button (aria-expanded) that shows the signals behind one factor's score. Printed expanded. */
export function EvidenceToggle({ title, score, onToggle }: { title: string; score: ScoreView; onToggle?: (open: boolean) => void }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const signals = signalsOf(score);
  if (signals.length === 0) return null;
  const earned = signals.filter((s) => s.status !== 'unverified');
  const total = (list: EvidenceSignal[], k: 'points' | 'maxPoints') => list.reduce((n, s) => n + s[k], 0);
  return (
    <div className="mt-4 border-t border-border pt-3">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => {
          setOpen(!open);
          onToggle?.(!open);
        }}
        className="flex w-full items-center justify-between gap-2 rounded-lg px-1 py-1 text-left text-sm font-semibold text-primary hover:underline screen-dark:text-blue-300 print:hidden"
      >
        <span>
          {open ? 'Hide' : 'Show'} the evidence behind this score ({signals.length} signals){' '}
          <span className="sr-only">for {title}</span>
        </span>
        <span aria-hidden="true" className={cn('transition-transform', open && 'rotate-180')}>
          ▾
        </span>
      </button>
      <div id={id} className={open ? undefined : 'hidden'} data-print-expand="">
        <p className="mt-2 text-sm text-muted-fg">
          {earned.length
            ? `${fmt(total(earned, 'points'))} of ${fmt(total(earned, 'maxPoints'))} counted points earned. Signals that could not be verified are left out of the score.`
            : 'None of these signals could be verified, so this factor was not measured.'}
          {earned.some((x) => x.status === 'simulated') && ' Points marked sample data come from simulated figures, not from your business.'}
        </p>
        <ul className="mt-2 space-y-2" aria-label={`Evidence behind the ${title} score`}>
          {signals.map((s) => (
            <SignalRow key={s.key} s={s} />
          ))}
        </ul>
      </div>
    </div>
  );
}
