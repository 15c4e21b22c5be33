import { SCORE_THRESHOLDS } from '@site/contracts/analysis-rules';

/*
 * Score colours (spec section 5): 80+ green, 60+ yellow, 40+ orange, below red, 'No Data' grey. The contract's
 * colour classes (text-yellow-600 on white is 2.9:1) are too light to read, so the scorecard picks shades that
 * keep 4.5:1 in light and dark themes. A sample score (simulated data) takes none of the grade colours: a green
 * 'Excellent' look would dress up made-up figures as the business's standing.
 */

export type Tone = 'green' | 'yellow' | 'orange' | 'red' | 'grey' | 'sample';

export function scoreTone(score: number, verified = true, sample = false): Tone {
  if (!verified) return 'grey';
  if (sample) return 'sample';
  if (score >= SCORE_THRESHOLDS.excellent) return 'green';
  if (score >= SCORE_THRESHOLDS.good) return 'yellow';
  if (score >= SCORE_THRESHOLDS.fair) return 'orange';
  return 'red';
}

/** Signal strength 0-10: 8+ green, 5+ yellow, below red. */
export function strengthTone(strength: number): Tone {
  if (strength >= 8) return 'green';
  if (strength >= 5) return 'yellow';
  return 'red';
}

export const TONE_TEXT: Record<Tone, string> = {
  green: 'text-green-700 screen-dark:text-green-400',
  yellow: 'text-yellow-700 screen-dark:text-yellow-300',
  orange: 'text-orange-700 screen-dark:text-orange-400',
  red: 'text-red-700 screen-dark:text-red-400',
  grey: 'text-slate-600 screen-dark:text-slate-400',
  sample: 'text-slate-700 screen-dark:text-slate-300',
};

export const TONE_BADGE: Record<Tone, string> = {
  green: 'bg-green-100 text-green-800 screen-dark:bg-green-950 screen-dark:text-green-300',
  yellow: 'bg-yellow-100 text-yellow-800 screen-dark:bg-yellow-950 screen-dark:text-yellow-200',
  orange: 'bg-orange-100 text-orange-800 screen-dark:bg-orange-950 screen-dark:text-orange-300',
  red: 'bg-red-100 text-red-800 screen-dark:bg-red-950 screen-dark:text-red-300',
  grey: 'bg-slate-100 text-slate-700 screen-dark:bg-slate-800 screen-dark:text-slate-300',
  sample: 'bg-amber-50 text-amber-900 ring-1 ring-inset ring-amber-400 screen-dark:bg-amber-950 screen-dark:text-amber-200 screen-dark:ring-amber-600',
};

export const TONE_BAR: Record<Tone, string> = {
  green: 'bg-green-600 screen-dark:bg-green-400',
  yellow: 'bg-yellow-500 screen-dark:bg-yellow-300',
  orange: 'bg-orange-500 screen-dark:bg-orange-400',
  red: 'bg-red-600 screen-dark:bg-red-400',
  grey: 'bg-slate-400',
  sample: 'bg-slate-400 screen-dark:bg-slate-500',
};
