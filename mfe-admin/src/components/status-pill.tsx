import type { ReactNode } from 'react';
import { cn } from '@site/ui';

export type Tone = 'ok' | 'warning' | 'danger' | 'info' | 'neutral';

const tones: Record<Tone, string> = {
  ok: 'bg-accent-soft text-emerald-900 dark:text-emerald-200',
  warning: 'bg-warning-soft text-amber-900 dark:text-amber-200',
  danger: 'bg-danger-soft text-red-900 dark:text-red-200',
  info: 'bg-primary-soft text-primary-soft-fg',
  neutral: 'bg-surface-muted text-fg',
};
const dots: Record<Tone, string> = {
  ok: 'bg-emerald-600 dark:bg-emerald-400',
  warning: 'bg-amber-500 dark:bg-amber-300',
  danger: 'bg-red-600 dark:bg-red-400',
  info: 'bg-blue-600 dark:bg-blue-300',
  neutral: 'bg-slate-500 dark:bg-slate-400',
};

/** A small coloured label; the colour repeats what the text says, never replaces it. */
export function StatusPill({ tone, children, className }: { tone: Tone; children: ReactNode; className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold', tones[tone], className)}>
      <span aria-hidden="true" className={cn('h-1.5 w-1.5 rounded-full', dots[tone])} />
      {children}
    </span>
  );
}
