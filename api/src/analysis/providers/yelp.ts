import { z } from 'zod';
import type { AnalysisQuery, YelpLookup } from '../types';
import { fetchJson, NAME_MATCH_THRESHOLD, nameSimilarity, ProviderError, type FetchLike } from './provider-error';

/** Yelp Fusion business search: is the business listed, its rating, review count, categories and listing URL. */

export const YELP_DEFAULT_BASE_URL = 'https://api.yelp.com';
/** Yelp requires a location; without one we search the area the consultancy serves. */
export const YELP_FALLBACK_LOCATION = 'East Bay, CA';

const businessSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  url: z.string().optional(),
  rating: z.number().optional(),
  review_count: z.number().optional(),
  categories: z.array(z.looseObject({ title: z.string() })).optional(),
  display_phone: z.string().optional(),
  phone: z.string().optional(),
  location: z.looseObject({ display_address: z.array(z.string()).optional() }).optional(),
});
const searchSchema = z.looseObject({ businesses: z.array(businessSchema) });

export interface YelpProvider {
  lookup(query: AnalysisQuery, signal: AbortSignal): Promise<YelpLookup>;
}

export interface YelpOptions {
  apiKey: string;
  baseUrl?: string;
  fetchImpl?: FetchLike;
  clock?: () => Date;
}

export function createYelpProvider(options: YelpOptions): YelpProvider {
  const base = (options.baseUrl ?? YELP_DEFAULT_BASE_URL).replace(/\/$/, '');
  const fetchImpl = options.fetchImpl ?? fetch;
  const now = () => (options.clock ?? (() => new Date()))().toISOString();
  return {
    async lookup(query, signal) {
      const location = query.location ?? YELP_FALLBACK_LOCATION;
      const params = new URLSearchParams({ term: query.businessName, location, limit: '5' });
      const meta = {
        searchTerm: `${query.businessName} ${location}`,
        apiEndpoint: `GET ${base}/v3/businesses/search`,
        dataSource: 'Yelp Fusion API',
      };
      try {
        const data = await fetchJson('Yelp', fetchImpl, `${base}/v3/businesses/search?${params}`, {
          method: 'GET',
          headers: { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json' },
        }, signal);
        const parsed = searchSchema.safeParse(data);
        if (!parsed.success) throw new ProviderError('Yelp returned an unexpected answer');
        const best = parsed.data.businesses
          .map((b) => ({ b, sim: nameSimilarity(query.businessName, b.name) }))
          .sort((x, y) => y.sim - x.sim)[0];
        const match = best && best.sim >= NAME_MATCH_THRESHOLD ? best.b : null;
        return {
          ...meta,
          status: 'live',
          found: match !== null,
          listing: match
            ? {
                name: match.name,
                rating: match.rating ?? null,
                reviewCount: match.review_count ?? 0,
                categories: (match.categories ?? []).map((c) => c.title),
                url: match.url ?? null,
                phone: match.display_phone || match.phone || null,
                address: match.location?.display_address?.join(', ') ?? null,
              }
            : null,
          error: null,
          checkedAt: now(),
        };
      } catch (error) {
        return {
          ...meta,
          status: 'error',
          found: null,
          listing: null,
          error: error instanceof ProviderError ? error.message : 'Yelp lookup failed',
          checkedAt: now(),
        };
      }
    },
  };
}
