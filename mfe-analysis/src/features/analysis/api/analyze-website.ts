import type { WebsiteAnalysisRequest } from '@site/contracts/analysis';
import { requestAnalysis, type AnalysisResult } from '../../../lib/analysis-request';

/** `POST /api/analyze-website`: the scorecard of a website the server fetches itself. */
export function analyzeWebsite(input: WebsiteAnalysisRequest, signal?: AbortSignal): Promise<AnalysisResult> {
  return requestAnalysis('/api/analyze-website', { method: 'POST', json: input, signal });
}
