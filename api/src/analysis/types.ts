/** Internal facts the providers produce and the scoring model reads. Framework-free. */

export type SourceStatus = 'live' | 'simulated' | 'error' | 'not_applicable';

export interface AnalysisQuery {
  businessName: string;
  businessType: string;
  /** null when the visitor chose no location (no competitive insights). */
  location: string | null;
}

export interface PlaceProfile {
  placeId: string;
  name: string;
  address: string | null;
  phone: string | null;
  rating: number | null;
  reviewCount: number;
  openingHours: string[];
  photosCount: number;
  website: string | null;
  businessStatus: string | null;
  types: string[];
  mapsUrl: string | null;
}

export interface Competitor {
  name: string;
  rating: number | null;
  reviewCount: number;
}

export interface ProviderMeta {
  searchTerm: string;
  apiEndpoint: string;
  dataSource: string;
  checkedAt: string;
  /** Set on simulated results: what is simulated and why. */
  source?: string;
}

export interface PlacesLookup extends ProviderMeta {
  status: SourceStatus;
  found: boolean | null;
  profile: PlaceProfile | null;
  /** Same-type businesses in the location, null when not looked up (no location) or failed. */
  competitors: Competitor[] | null;
  competitorsError: string | null;
  competitorsSource?: string;
  error: string | null;
}

export interface YelpListing {
  name: string;
  rating: number | null;
  reviewCount: number;
  categories: string[];
  url: string | null;
  phone: string | null;
  address: string | null;
}

export interface YelpLookup extends ProviderMeta {
  status: SourceStatus;
  found: boolean | null;
  listing: YelpListing | null;
  error: string | null;
}

export interface DetectedTechnology {
  name: string;
  category: string;
}

export interface LocalBusinessData {
  type: string;
  name: string | null;
  telephone: string | null;
  address: string | null;
}

export interface WebsiteFacts {
  requestedUrl: string;
  finalUrl: string;
  https: boolean;
  statusCode: number;
  responseTimeMs: number;
  bytes: number;
  securityHeaders: { hsts: boolean; csp: boolean; xContentTypeOptions: boolean; frameProtection: boolean };
  title: string | null;
  metaDescription: string | null;
  headings: { h1: number; h2: number; h3: number; firstH1: string | null };
  viewport: boolean;
  images: { total: number; withAlt: number };
  structuredDataTypes: string[];
  localBusiness: LocalBusinessData | null;
  contact: { phones: string[]; emails: string[]; contactForm: boolean };
  booking: { present: boolean; links: string[] };
  socialLinks: { facebook: string | null; instagram: string | null; linkedin: string | null };
  wordCount: number;
  technologies: DetectedTechnology[];
  siteName: string | null;
}

/** Why a website could not be read: not reachable, not allowed (an address from the profile), or too heavy to analyze. */
export type WebsiteErrorKind = 'unreachable' | 'refused' | 'too_complex';

export interface WebsiteLookup {
  status: SourceStatus;
  url: string | null;
  facts: WebsiteFacts | null;
  error: string | null;
  errorKind?: WebsiteErrorKind;
  source?: string;
  checkedAt: string;
}

export interface AnalysisFacts {
  query: AnalysisQuery;
  places: PlacesLookup;
  yelp: YelpLookup;
  website: WebsiteLookup;
  /** website mode analyses a URL the visitor gave; smb mode one from the profile (or none). */
  mode: 'smb' | 'website';
}
