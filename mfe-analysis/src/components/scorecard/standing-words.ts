import type { CompetitiveStanding } from '@site/contracts/analysis';

/* The competitive card's sentence: where the business stands in its town, or why that is not known. */

const TYPE_NOUNS: Record<string, [string, string]> = {
  restaurant: ['restaurant', 'restaurants'],
  retail: ['retail store', 'retail stores'],
  service: ['service business', 'service businesses'],
  healthcare: ['healthcare practice', 'healthcare practices'],
};

export function businessNoun(type: string, count: number): string {
  const key = type.trim().toLowerCase().replace(/(?<!\s)\s+business$/, '');
  const [one, many] = TYPE_NOUNS[key] ?? [`${key || 'local'} business`, `${key || 'local'} businesses`];
  return count === 1 ? one : many;
}

/** 'Danville, CA' -> 'Danville'. */
export const townOf = (location: string) => location.split(',')[0]!.trim();

export interface StandingWords {
  /** e.g. 'Rating higher than 62% of 18 restaurants in Danville'; null when there is no standing. */
  rating: string | null;
  reviews: string | null;
  /** Why there is no standing. */
  reason: string | null;
}

export function standingWords(standing: CompetitiveStanding | null | undefined, location: string | null): StandingWords {
  if (!standing) {
    return {
      rating: null,
      reviews: null,
      reason: location ? null : 'No location was selected, so there are no local competitors to compare with.',
    };
  }
  const { ratingPercentile, reviewPercentile, competitorCount, businessType } = standing;
  if (ratingPercentile === null || competitorCount === null || !standing.location) {
    return { rating: null, reviews: null, reason: standing.reason ?? 'Local competitors could not be compared.' };
  }
  const place = townOf(standing.location);
  const rating = `Rating higher than ${ratingPercentile}% of ${competitorCount} ${businessNoun(businessType, competitorCount)} in ${place}`;
  const reviews =
    reviewPercentile === null
      ? null
      : `More reviews than ${reviewPercentile}% of them` +
        (standing.medianReviews !== null && standing.reviewCount !== null ? ` (median ${standing.medianReviews}, yours ${standing.reviewCount})` : '');
  return { rating, reviews, reason: null };
}
