import { z } from 'zod';
import type { AnalysisQuery, Competitor, PlaceProfile, PlacesLookup } from '../types';
import { fetchJson, NAME_MATCH_THRESHOLD, nameSimilarity, ProviderError, type FetchLike } from './provider-error';
import { ownValue } from '../../lib/own-key';

/*
 * Google Places API (New): text search to find the business, place details for its profile, and a second text
 * search for same-type businesses in the location (the competitive comparison).
 */

export const GOOGLE_PLACES_DEFAULT_BASE_URL = 'https://places.googleapis.com';
const DATA_SOURCE = 'Google Places API (New)';

const placeSchema = z.looseObject({
  id: z.string(),
  displayName: z.looseObject({ text: z.string() }).optional(),
  formattedAddress: z.string().optional(),
  nationalPhoneNumber: z.string().optional(),
  internationalPhoneNumber: z.string().optional(),
  rating: z.number().optional(),
  userRatingCount: z.number().optional(),
  regularOpeningHours: z.looseObject({ weekdayDescriptions: z.array(z.string()).optional() }).optional(),
  photos: z.array(z.unknown()).optional(),
  websiteUri: z.string().optional(),
  businessStatus: z.string().optional(),
  types: z.array(z.string()).optional(),
  googleMapsUri: z.string().optional(),
});
const searchSchema = z.looseObject({ places: z.array(placeSchema).optional() });

const DETAIL_FIELDS = [
  'id', 'displayName', 'formattedAddress', 'nationalPhoneNumber', 'internationalPhoneNumber', 'rating', 'userRatingCount',
  'regularOpeningHours', 'photos', 'websiteUri', 'businessStatus', 'types', 'googleMapsUri',
].join(',');

/** What to search for when looking for competitors of a business type. */
const COMPETITOR_QUERY: Record<string, string> = {
  restaurant: 'restaurants',
  retail: 'retail stores',
  healthcare: 'medical clinics',
  service: 'local services',
};

export function competitorQuery(businessType: string, location: string): string {
  const key = businessType.toLowerCase();
  const what = ownValue(COMPETITOR_QUERY, key) ?? `${businessType.toLowerCase()} businesses`;
  return `${what} in ${location}`;
}

export interface PlacesProvider {
  lookup(query: AnalysisQuery, signal: AbortSignal): Promise<PlacesLookup>;
}

export interface GooglePlacesOptions {
  apiKey: string;
  baseUrl?: string;
  fetchImpl?: FetchLike;
  clock?: () => Date;
}

export function searchTermFor(query: AnalysisQuery): string {
  return query.location ? `${query.businessName} ${query.location}` : query.businessName;
}

export function createGooglePlacesProvider(options: GooglePlacesOptions): PlacesProvider {
  const base = (options.baseUrl ?? GOOGLE_PLACES_DEFAULT_BASE_URL).replace(/\/$/, '');
  const fetchImpl = options.fetchImpl ?? fetch;
  const now = () => (options.clock ?? (() => new Date()))().toISOString();
  const headers = (fieldMask: string) => ({
    'Content-Type': 'application/json',
    'X-Goog-Api-Key': options.apiKey,
    'X-Goog-FieldMask': fieldMask,
  });

  const parse = <T>(schema: z.ZodType<T>, data: unknown): T => {
    const r = schema.safeParse(data);
    if (!r.success) throw new ProviderError('Google Places returned an unexpected answer');
    return r.data;
  };

  async function searchText(textQuery: string, fieldMask: string, pageSize: number, signal: AbortSignal) {
    const data = await fetchJson('Google Places', fetchImpl, `${base}/v1/places:searchText`, {
      method: 'POST',
      headers: headers(fieldMask),
      body: JSON.stringify({ textQuery, pageSize }),
    }, signal);
    return parse(searchSchema, data).places ?? [];
  }

  async function competitors(query: AnalysisQuery, ownId: string | null, signal: AbortSignal): Promise<Competitor[]> {
    const places = await searchText(
      competitorQuery(query.businessType, query.location!),
      'places.id,places.displayName,places.rating,places.userRatingCount',
      20,
      signal,
    );
    return places
      .filter((p) => p.id !== ownId)
      .map((p) => ({ name: p.displayName?.text ?? 'Unknown', rating: p.rating ?? null, reviewCount: p.userRatingCount ?? 0 }));
  }

  return {
    async lookup(query, signal) {
      const searchTerm = searchTermFor(query);
      const meta = {
        searchTerm,
        apiEndpoint: `POST ${base}/v1/places:searchText`,
        dataSource: DATA_SOURCE,
      };
      try {
        const candidates = await searchText(searchTerm, 'places.id,places.displayName,places.formattedAddress', 5, signal);
        const best = candidates
          .map((p) => ({ p, sim: nameSimilarity(query.businessName, p.displayName?.text ?? '') }))
          .sort((a, b) => b.sim - a.sim)[0];
        const match = best && best.sim >= NAME_MATCH_THRESHOLD ? best.p : null;

        const [details, comp] = await Promise.all([
          match
            ? fetchJson('Google Places', fetchImpl, `${base}/v1/places/${encodeURIComponent(match.id)}`, {
                method: 'GET',
                headers: headers(DETAIL_FIELDS),
              }, signal).then((d) => parse(placeSchema, d))
            : Promise.resolve(null),
          query.location
            ? competitors(query, match?.id ?? null, signal).then(
                (c) => ({ list: c, error: null }),
                (e: Error) => ({ list: null, error: e.message }),
              )
            : Promise.resolve({ list: null, error: null }),
        ]);

        const profile: PlaceProfile | null = details
          ? {
              placeId: details.id,
              name: details.displayName?.text ?? query.businessName,
              address: details.formattedAddress ?? null,
              phone: details.nationalPhoneNumber ?? details.internationalPhoneNumber ?? null,
              rating: details.rating ?? null,
              reviewCount: details.userRatingCount ?? 0,
              openingHours: details.regularOpeningHours?.weekdayDescriptions ?? [],
              photosCount: details.photos?.length ?? 0,
              website: details.websiteUri ?? null,
              businessStatus: details.businessStatus ?? null,
              types: details.types ?? [],
              mapsUrl: details.googleMapsUri ?? null,
            }
          : null;
        return {
          ...meta,
          status: 'live',
          found: profile !== null,
          profile,
          competitors: comp.list,
          competitorsError: comp.error,
          error: null,
          checkedAt: now(),
        };
      } catch (error) {
        return {
          ...meta,
          status: 'error',
          found: null,
          profile: null,
          competitors: null,
          competitorsError: null,
          error: error instanceof ProviderError ? error.message : 'Google Places lookup failed',
          checkedAt: now(),
        };
      }
    },
  };
}
