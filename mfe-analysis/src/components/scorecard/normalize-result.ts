import {
  collectMockSources,
  FACTOR_KEYS,
  MIN_MEASURED_FACTORS,
  NO_DATA_COLOR,
  NO_DATA_LABEL,
  NOT_ENOUGH_DATA_LABEL,
  NOT_MEASURED_LABEL,
  SAMPLE_SCORE_LABEL,
  scoreLabel,
} from '@site/contracts/analysis-rules';
import type { AiAssessment, AiEnhancement, AnalysisResponse, Evidence, FactorKey, PreviousReport, Recommendation } from '@site/contracts/analysis';

/*
 * The scorecard reads an answer that may come from an older stored report or a server that left parts out.
 * This turns it into one shape with the spec's defaults (section 3), so the components never guess.
 */

export type ScoreKey = FactorKey | 'overall';

export interface ScoreView {
  score: number;
  label: string;
  /** The colour class the answer carried (kept for the record; the badge picks contrast-safe colours by score). */
  color: string;
  /**
   * false when there is no score to show: nothing behind it could be counted ('Not measured'; for the overall score,
   * fewer than 3 factors: 'Not enough data'), or the answer had none ('No Data'). No number is shown then.
   */
  verified: boolean;
  /** The score counts simulated figures: shown as a sample score, never as the business's standing. */
  sample: boolean;
  /** true when the answer had no usable score for this key. */
  missing: boolean;
  insights: string[];
  evidence: Partial<Evidence> | null;
  aiEnhancement: AiEnhancement | null;
}

export interface ScorecardData {
  id: string | null;
  businessName: string;
  businessType: string;
  location: string;
  website: string;
  analyzedAt: string | null;
  cacheNote: string | null;
  scores: Record<ScoreKey, ScoreView>;
  recommendations: Recommendation[];
  aiAssessment: Partial<AiAssessment> | null;
  mockSources: string[];
  previous: PreviousReport | null;
  /** How many of the 6 factors were measured (the overall score is based on these). */
  factorsMeasured: number;
  /** Any score, or the AI assessment, rests on simulated figures. */
  sample: boolean;
  /** The AI readiness, hours and savings rest on simulated figures (also handed to the ROI calculator). */
  assessmentIsSample: boolean;
}

export const DEFAULT_BUSINESS_NAME = 'Unknown Business';
export const DEFAULT_BUSINESS_TYPE = 'General Business';
export const DEFAULT_LOCATION = 'Unknown Location';

const text = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() ? v : fallback);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** Reports stored before `sample` existed: a score is a sample when one of its counted signals is simulated. */
function countsSimulated(evidence: Partial<Evidence> | null): boolean {
  const signals = Array.isArray(evidence?.signals) ? evidence.signals : [];
  return signals.some((x) => isRecord(x) && x.status === 'simulated');
}

function scoreView(key: ScoreKey, raw: unknown): ScoreView {
  const s = isRecord(raw) ? raw : null;
  const value = s?.score;
  const evidence = isRecord(s?.evidence) ? (s.evidence as Partial<Evidence>) : null;
  if (!s || typeof value !== 'number' || !Number.isFinite(value)) {
    console.warn(`Scorecard: the score "${key}" is missing from the analysis; showing 0 (${NO_DATA_LABEL}).`);
    return { score: 0, label: NO_DATA_LABEL, color: NO_DATA_COLOR, verified: false, sample: false, missing: true, insights: strings(s?.insights), evidence, aiEnhancement: null };
  }
  const score = Math.min(100, Math.max(0, Math.round(value)));
  const verified = s.verified !== false && s.label !== NO_DATA_LABEL;
  const sample = verified && (typeof s.sample === 'boolean' ? s.sample : countsSimulated(evidence));
  const label = !verified
    ? key === 'overall'
      ? NOT_ENOUGH_DATA_LABEL
      : NOT_MEASURED_LABEL
    : sample
      ? SAMPLE_SCORE_LABEL
      : text(s.label, scoreLabel(score));
  return {
    score: verified ? score : 0,
    label,
    color: text(s.color, NO_DATA_COLOR),
    verified,
    sample,
    missing: false,
    insights: strings(s.insights),
    evidence,
    aiEnhancement: isRecord(s.aiEnhancement) ? (s.aiEnhancement as AiEnhancement) : null,
  };
}

/** The answer with every default applied. Never throws on a partial answer. */
export function normalizeResult(result: AnalysisResponse | Record<string, unknown> | null | undefined): ScorecardData {
  const r: Record<string, unknown> = isRecord(result) ? result : {};
  const info = isRecord(r.businessInfo) ? r.businessInfo : {};
  const rawScores = isRecord(r.scores) ? r.scores : {};
  const scores = Object.fromEntries(
    [...FACTOR_KEYS, 'overall' as const].map((k) => [k, scoreView(k, rawScores[k])]),
  ) as Record<ScoreKey, ScoreView>;
  const recommendations = Array.isArray(r.recommendations)
    ? (r.recommendations as unknown[]).filter((x): x is Recommendation => isRecord(x) && typeof x.title === 'string')
    : [];
  const previous = isRecord(r.previous) && isRecord(r.previous.scores) && typeof r.previous.analyzedAt === 'string' ? (r.previous as PreviousReport) : null;
  const factorsMeasured = FACTOR_KEYS.filter((k) => scores[k].verified).length;
  const overall = scores.overall;
  if (!overall.missing) {
    // Older reports graded an overall score on one or two factors; it says too little to show as a grade.
    if (overall.verified && factorsMeasured < MIN_MEASURED_FACTORS) scores.overall = { ...overall, verified: false, sample: false, score: 0, label: NOT_ENOUGH_DATA_LABEL };
    else if (overall.verified && !overall.sample && FACTOR_KEYS.some((k) => scores[k].sample)) scores.overall = { ...overall, sample: true, label: SAMPLE_SCORE_LABEL };
  }
  const aiAssessment = isRecord(r.aiAssessment) ? (r.aiAssessment as Partial<AiAssessment>) : null;
  const mockSources = collectMockSources(rawScores);
  return {
    id: typeof r.id === 'string' ? r.id : null,
    businessName: text(info.businessName, DEFAULT_BUSINESS_NAME),
    businessType: text(info.businessType, DEFAULT_BUSINESS_TYPE),
    location: text(info.location, DEFAULT_LOCATION),
    website: typeof info.website === 'string' ? info.website : '',
    analyzedAt: typeof r.analyzedAt === 'string' ? r.analyzedAt : null,
    cacheNote: typeof r.cacheNote === 'string' && r.cacheNote ? r.cacheNote : null,
    scores,
    recommendations,
    aiAssessment,
    mockSources,
    previous,
    factorsMeasured,
    sample: mockSources.length > 0 || FACTOR_KEYS.some((k) => scores[k].sample),
    assessmentIsSample: typeof aiAssessment?.basedOnSampleData === 'boolean' ? aiAssessment.basedOnSampleData : mockSources.length > 0,
  };
}

/**
 * A date for people ('November 23, 2026'), or 'Unknown' when it is missing or invalid. Shown in the businesses'
 * own time zone (the East Bay), so the server-rendered and the browser-rendered report say the same.
 */
export function formatDate(value: string | null | undefined, withTime = false): string {
  if (!value) return 'Unknown';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return 'Unknown';
  return withTime
    ? d.toLocaleString('en-US', { timeZone: 'America/Los_Angeles', month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })
    : d.toLocaleDateString('en-US', { timeZone: 'America/Los_Angeles', dateStyle: 'long' });
}

export const FACTOR_TITLES: Record<FactorKey, string> = {
  visibility: 'Visibility',
  reputation: 'Reputation',
  profileQuality: 'Profile Quality',
  websiteTrust: 'Website Trust',
  contentQuality: 'Content Quality',
  competitiveIntelligence: 'Competitive Intelligence',
};

export { usd } from '@site/contracts/analysis-rules';
