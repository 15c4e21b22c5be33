import type { ScoreKey } from './normalize-result';

export interface Change {
  delta: number;
  /** '+4', '−2' (a real minus sign) or 'no change'. */
  text: string;
  /** For screen readers: 'up 4 points', 'down 2 points', 'no change'. */
  spoken: string;
}

/** The change of one score since the previous report, or null when either report has no real score for it. */
export function changeSince(previous: { scores: Partial<Record<ScoreKey, number | null>> } | null, key: ScoreKey, current: number | null): Change | null {
  // No number now (not measured, or a sample) or then (null): nothing real to compare.
  if (current === null) return null;
  const before = previous?.scores[key];
  if (typeof before !== 'number' || !Number.isFinite(before)) return null;
  const delta = Math.round(current - before);
  if (delta === 0) return { delta, text: 'no change', spoken: 'no change' };
  const points = `${Math.abs(delta)} point${Math.abs(delta) === 1 ? '' : 's'}`;
  return delta > 0 ? { delta, text: `+${delta}`, spoken: `up ${points}` } : { delta, text: `\u2212${-delta}`, spoken: `down ${points}` };
}

/** A score that can be compared with an earlier one: measured from real data (not a sample, not 'Not measured'). */
export const comparableScore = (s: { score: number; verified: boolean; sample: boolean }): number | null => (s.verified && !s.sample ? s.score : null);
