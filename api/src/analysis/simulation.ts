import { SAMPLE_SOURCES } from '@site/contracts/analysis';
import type { AnalysisQuery, Competitor, DetectedTechnology, PlacesLookup, WebsiteFacts, WebsiteLookup, YelpLookup } from './types';
import { searchTermFor } from './providers/google-places';
import { YELP_FALLBACK_LOCATION } from './providers/yelp';
import { ownValue } from '../lib/own-key';

/*
 * Honest simulation for providers without a key. Deterministic per (business name, location): a seeded PRNG,
 * so the same query always gives the same scorecard. Figures are plausible for the business type and town.
 * Every result is status 'simulated' and carries a source naming what is simulated and why; the report marks
 * each detail built from it isMockData: true.
 */

/** What each simulated result says it is (the mock-data warning lists these): one source per provider, in owner words. */
export const SIMULATION_SOURCES = {
  googlePlaces: SAMPLE_SOURCES.googlePlaces,
  // The competitors come from the same (simulated) Google lookup: the same source, so the warning names it once.
  competitors: SAMPLE_SOURCES.googlePlaces,
  yelp: SAMPLE_SOURCES.yelp,
  website: SAMPLE_SOURCES.website,
} as const;

/** FNV-1a over the normalized query: the seed of every simulated figure. */
export function simulationSeed(businessName: string, location: string | null, salt: string): number {
  const key = `${businessName.trim().toLowerCase().replace(/\s+/g, ' ')}|${(location ?? '').trim().toLowerCase()}|${salt}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast, good enough for plausible figures. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const between = (rng: Rng, min: number, max: number) => min + rng() * (max - min);
const int = (rng: Rng, min: number, max: number) => Math.floor(between(rng, min, max + 1));
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const round1 = (n: number) => Math.round(n * 10) / 10;

interface TypeProfile {
  reviews: [number, number];
  rating: [number, number];
  photos: [number, number];
  googleTypes: string[];
  yelpCategories: string[];
  tech: string[][];
}

const TYPE_PROFILES: Record<string, TypeProfile> = {
  restaurant: {
    reviews: [40, 650], rating: [3.7, 4.7], photos: [15, 140],
    googleTypes: ['restaurant', 'food', 'establishment'], yelpCategories: ['Restaurants', 'American (New)'],
    tech: [['Squarespace', 'OpenTable'], ['WordPress', 'Toast'], ['Wix'], ['Square', 'Google Analytics']],
  },
  retail: {
    reviews: [15, 240], rating: [3.9, 4.8], photos: [8, 60],
    googleTypes: ['store', 'establishment'], yelpCategories: ['Shopping'],
    tech: [['Shopify', 'Google Analytics'], ['Wix'], ['Square'], ['WordPress', 'Mailchimp']],
  },
  healthcare: {
    reviews: [20, 300], rating: [3.9, 4.9], photos: [5, 40],
    googleTypes: ['health', 'doctor', 'establishment'], yelpCategories: ['Health & Medical'],
    tech: [['WordPress', 'Google Analytics'], ['Wix'], ['Squarespace'], ['WordPress', 'reCAPTCHA']],
  },
  service: {
    reviews: [8, 180], rating: [4.1, 4.9], photos: [3, 35],
    googleTypes: ['point_of_interest', 'establishment'], yelpCategories: ['Local Services'],
    tech: [['GoDaddy Website Builder'], ['Wix', 'Google Analytics'], ['WordPress', 'Calendly'], ['Squarespace']],
  },
};

const TOWNS: Record<string, { zip: string; streets: string[]; busyness: number }> = {
  danville: { zip: '94526', streets: ['Hartz Ave', 'Diablo Rd', 'Railroad Ave', 'Sycamore Valley Rd'], busyness: 0.85 },
  'san ramon': { zip: '94583', streets: ['Crow Canyon Rd', 'Bollinger Canyon Rd', 'Alcosta Blvd', 'Camino Ramon'], busyness: 1 },
  'walnut creek': { zip: '94596', streets: ['N Main St', 'Locust St', 'Mt Diablo Blvd', 'Ygnacio Valley Rd'], busyness: 1.25 },
  pleasanton: { zip: '94566', streets: ['Main St', 'Santa Rita Rd', 'Stoneridge Dr', 'Hopyard Rd'], busyness: 1.1 },
  dublin: { zip: '94568', streets: ['Dublin Blvd', 'Amador Valley Blvd', 'Village Pkwy', 'Regional St'], busyness: 1 },
};

function profileFor(businessType: string): TypeProfile {
  return ownValue(TYPE_PROFILES, businessType.toLowerCase()) ?? TYPE_PROFILES.service!;
}

function townOf(location: string | null) {
  const town = (location ?? 'Danville, CA').split(',')[0]!.trim().toLowerCase();
  return { name: (location ?? 'Danville, CA').split(',')[0]!.trim(), ...(ownValue(TOWNS, town) ?? { zip: '94500', streets: ['Main St', 'Oak St'], busyness: 1 }) };
}

/** Reviews skew low (most small businesses have few): a squared uniform between the type's bounds. */
function reviewsFor(rng: Rng, p: TypeProfile, busyness: number) {
  return Math.round((p.reviews[0] + rng() ** 2 * (p.reviews[1] - p.reviews[0])) * busyness);
}

function phoneFor(rng: Rng) {
  // 555-01xx numbers are reserved for fiction: a simulated number can never ring a real business.
  return `(925) 555-01${String(int(rng, 0, 99)).padStart(2, '0')}`;
}

function simulatedCore(query: AnalysisQuery) {
  const rng = seededRandom(simulationSeed(query.businessName, query.location, 'core'));
  const town = townOf(query.location);
  return {
    phone: phoneFor(rng),
    address: `${int(rng, 100, 3999)} ${pick(rng, town.streets)}, ${town.name}, CA ${town.zip}`,
    slug: query.businessName.toLowerCase().replace(/[^a-z0-9]+/g, '').slice(0, 30) || 'business',
  };
}

export function simulatePlaces(query: AnalysisQuery, checkedAt: string): PlacesLookup {
  const rng = seededRandom(simulationSeed(query.businessName, query.location, 'places'));
  const p = profileFor(query.businessType);
  const town = townOf(query.location);
  const core = simulatedCore(query);
  const found = rng() < 0.88;
  const reviewCount = reviewsFor(rng, p, town.busyness);
  const rating = round1(between(rng, p.rating[0], p.rating[1]));
  const hasHours = rng() < 0.85;
  const hasWebsite = rng() < 0.8;
  const competitors: Competitor[] | null = query.location
    ? Array.from({ length: int(rng, 8, 14) }, (_, i) => ({
        name: `Simulated competitor ${i + 1}`,
        rating: round1(between(rng, p.rating[0], p.rating[1])),
        reviewCount: reviewsFor(rng, p, town.busyness),
      }))
    : null;
  return {
    searchTerm: searchTermFor(query),
    apiEndpoint: 'none (sample data)',
    dataSource: 'Sample data (no Google Places key configured)',
    checkedAt,
    source: SIMULATION_SOURCES.googlePlaces,
    status: 'simulated',
    found,
    profile: found
      ? {
          placeId: `simulated-${simulationSeed(query.businessName, query.location, 'id').toString(36)}`,
          name: query.businessName,
          address: core.address,
          phone: rng() < 0.95 ? core.phone : null,
          rating: reviewCount > 0 ? rating : null,
          reviewCount,
          openingHours: hasHours
            ? ['Monday: 9:00 AM – 6:00 PM', 'Tuesday: 9:00 AM – 6:00 PM', 'Wednesday: 9:00 AM – 6:00 PM', 'Thursday: 9:00 AM – 6:00 PM', 'Friday: 9:00 AM – 6:00 PM', 'Saturday: 10:00 AM – 4:00 PM', 'Sunday: Closed']
            : [],
          photosCount: int(rng, p.photos[0], p.photos[1]),
          website: hasWebsite ? `https://www.${core.slug}.example` : null,
          businessStatus: 'OPERATIONAL',
          types: p.googleTypes,
          mapsUrl: null,
        }
      : null,
    competitors,
    competitorsError: null,
    competitorsSource: competitors ? SIMULATION_SOURCES.competitors : undefined,
    error: null,
  };
}

export function simulateYelp(query: AnalysisQuery, checkedAt: string): YelpLookup {
  const rng = seededRandom(simulationSeed(query.businessName, query.location, 'yelp'));
  const p = profileFor(query.businessType);
  const town = townOf(query.location);
  const core = simulatedCore(query);
  const found = rng() < 0.75;
  const location = query.location ?? YELP_FALLBACK_LOCATION;
  return {
    searchTerm: `${query.businessName} ${location}`,
    apiEndpoint: 'none (sample data)',
    dataSource: 'Sample data (no Yelp key configured)',
    checkedAt,
    source: SIMULATION_SOURCES.yelp,
    status: 'simulated',
    found,
    listing: found
      ? {
          name: query.businessName,
          rating: Math.round(between(rng, p.rating[0] - 0.3, p.rating[1]) * 2) / 2,
          reviewCount: Math.round(reviewsFor(rng, p, town.busyness) * 0.6),
          categories: p.yelpCategories,
          url: null,
          phone: core.phone,
          address: core.address,
        }
      : null,
    error: null,
  };
}

export function simulateWebsite(query: AnalysisQuery, url: string, checkedAt: string): WebsiteLookup {
  const rng = seededRandom(simulationSeed(query.businessName, query.location, 'website'));
  const p = profileFor(query.businessType);
  const core = simulatedCore(query);
  const https = rng() < 0.85;
  const images = int(rng, 4, 30);
  const techNames = pick(rng, p.tech);
  const technologies: DetectedTechnology[] = techNames.map((name) => ({ name, category: 'Simulated' }));
  const hasBooking = rng() < 0.4;
  const facts: WebsiteFacts = {
    requestedUrl: url,
    finalUrl: https ? url : url.replace(/^https:/, 'http:'),
    https,
    statusCode: 200,
    responseTimeMs: int(rng, 250, 2600),
    bytes: int(rng, 120_000, 1_800_000),
    securityHeaders: { hsts: https && rng() < 0.4, csp: rng() < 0.15, xContentTypeOptions: rng() < 0.45, frameProtection: rng() < 0.35 },
    title: rng() < 0.95 ? `${query.businessName} | ${townOf(query.location).name}` : null,
    metaDescription: rng() < 0.65 ? `${query.businessName} serves ${townOf(query.location).name} and the surrounding East Bay.` : null,
    headings: { h1: rng() < 0.8 ? 1 : 0, h2: int(rng, 0, 8), h3: int(rng, 0, 10), firstH1: query.businessName },
    viewport: rng() < 0.9,
    images: { total: images, withAlt: Math.round(images * between(rng, 0.2, 1)) },
    structuredDataTypes: rng() < 0.3 ? ['LocalBusiness'] : [],
    localBusiness: null,
    contact: { phones: rng() < 0.85 ? [core.phone] : [], emails: rng() < 0.5 ? [`hello@${core.slug}.example`] : [], contactForm: rng() < 0.6 },
    booking: { present: hasBooking, links: [] },
    socialLinks: { facebook: null, instagram: null, linkedin: null },
    wordCount: int(rng, 120, 1400),
    technologies,
    siteName: query.businessName,
  };
  return { status: 'simulated', url, facts, error: null, source: SIMULATION_SOURCES.website, checkedAt };
}
