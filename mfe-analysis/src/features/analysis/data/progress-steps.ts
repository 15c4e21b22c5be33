/** The seven steps of the progress panel (spec section 4), in order. */
export const PROGRESS_STEPS = [
  'Google Business Profile',
  'Business listings',
  'Local keyword demand',
  'Competitor landscape',
  'Website content',
  'Website performance',
  'Scorecard generation',
] as const;

/** Steps 0..5 advance on this timer; the answer sets the last one (spec section 9). */
export const PROGRESS_STEP_MS = 500;
/** The last step the timer reaches by itself; the answer moves to PROGRESS_STEPS.length - 1. */
export const PROGRESS_TIMER_LAST_STEP = 5;
/**
 * The spec's stated duration is 2-3 minutes; the tool answers in 1-2 s (a slow website a few more, and its fetch and
 * provider time limits keep it under 30 s), so the panel states that instead.
 */
export const STATED_DURATION = 'a few seconds';

/** Progress percent: current step over 7, rounded. */
export const progressPercent = (step: number) => Math.round((step / PROGRESS_STEPS.length) * 100);
