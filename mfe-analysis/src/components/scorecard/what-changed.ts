import type { ScoreKey } from './normalize-result';

export interface Change {
  delta: number;
  /** '+4', '−2' (a real minus sign) or 'no change'. */
  text: string;
  /** For screen readers: 'up 4 points', 'down 2 points', 'no change'. */
  spoken: string;
}

/** The change of one score since the previous report, or null when that report has no such score. */
export function changeSince(previous: { scores: Partial<Record<ScoreKey, number>> } | null, key: ScoreKey, current: number): Change | null {
  const before = previous?.scores[key];
  if (typeof before !== 'number' || !Number.isFinite(before)) return null;
  const delta = Math.round(current - before);
  if (delta === 0) return { delta, text: 'no change', spoken: 'no change' };
  const points = `${Math.abs(delta)} point${Math.abs(delta) === 1 ? '' : 's'}`;
  return delta > 0 ? { delta, text: `+${delta}`, spoken: `up ${points}` } : { delta, text: `\u2212${-delta}`, spoken: `down ${points}` };
}
