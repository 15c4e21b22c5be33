import { collectMockSources, ROI_SAMPLE_HANDOFF } from '@site/contracts/analysis-rules';
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

/** Any score of the report counts simulated figures (a sample scorecard), read defensively from stored reports. */
export function reportIsSample(result: unknown): boolean {
  const scores = isRecord(result) && isRecord(result.scores) ? result.scores : null;
  if (!scores) return false;
  if (Object.values(scores).some((s) => isRecord(s) && s.sample === true)) return true;
  return collectMockSources(scores).length > 0;
}

/** The business name an answer names, or null. */
export function reportBusinessName(result: AnalysisResult | null | undefined): string | null {
  const info = isRecord(result) && isRecord(result.businessInfo) ? result.businessInfo : null;
  const name = info?.businessName;
  return typeof name === 'string' && name.trim() ? name.trim() : null;
}

/** The assessment rests on simulated figures (reports stored before the flag: any simulated detail in the scores). */
function assessmentIsSample(result: Record<string, unknown>, assessment: Record<string, unknown>): boolean {
  if (typeof assessment.basedOnSampleData === 'boolean') return assessment.basedOnSampleData;
  return collectMockSources(result.scores).length > 0;
}

/**
 * /roi-calculator with the report's `aiAssessment.roiCalculatorInputs` in the query the calculator reads
 * (one parameter per input, e.g. ?customerService=6&costPerHour=25), plus `from=sample-analysis` when those hours
 * rest on sample data; null without a usable assessment.
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
  if (!params.size) return null;
  if (assessmentIsSample(result as Record<string, unknown>, assessment!)) params.set(ROI_SAMPLE_HANDOFF.param, ROI_SAMPLE_HANDOFF.value);
  return `/roi-calculator?${params.toString()}`;
}
