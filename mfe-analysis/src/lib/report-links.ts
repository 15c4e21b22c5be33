import type { AnalysisResult } from './analysis-request';

/*
 * What the report actions need from an answer, read defensively (a stored report may predate a field):
 * the permalink of the report and the ROI calculator prefilled with the report's savings inputs.
 */

const ROI_QUERY_KEYS = [
  'customerService',
  'appointmentScheduling',
  'invoicingAndBilling',
  'dataEntryAndReporting',
  'followUpsAndReminders',
  'costPerHour',
  'automationEfficiency',
] as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The report's site path, e.g. /free-analysis/report/abc123, or null when the answer has no id. */
export function reportPath(result: AnalysisResult | null | undefined): string | null {
  const id = isRecord(result) ? result.id : undefined;
  return typeof id === 'string' && /^[\w-]{8,64}$/.test(id) ? `/free-analysis/report/${id}` : null;
}

/** The business name an answer names, or null. */
export function reportBusinessName(result: AnalysisResult | null | undefined): string | null {
  const info = isRecord(result) && isRecord(result.businessInfo) ? result.businessInfo : null;
  const name = info?.businessName;
  return typeof name === 'string' && name.trim() ? name.trim() : null;
}

/**
 * /roi-calculator with the report's `aiAssessment.roiCalculatorInputs` in the query the calculator reads
 * (one parameter per input, e.g. ?customerService=6&costPerHour=25); null without a usable assessment.
 */
export function roiCalculatorHref(result: AnalysisResult | null | undefined): string | null {
  const assessment = isRecord(result) && isRecord(result.aiAssessment) ? result.aiAssessment : null;
  const inputs = assessment && isRecord(assessment.roiCalculatorInputs) ? assessment.roiCalculatorInputs : null;
  if (!inputs) return null;
  const params = new URLSearchParams();
  for (const key of ROI_QUERY_KEYS) {
    const value = inputs[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) params.set(key, String(Math.round(value * 10) / 10));
  }
  return params.size ? `/roi-calculator?${params.toString()}` : null;
}
