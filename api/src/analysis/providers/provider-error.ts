import { SpanKind, withSpan } from '../../lib/tracing';

/** A data provider answered badly (HTTP error, malformed JSON, timeout). The analysis keeps going without it. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

export type FetchLike = typeof fetch;

/** One JSON call with the caller's abort signal; every failure becomes a ProviderError with a readable message. */
export async function fetchJson(
  provider: string,
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit,
  signal: AbortSignal,
): Promise<unknown> {
  let host: string | undefined;
  try {
    host = new URL(url).hostname;
  } catch {
    // fetch refuses it below.
  }
  return withSpan(`analysis ${provider}`, { kind: SpanKind.CLIENT, attributes: { 'http.request.method': init.method ?? 'GET', ...(host ? { 'server.address': host } : {}) } }, () =>
    fetchJsonOnce(provider, fetchImpl, url, init, signal),
  );
}

async function fetchJsonOnce(provider: string, fetchImpl: FetchLike, url: string, init: RequestInit, signal: AbortSignal): Promise<unknown> {
  let res: Response;
  try {
    res = await fetchImpl(url, { ...init, signal });
  } catch (error) {
    if (signal.aborted) throw new ProviderError(`${provider} did not answer in time`);
    throw new ProviderError(`${provider} could not be reached (${(error as Error).message})`);
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    throw new ProviderError(signal.aborted ? `${provider} did not answer in time` : `${provider} answer could not be read`);
  }
  if (!res.ok) throw new ProviderError(`${provider} answered HTTP ${res.status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError(`${provider} returned malformed JSON`);
  }
}

/** Similarity of two business names, 0..1 (token overlap after dropping filler words). */
export function nameSimilarity(a: string, b: string): number {
  const tokens = (s: string) =>
    new Set(
      s
        .toLowerCase()
        .replace(/&/g, ' and ')
        .replace(/[^a-z0-9 ]+/g, ' ')
        .split(/\s+/)
        .filter((t) => t && !['the', 'and', 'inc', 'llc', 'co', 'of', 'ltd', 'corp'].includes(t)),
    );
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.size === 0 || tb.size === 0) return 0;
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  return (2 * common) / (ta.size + tb.size);
}

export const NAME_MATCH_THRESHOLD = 0.6;
