import { BUSINESS_TIME_ZONE, businessLocalToIso, publishAtProblem, SCHEDULE_MAX_AHEAD_MS, toBusinessLocalInput } from '@site/contracts/post-schedule';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the picker shows first: the post's current time when it has one, else tomorrow at 9:00 in the business's zone. */
export function initialScheduleInput(publishAt: string | null, now: Date): string {
  if (publishAt && new Date(publishAt).getTime() > now.getTime()) return toBusinessLocalInput(publishAt);
  return `${toBusinessLocalInput(new Date(now.getTime() + DAY_MS)).slice(0, 10)}T09:00`;
}

/** The picker's bounds (`min`/`max` of the datetime-local input), as wall-clock times in the business's zone. */
export function scheduleInputBounds(now: Date): { min: string; max: string } {
  return { min: toBusinessLocalInput(now), max: toBusinessLocalInput(new Date(now.getTime() + SCHEDULE_MAX_AHEAD_MS)) };
}

/** The contract's messages speak to API callers ('publishAt …'); the form speaks of its field. */
export function scheduleMessageForPeople(message: string): string {
  const text = message.replace(/^Validation failed: /, '');
  return text.replace(/^publishAt (must|is)/, 'The publishing time $1');
}

export const CHOOSE_A_TIME = 'Choose a date and a time.';

/**
 * The picker's value as the `publishAt` to send (ISO 8601 with the business zone's offset), or the problem to show
 * next to the field: the same rule the API applies (publishAtProblem), checked before sending.
 */
export function readScheduleInput(local: string, now: Date): { publishAt: string } | { problem: string } {
  if (!local) return { problem: CHOOSE_A_TIME };
  const publishAt = businessLocalToIso(local);
  if (!publishAt) return { problem: CHOOSE_A_TIME };
  const problem = publishAtProblem(publishAt, now);
  return problem ? { problem: scheduleMessageForPeople(problem) } : { publishAt };
}

/** Whether the browser's own zone is another one than the business's (then the picker also says the local time). */
export function browserZoneDiffers(): boolean {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone !== BUSINESS_TIME_ZONE;
  } catch {
    return false;
  }
}
