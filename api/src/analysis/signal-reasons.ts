import type { PlacesLookup, WebsiteLookup, YelpLookup } from './types';
import { ownValue } from '../lib/own-key';

// Why something could not be counted, in the owner's words: the first cause in the chain.

export const withoutStop = (text: string) => text.trim().replace(/\.$/, '');
const lowerFirst = (text: string) => (/^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text);

/** Socket error codes as an owner would say them. */
const CONNECTION_WORDS: Record<string, string> = {
  ECONNREFUSED: 'its server refused the connection',
  ECONNRESET: 'its server dropped the connection',
  ETIMEDOUT: 'it did not answer in time',
  EHOSTUNREACH: 'its server cannot be reached from here',
  ENETUNREACH: 'its server cannot be reached from here',
  EPROTO: 'its secure connection could not be set up',
  CERT_HAS_EXPIRED: 'its security certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its security certificate is not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'its security certificate is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its security certificate is not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its security certificate is for another name',
};

/** What went wrong reaching the website, without the fetcher's jargon. */
function unreachableWords(error: string): string {
  const detail = withoutStop(error);
  const timeout = /did not answer within (\d+) seconds/.exec(detail);
  if (timeout) return `it did not answer within ${timeout[1]} seconds`;
  if (/could not be resolved/.test(detail)) return 'its address was not found';
  const status = /answered HTTP (\d{3})/.exec(detail);
  if (status) return `it answered with an error (HTTP ${status[1]})`;
  const refused = /could not be reached \(([^)]*)\)/.exec(detail);
  if (refused) return ownValue(CONNECTION_WORDS, refused[1]!) ?? `the connection failed (${refused[1]})`;
  return lowerFirst(detail);
}

/** Why the website could not be read: not reachable, too large or complex, or an address we may not visit. */
export function websiteProblem(website: Pick<WebsiteLookup, 'error' | 'errorKind'>): string {
  const error = website.error ?? 'unknown error';
  if (website.errorKind === 'too_complex' || /too large or complex/i.test(error)) {
    const why = withoutStop(error.replace(/^This page is too large or complex to analyze:?\s*/i, ''));
    return `the website's page is too large or complex to analyze${why ? ` (${why})` : ''}`;
  }
  if (website.errorKind === 'refused') return `the website address cannot be analyzed (${lowerFirst(withoutStop(error))})`;
  return `the website could not be reached (${unreachableWords(error)})`;
}

export const googleFailed = (places: Pick<PlacesLookup, 'error'>) => `Google could not be checked (${withoutStop(places.error ?? 'no answer')})`;
export const yelpFailed = (yelp: Pick<YelpLookup, 'error'>) => `Yelp could not be checked (${withoutStop(yelp.error ?? 'no answer')})`;
