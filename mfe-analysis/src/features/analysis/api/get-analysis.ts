import { requestAnalysis, type AnalysisResult } from '../../../lib/analysis-request';

/** `GET /api/analyses/:id`: a stored report (404 when the id is unknown). */
export function getAnalysis(id: string, signal?: AbortSignal): Promise<AnalysisResult> {
  return requestAnalysis(`/api/analyses/${encodeURIComponent(id)}`, { method: 'GET', signal });
}
