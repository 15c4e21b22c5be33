import { create } from 'zustand';
import { normalizeWebsiteUrl } from '@site/contracts/analysis-rules';
import type { SmbAnalysisRequest, WebsiteAnalysisRequest } from '@site/contracts/analysis';
import type { TrackingProps } from '@site/contracts/events';
import { track } from '@site/ui';
import { AnalysisFailure, type AnalysisResult } from '../../../lib/analysis-request';
import { analyzeSmbBusiness } from '../api/analyze-smb-business';
import { analyzeWebsite } from '../api/analyze-website';
import { PROGRESS_STEP_MS, PROGRESS_STEPS, PROGRESS_TIMER_LAST_STEP } from '../data/progress-steps';
import { DEFAULT_ANALYSIS_LOCATION } from '../data/locations';

/*
 * The analysis tool's state (spec section 4): idle -> analyzing -> result or error. Starting clears the previous
 * error and result and sets the step to 0; the timer moves the step 0..5 every 500 ms; the answer sets 6; the
 * analyzing flag clears in every case. The drafts live here too, so nothing typed is lost when the visitor
 * leaves for the ROI calculator and comes back.
 */

export type AnalysisMode = 'smb' | 'website';
export type AnalysisRequest = { mode: 'smb'; input: SmbAnalysisRequest } | { mode: 'website'; input: WebsiteAnalysisRequest };

export interface AnalysisDraft {
  businessName: string;
  website: string;
  url: string;
  /** '' = 'No location selected'. */
  location: string;
}

export interface AnalysisState {
  mode: AnalysisMode;
  draft: AnalysisDraft;
  isAnalyzing: boolean;
  step: number;
  result: AnalysisResult | null;
  error: AnalysisFailure | null;
  /** The last request sent, for 'Try again' and the scorecard's 'Retry Analysis'. */
  lastRequest: AnalysisRequest | null;
  setMode: (mode: AnalysisMode) => void;
  setDraft: (patch: Partial<AnalysisDraft>) => void;
  analyze: (request: AnalysisRequest) => Promise<void>;
  /** Runs the last request again (nothing when there is none or one is running). */
  retry: () => Promise<void>;
}

export const INITIAL_DRAFT: AnalysisDraft = { businessName: '', website: '', url: '', location: DEFAULT_ANALYSIS_LOCATION };

/** Performance marks around the answer, read by the measuring script (answer -> rendered scorecard). */
export const ANSWER_MARK = 'analysis:answer';

const send = (request: AnalysisRequest) => (request.mode === 'smb' ? analyzeSmbBusiness(request.input) : analyzeWebsite(request.input));

function trackingProps(request: AnalysisRequest): TrackingProps {
  return request.mode === 'smb'
    ? { mode: 'smb', location: request.input.location ?? 'none', businessType: request.input.businessType ?? null, withWebsite: Boolean(request.input.website) }
    : { mode: 'website', location: request.input.location ?? 'none' };
}

export const useAnalysisStore = create<AnalysisState>()((set, get) => ({
  mode: 'smb',
  draft: INITIAL_DRAFT,
  isAnalyzing: false,
  step: 0,
  result: null,
  error: null,
  lastRequest: null,
  setMode: (mode) => set({ mode }),
  setDraft: (patch) => set((s) => ({ draft: { ...s.draft, ...patch } })),

  async analyze(request) {
    if (get().isAnalyzing) return;
    set({ isAnalyzing: true, error: null, result: null, step: 0, lastRequest: request });
    const props = trackingProps(request);
    track('analysis_started', props);
    track('funnel_step', { funnel: 'analysis', step: 'analysis_started', mode: request.mode });
    const startedAt = Date.now();
    const timer = setInterval(() => set((s) => ({ step: Math.min(s.step + 1, PROGRESS_TIMER_LAST_STEP) })), PROGRESS_STEP_MS);
    try {
      const result = await send(request);
      clearInterval(timer);
      try {
        performance.mark(ANSWER_MARK);
      } catch {
        // Timing is a measurement aid only.
      }
      set({ step: PROGRESS_STEPS.length - 1, result });
      const overall = (result as { scores?: { overall?: { score?: unknown } } }).scores?.overall?.score;
      track('analysis_completed', {
        mode: request.mode,
        overall: typeof overall === 'number' ? overall : null,
        cached: (result as { cached?: unknown }).cached === true,
        durationMs: Date.now() - startedAt,
      });
      track('funnel_step', { funnel: 'analysis', step: 'analysis_completed', mode: request.mode });
    } catch (error) {
      const failure = error instanceof AnalysisFailure ? error : new AnalysisFailure(error instanceof Error ? error.message : String(error), 0, '');
      set({ error: failure });
      track('analysis_error', { mode: request.mode, status: failure.status, code: failure.code ?? null });
      track('funnel_step', { funnel: 'analysis', step: 'abandoned', reason: 'analysis_error', mode: request.mode });
    } finally {
      clearInterval(timer);
      set({ isAnalyzing: false });
    }
  },

  async retry() {
    const last = get().lastRequest;
    if (last) await get().analyze(last);
  },
}));

/** The SMB request from the drafts (location '' is left out; the website, when given, gets https://). */
export function smbRequestFrom(draft: AnalysisDraft, businessType: string): AnalysisRequest {
  const website = draft.website.trim();
  return {
    mode: 'smb',
    input: {
      businessName: draft.businessName.trim(),
      businessType,
      ...(draft.location ? { location: draft.location } : {}),
      ...(website ? { website: normalizeWebsiteUrl(website) } : {}),
    },
  };
}

/** The website-mode request (spec: `{ url, mode: 'website', location? }`). */
export function websiteRequestFrom(draft: AnalysisDraft): AnalysisRequest {
  return {
    mode: 'website',
    input: { url: normalizeWebsiteUrl(draft.url), mode: 'website', ...(draft.location ? { location: draft.location } : {}) },
  };
}
