import type { SmbAnalysisRequest } from '@site/contracts/analysis';
import { requestAnalysis, type AnalysisResult } from '../../../lib/analysis-request';

/** `POST /api/analyze-smb-business`: the SMB growth scorecard of a business. */
export function analyzeSmbBusiness(input: SmbAnalysisRequest, signal?: AbortSignal): Promise<AnalysisResult> {
  return requestAnalysis('/api/analyze-smb-business', { method: 'POST', json: input, signal });
}
