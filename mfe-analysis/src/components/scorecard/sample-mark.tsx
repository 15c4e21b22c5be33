import type { ReactNode } from 'react';
import { cn } from '@site/ui';
import { TONE_BADGE } from './score-tone';

/** The marker every figure built from simulated data carries, wherever it is shown (screen and print). */
export function SampleMark({ children = 'Sample data', className }: { children?: ReactNode; className?: string }) {
  return <span className={cn('inline-flex shrink-0 items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold', TONE_BADGE.sample, className)}>{children}</span>;
}
