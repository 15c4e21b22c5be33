import type { AnalysisFacts } from './types';
import { nameSimilarity, NAME_MATCH_THRESHOLD } from './providers/provider-error';
import { ownValue } from '../lib/own-key';

const normPhone = (p: string) => p.replace(/\D/g, '').slice(-10);
const ADDRESS_WORDS: Record<string, string> = { street: 'st', avenue: 'ave', road: 'rd', boulevard: 'blvd', drive: 'dr', suite: 'ste', north: 'n', south: 's', east: 'e', west: 'w', mount: 'mt', parkway: 'pkwy' };
const addressKey = (a: string) =>
  (a.split(',')[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => ownValue(ADDRESS_WORDS, w) ?? w)
    .slice(0, 3)
    .join(' ');

export interface CitationComparison {
  field: 'name' | 'phone' | 'address';
  a: { source: string; value: string };
  b: { source: string; value: string };
  match: boolean;
  simulated: boolean;
}

/** Name/address/phone comparisons between every two sources that hold the field (never real against simulated). */
export function citationComparisons(facts: AnalysisFacts): CitationComparison[] {
  type Nap = { source: string; simulated: boolean; name: string | null; phone: string | null; address: string | null };
  const sources: Nap[] = [];
  const { places, yelp, website } = facts;
  if (places.profile) sources.push({ source: 'Google', simulated: places.status === 'simulated', name: places.profile.name, phone: places.profile.phone, address: places.profile.address });
  if (yelp.listing) sources.push({ source: 'Yelp', simulated: yelp.status === 'simulated', name: yelp.listing.name, phone: yelp.listing.phone, address: yelp.listing.address });
  const lb = website.facts?.localBusiness;
  if (lb) sources.push({ source: 'Website', simulated: website.status === 'simulated', name: lb.name, phone: lb.telephone, address: lb.address });
  const out: CitationComparison[] = [];
  for (let i = 0; i < sources.length; i++) {
    for (let j = i + 1; j < sources.length; j++) {
      const a = sources[i]!;
      const b = sources[j]!;
      if (a.simulated !== b.simulated) continue;
      for (const field of ['name', 'phone', 'address'] as const) {
        const va = a[field];
        const vb = b[field];
        if (!va || !vb) continue;
        const match =
          field === 'name' ? nameSimilarity(va, vb) >= NAME_MATCH_THRESHOLD : field === 'phone' ? normPhone(va) === normPhone(vb) : addressKey(va) === addressKey(vb);
        out.push({ field, a: { source: a.source, value: va }, b: { source: b.source, value: vb }, match, simulated: a.simulated });
      }
    }
  }
  return out;
}
