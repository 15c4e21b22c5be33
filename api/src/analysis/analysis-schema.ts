/** Stored analyses: the shareable reports and the 24-hour cache of the analysis tool. */
export interface AnalysesTable {
  id: string;
  /** Mode, normalized business name or URL, and location: same key within 24 h = the stored answer. */
  cache_key: string;
  mode: 'smb' | 'website';
  created_at: string;
  /** The report JSON text (scores, recommendations, aiAssessment…). */
  report: string;
  /** The business it is about (analysis-service.ts businessKeyOf): earlier reports of it are found by this (indexed). */
  business_key: string | null;
  /** When its permalink was last opened (at most once a day is written), or null (migration 0019). */
  opened_at: string | null;
}

export interface AnalysisTables {
  analyses: AnalysesTable;
}
