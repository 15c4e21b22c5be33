import type { AiAssessment } from '@site/contracts/analysis';

/*
 * The AI Readiness card shows the monthly savings of every task (the ROI calculator's total) above the top few
 * opportunities, each with its own figure: $2,879 above three that add to $2,122. The difference is real (the other
 * tasks of the estimate, listed in the full AI report), so the card says it in one line, with figures that add up
 * to what the reader sees: the listed ones' sum, and the rest as the total minus that sum.
 */

export interface SavingsSplit {
  /** The sum of the shown opportunities' monthly figures. */
  listed: number;
  listedCount: number;
  /** The total's remainder: what the tasks not shown add (the total minus `listed`). */
  rest: number;
  restCount: number;
}

type Task = { task: string; monthlySavings: number };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The tasks with their monthly figures, read defensively (a stored report may predate the breakdown). */
function tasksOf(ai: Partial<AiAssessment>): Task[] {
  const fromBreakdown = Array.isArray(ai.savingsBreakdown) ? ai.savingsBreakdown.map((b) => (isRecord(b) ? { task: b.task, monthlySavings: b.monthlySavings } : null)) : [];
  const fromDetails = Array.isArray(ai.detailedRecommendations) ? ai.detailedRecommendations.map((r) => (isRecord(r) ? { task: r.title, monthlySavings: r.monthlySavings } : null)) : [];
  const read = (list: Array<{ task: unknown; monthlySavings: unknown } | null>) =>
    list.filter((t): t is Task => typeof t?.task === 'string' && t.task !== '' && typeof t.monthlySavings === 'number' && Number.isFinite(t.monthlySavings));
  const breakdown = read(fromBreakdown);
  return breakdown.length ? breakdown : read(fromDetails);
}

/**
 * How the card's total splits between the opportunities it lists (`shown`, each written "Task: about $X/month …")
 * and the tasks it does not; null when there is nothing to explain (no total, an opportunity that names no known
 * task, or no other task with savings).
 */
export function savingsSplit(ai: Partial<AiAssessment> | null, shown: readonly string[]): SavingsSplit | null {
  if (!ai || typeof ai.totalPotentialSavings !== 'number' || !Number.isFinite(ai.totalPotentialSavings) || shown.length === 0) return null;
  const tasks = tasksOf(ai);
  const listedTasks = shown.map((text) => tasks.find((t) => text.startsWith(`${t.task}:`)));
  if (listedTasks.some((t) => t === undefined)) return null;
  const others = tasks.filter((t) => !listedTasks.includes(t) && Math.round(t.monthlySavings) > 0);
  // Whole dollars, as the card writes them, so the line adds up to the figures on the card.
  const listed = listedTasks.reduce((n, t) => n + Math.round(t!.monthlySavings), 0);
  const rest = Math.round(ai.totalPotentialSavings) - listed;
  if (others.length === 0 || rest <= 0) return null;
  return { listed, listedCount: shown.length, rest, restCount: others.length };
}
