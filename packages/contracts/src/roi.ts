/**
 * The ROI calculator's inputs, defaults and formulas (spec sections 3, 5 and 9), as pure data and one pure
 * function, shared by the calculator and its tests.
 */

export const ROI_TASK_KEYS = [
  'customerService',
  'appointmentScheduling',
  'invoicingAndBilling',
  'dataEntryAndReporting',
  'followUpsAndReminders',
] as const;
export type RoiTaskKey = (typeof ROI_TASK_KEYS)[number];

/** Every input, in the spec's order. */
export const ROI_INPUT_KEYS = [...ROI_TASK_KEYS, 'costPerHour', 'staffCount', 'monthlyRevenue', 'automationEfficiency'] as const;
export type RoiInputKey = (typeof ROI_INPUT_KEYS)[number];
export type RoiInputs = Record<RoiInputKey, number>;

export const ROI_DEFAULTS: RoiInputs = {
  customerService: 15,
  appointmentScheduling: 8,
  invoicingAndBilling: 10,
  dataEntryAndReporting: 12,
  followUpsAndReminders: 6,
  costPerHour: 25,
  staffCount: 5,
  monthlyRevenue: 50000,
  automationEfficiency: 70,
};

/**
 * The largest value each input takes (beyond the spec: a typo such as 4000 hours a week would otherwise
 * produce absurd savings). Task hours follow the spec's 0-40 sliders, efficiency its 0-100 slider.
 */
export const ROI_LIMITS: RoiInputs = {
  customerService: 40,
  appointmentScheduling: 40,
  invoicingAndBilling: 40,
  dataEntryAndReporting: 40,
  followUpsAndReminders: 40,
  costPerHour: 500,
  staffCount: 500,
  monthlyRevenue: 10_000_000,
  automationEfficiency: 100,
};

/** An input as the formulas use it: a number (0 when not numeric) no larger than its limit. */
export function clampRoiInput(key: RoiInputKey, value: unknown): number {
  return Math.min(toRoiNumber(value), ROI_LIMITS[key]);
}

/** Weeks per month used by the formulas. */
export const WEEKS_PER_MONTH = 4.33;

export type RoiResult = {
  totalHoursPerWeek: number;
  totalHoursPerMonth: number;
  totalCostPerMonth: number;
  /** Monthly savings. */
  automationSavings: number;
  annualSavings: number;
  roiPercentage: number;
  paybackPeriod: number;
  /** Hours a month the automation takes off the team (beyond the spec's outputs, for the results panel). */
  hoursSavedPerMonth: number;
  /** The same, per staff member; 0 without staff. */
  hoursSavedPerStaff: number;
};

/** A number the formulas can use: anything non-numeric, non-finite or negative counts as 0. */
export function toRoiNumber(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** The spec's formulas (section 9), guarded so every output is a finite, non-negative number. */
export function calculateRoi(raw: Partial<Record<RoiInputKey, unknown>>): RoiResult {
  const v = Object.fromEntries(ROI_INPUT_KEYS.map((k) => [k, toRoiNumber(raw[k])])) as RoiInputs;
  const finite = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
  const totalHoursPerWeek = finite(ROI_TASK_KEYS.reduce((sum, k) => sum + v[k], 0));
  const totalHoursPerMonth = finite(totalHoursPerWeek * WEEKS_PER_MONTH);
  const totalCostPerMonth = finite(totalHoursPerMonth * v.costPerHour);
  const automationSavings = finite((totalCostPerMonth * v.automationEfficiency) / 100);
  const annualSavings = finite(automationSavings * 12);
  const roiPercentage = v.monthlyRevenue > 0 ? finite((annualSavings / (12 * v.monthlyRevenue)) * 100) : 0;
  const paybackPeriod = annualSavings > 0 ? finite((12 * v.monthlyRevenue) / annualSavings) : 0;
  const hoursSavedPerMonth = finite((totalHoursPerMonth * v.automationEfficiency) / 100);
  const hoursSavedPerStaff = v.staffCount > 0 ? finite(hoursSavedPerMonth / v.staffCount) : 0;
  return {
    totalHoursPerWeek,
    totalHoursPerMonth,
    totalCostPerMonth,
    automationSavings,
    annualSavings,
    roiPercentage,
    paybackPeriod,
    hoursSavedPerMonth,
    hoursSavedPerStaff,
  };
}

/** Inputs read from a URL query (a shared scenario); null when the query holds none of them. */
export function roiInputsFromQuery(search: string | URLSearchParams): RoiInputs | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  if (!ROI_INPUT_KEYS.some((k) => params.has(k))) return null;
  return Object.fromEntries(
    ROI_INPUT_KEYS.map((k) => [k, params.has(k) ? clampRoiInput(k, params.get(k)) : ROI_DEFAULTS[k]]),
  ) as RoiInputs;
}

/** Writes the inputs into a query, keeping any other parameters it already had. */
export function roiInputsToQuery(inputs: RoiInputs, base: string | URLSearchParams = ''): URLSearchParams {
  const params = new URLSearchParams(base);
  for (const k of ROI_INPUT_KEYS) params.set(k, String(inputs[k]));
  return params;
}
