import type { AnalysisResponse } from '@site/contracts/analysis';

/** The contracts (and zod with them) load beside the request, not with the page: most visits never send one. */
const loadContracts = () => Promise.all([import('@site/contracts/analysis'), import('@site/contracts/error')]).then(([analysis, error]) => ({ analysisResponseSchema: analysis.analysisResponseSchema, errorEnvelopeSchema: error.errorEnvelopeSchema }));

/**
 * Loads (and evaluates) the contracts when the visitor starts on the form: evaluated during the press of Analyze, zod
 * and the schemas took tens of milliseconds of a slow phone's frame before the page could answer the press.
 */
export function preloadAnalysisContracts(): void {
  loadContracts().catch(() => undefined);
}

/*
 * The analysis calls keep what a failed answer said word for word: the spec's error box shows
 * 'Failed to analyze website: Analysis failed: {status} {response body}', and the friendly explanation above it
 * needs the envelope's code and message and the Retry-After of a 429.
 */

/** A failed analysis call. `status` 0: the request never got an answer (network down, server unreachable). */
export class AnalysisFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: string,
    readonly code?: string,
    readonly serverMessage?: string,
    /** Seconds until another analysis is accepted (429). */
    readonly retryAfterSeconds?: number,
    /** The envelope's `details` (field messages of a validation failure). */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AnalysisFailure';
  }

  /** The spec's line, verbatim: 'Failed to analyze website: ' + the error's message. */
  get display(): string {
    return `Failed to analyze website: ${this.message}`;
  }
}

/** An answer as the scorecard reads it: the contract's shape when it matches, else the raw object (older reports). */
export type AnalysisResult = AnalysisResponse | (Record<string, unknown> & { id?: unknown });

/** Retry-After is seconds or an HTTP date. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Sends one analysis call and returns the answer, or throws an AnalysisFailure saying exactly what went wrong. */
export async function requestAnalysis(url: string, init: { method: 'GET' | 'POST'; json?: unknown; signal?: AbortSignal }): Promise<AnalysisResult> {
  const contracts = loadContracts();
  // A load that fails (offline) shows as the request's own failure below, never as an unhandled rejection.
  contracts.catch(() => undefined);
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      signal: init.signal,
      headers: { Accept: 'application/json', ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    const message = error instanceof Error && error.message ? error.message : 'Network error';
    throw new AnalysisFailure(message, 0, '');
  }
  let body: string;
  let analysisResponseSchema: Awaited<ReturnType<typeof loadContracts>>['analysisResponseSchema'];
  let errorEnvelopeSchema: Awaited<ReturnType<typeof loadContracts>>['errorEnvelopeSchema'];
  try {
    ({ analysisResponseSchema, errorEnvelopeSchema } = await contracts);
  } catch (error) {
    const message = error instanceof Error && error.message ? error.message : 'Network error';
    throw new AnalysisFailure(message, 0, '');
  }
  try {
    body = await res.text();
  } catch {
    throw new AnalysisFailure(`Analysis failed: ${res.status} (the answer was cut off)`, res.ok ? 0 : res.status, '');
  }
  if (!res.ok) {
    let code: string | undefined;
    let serverMessage: string | undefined;
    let details: unknown;
    try {
      const envelope = errorEnvelopeSchema.safeParse(JSON.parse(body));
      if (envelope.success) ({ code, message: serverMessage, details } = envelope.data.error);
    } catch {
      // Not JSON (a proxy's error page): the raw text is still shown.
    }
    throw new AnalysisFailure(`Analysis failed: ${res.status} ${body}`.trim(), res.status, body, code, serverMessage, parseRetryAfter(res.headers.get('Retry-After')), details);
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new AnalysisFailure(`Analysis failed: ${res.status} ${body.slice(0, 300)}`.trim(), res.status, body, 'unreadable_answer');
  }
  const parsed = analysisResponseSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    // The scorecard fills what is missing with the spec's defaults ('No Data'), so a partial answer still shows.
    console.warn('Analysis answer does not match the contract; showing it with defaults', parsed.error.issues.slice(0, 5));
    return json as AnalysisResult;
  }
  throw new AnalysisFailure(`Analysis failed: ${res.status} ${body.slice(0, 300)}`.trim(), res.status, body, 'unreadable_answer');
}
