import type { AnalysisFacts, Competitor, SourceStatus } from './types';
import { clamp01, percentile, performanceScore, ratingFraction, reviewFraction, SIGNALS, type Signal, type SignalKey, type SignalStatus } from './scoring';
import { citationComparisons } from './citations';
import { googleFailed, websiteProblem, withoutStop, yelpFailed } from './signal-reasons';

// From facts to signals: one entry per row of the scoring table (SIGNALS), counted or not with its reason.

const statusOf = (s: SourceStatus): SignalStatus => (s === 'live' ? 'verified' : s === 'simulated' ? 'simulated' : 'unverified');

function sig(key: SignalKey, status: SignalStatus, fraction: number, insight: string, value?: Signal['value'], source?: string): Signal {
  const spec = SIGNALS[key];
  return { key, factor: spec.factor, label: spec.label, maxPoints: spec.points, status, fraction: status === 'unverified' ? 0 : clamp01(fraction), insight, value, ...(status === 'simulated' && source ? { source } : {}) };
}

/** A signal that could not be counted: its own reason (the first cause), and an insight line when `insight` is given. */
function notCounted(key: SignalKey, reason: string, insight = ''): Signal {
  return { ...sig(key, 'unverified', 0, insight), reason };
}

/** What we know about the website's existence when no page was read. */
function websiteAbsence(facts: AnalysisFacts): { status: SignalStatus; reason: string; listed: string; source?: string } {
  const { places, website } = facts;
  if (website.status === 'error') {
    const reason = websiteProblem(website);
    return { status: 'unverified', reason, listed: reason };
  }
  if (places.profile && !places.profile.website) {
    const reason = 'No website is listed on the Google profile';
    return { status: statusOf(places.status), reason, listed: reason, source: places.source };
  }
  const reason =
    places.status === 'error'
      ? `no website was entered, and ${googleFailed(places)} to find one`
      : places.status === 'simulated'
        ? 'no website was entered, and without a Google Places key there is no real Google profile to find one on'
        : 'no website was entered, and no Google profile was found to take one from';
  return { status: 'unverified', reason, listed: reason };
}

/** Why name, address and phone could not be compared: each missing source's own cause, in order. */
function citationGap(facts: AnalysisFacts): string {
  const { places, yelp, website } = facts;
  const sources = [
    {
      name: 'Google',
      present: Boolean(places.profile),
      simulated: places.status === 'simulated',
      missing: places.status === 'error' ? googleFailed(places) : 'no Google profile was found',
    },
    {
      name: 'Yelp',
      present: Boolean(yelp.listing),
      simulated: yelp.status === 'simulated',
      missing: yelp.status === 'error' ? yelpFailed(yelp) : 'no Yelp listing was found',
    },
    {
      name: 'the website',
      present: Boolean(website.facts?.localBusiness),
      simulated: website.status === 'simulated',
      missing:
        website.status === 'error'
          ? websiteProblem(website)
          : !website.facts
            ? 'no website was analyzed'
            : 'the website does not state its name, address and phone as LocalBusiness data',
    },
  ];
  const present = sources.filter((s) => s.present);
  if (present.length >= 2) {
    // Two sources, but one real and one sample: comparing them would prove nothing.
    const sampleOnes = present.filter((s) => s.simulated).map((s) => s.name);
    if (sampleOnes.length === 0) return 'the sources found hold no name, address or phone in common';
    return `real data is never compared with sample data (${sampleOnes.join(' and ')}: no key configured)`;
  }
  return `it needs the same details from two sources, and ${sources
    .filter((s) => !s.present)
    .map((s) => s.missing)
    .join('; ')}`;
}

export function buildSignals(facts: AnalysisFacts): Signal[] {
  const out: Signal[] = [];
  const { places, yelp, website, query } = facts;
  const pStatus = statusOf(places.status);
  const pSource = places.source;
  const yStatus = statusOf(yelp.status);
  const ySource = yelp.source;
  const gFailed = googleFailed(places);
  const yFailed = yelpFailed(yelp);

  // Visibility
  if (places.status === 'error') out.push(notCounted('googleProfile', gFailed, `Google Business Profile could not be verified: ${places.error}`));
  else out.push(sig('googleProfile', pStatus, places.found ? 1 : 0, places.found ? 'Google Business Profile found' : `No Google Business Profile found for "${places.searchTerm}"`, Boolean(places.found), pSource));
  if (yelp.status === 'error') out.push(notCounted('yelpListing', yFailed, `Yelp listing could not be verified: ${yelp.error}`));
  else out.push(sig('yelpListing', yStatus, yelp.found ? 1 : 0, yelp.found ? 'Listed on Yelp' : `No Yelp listing found for "${yelp.searchTerm}"`, Boolean(yelp.found), ySource));

  const comparisons = citationComparisons(facts);
  if (comparisons.length === 0) {
    const gap = citationGap(facts);
    out.push(notCounted('citationConsistency', `name, address and phone could not be compared: ${gap}`, `Name, address and phone could not be compared: ${gap}`));
  } else {
    const matches = comparisons.filter((c) => c.match).length;
    const mismatches = comparisons.filter((c) => !c.match);
    const simulated = comparisons.some((c) => c.simulated);
    const text =
      mismatches.length === 0
        ? `Name, address and phone agree across ${comparisons.length} comparisons`
        : `${matches} of ${comparisons.length} name/address/phone checks agree; ` +
          mismatches.map((m) => `${m.field} on ${m.b.source} (${m.b.value}) differs from ${m.a.source} (${m.a.value})`).join('; ');
    out.push(sig('citationConsistency', simulated ? 'simulated' : 'verified', matches / comparisons.length, text, Math.round((100 * matches) / comparisons.length), simulated ? pSource ?? ySource : undefined));
  }

  if (website.facts && website.status === 'live') {
    const links = Object.entries(website.facts.socialLinks).filter(([, v]) => v).map(([k]) => k);
    out.push(sig('socialLinks', 'verified', links.length >= 2 ? 1 : links.length === 1 ? 0.5 : 0, links.length ? `Website links to ${links.join(', ')}` : 'Website does not link to any social profile', links.length));
  } else if (website.status === 'simulated') {
    out.push(notCounted('socialLinks', 'the website is sample data (no Google Places key configured to find the real one), so its links cannot be read', 'Social profile links need the real website (sample data here)'));
  } else {
    const absent = websiteAbsence(facts);
    if (absent.status === 'unverified') out.push(notCounted('socialLinks', absent.reason, website.status === 'error' ? `Social profile links not checked: ${absent.reason}` : ''));
    else out.push(sig('socialLinks', absent.status, 0, 'No website to link social profiles from', null, absent.source));
  }

  // Reputation
  if (places.status === 'error') {
    out.push(notCounted('googleRating', gFailed, `Google reviews could not be verified: ${places.error}`));
    out.push(notCounted('googleReviews', gFailed));
  } else if (!places.profile) {
    out.push(sig('googleRating', pStatus, 0, 'No Google reviews (no Google profile found)', null, pSource));
    out.push(sig('googleReviews', pStatus, 0, '', 0, pSource));
  } else {
    const { rating, reviewCount } = places.profile;
    out.push(sig('googleRating', pStatus, ratingFraction(rating), rating === null ? 'No Google rating yet' : `Google rating ${rating.toFixed(1)}★`, rating, pSource));
    out.push(sig('googleReviews', pStatus, reviewFraction(reviewCount, 150), `${reviewCount} Google review${reviewCount === 1 ? '' : 's'}${reviewCount < 25 ? ' (few for customers to judge by)' : ''}`, reviewCount, pSource));
  }
  if (yelp.status === 'error') {
    out.push(notCounted('yelpRating', yFailed, `Yelp reviews could not be verified: ${yelp.error}`));
    out.push(notCounted('yelpReviews', yFailed));
  } else if (!yelp.listing) {
    out.push(sig('yelpRating', yStatus, 0, 'No Yelp reviews (no Yelp listing found)', null, ySource));
    out.push(sig('yelpReviews', yStatus, 0, '', 0, ySource));
  } else {
    const { rating, reviewCount } = yelp.listing;
    out.push(sig('yelpRating', yStatus, ratingFraction(rating), rating === null ? 'No Yelp rating yet' : `Yelp rating ${rating.toFixed(1)}★`, rating, ySource));
    out.push(sig('yelpReviews', yStatus, reviewFraction(reviewCount, 100), `${reviewCount} Yelp review${reviewCount === 1 ? '' : 's'}`, reviewCount, ySource));
  }

  // Profile quality
  const profileKeys = ['openingHours', 'photos', 'phone', 'profileWebsite', 'operational'] as const;
  if (places.status === 'error') {
    profileKeys.forEach((k, i) => out.push(notCounted(k, gFailed, i === 0 ? `Google profile details could not be verified: ${places.error}` : '')));
  } else if (!places.profile) {
    profileKeys.forEach((k, i) => out.push(sig(k, pStatus, 0, i === 0 ? 'No Google profile to hold hours, photos and phone' : '', null, pSource)));
  } else {
    const p = places.profile;
    out.push(sig('openingHours', pStatus, p.openingHours.length ? 1 : 0, p.openingHours.length ? 'Opening hours listed' : 'Opening hours missing on Google', p.openingHours.length > 0, pSource));
    out.push(sig('photos', pStatus, Math.min(1, p.photosCount / 10), `${p.photosCount} photo${p.photosCount === 1 ? '' : 's'} on the Google profile`, p.photosCount, pSource));
    // A colon, not brackets: US numbers are written '(925) 555-0109', and '((925) …)' reads as a typo.
    out.push(sig('phone', pStatus, p.phone ? 1 : 0, p.phone ? `Phone number listed: ${p.phone}` : 'No phone number on Google', p.phone, pSource));
    out.push(sig('profileWebsite', pStatus, p.website ? 1 : 0, p.website ? 'Website linked from the Google profile' : 'No website linked from the Google profile', p.website, pSource));
    const operational = p.businessStatus === 'OPERATIONAL';
    out.push(sig('operational', pStatus, operational ? 1 : 0, operational ? 'Listed as operational' : `Google lists the business as ${p.businessStatus ?? 'unknown status'}`, p.businessStatus, pSource));
  }

  // Website trust and content quality
  const siteKeys = ['https', 'securityHeaders', 'performance', 'mobileViewport', 'structuredData', 'title', 'metaDescription', 'headings', 'imageAlt', 'wordCount', 'contactDetails', 'booking'] as const;
  const w = website.facts;
  if (!w) {
    const absent = websiteAbsence(facts);
    siteKeys.forEach((k) => {
      const first = k === 'https' || k === 'title';
      if (absent.status === 'unverified') out.push(notCounted(k, absent.reason, first ? `Website not measured: ${absent.reason}` : ''));
      else out.push(sig(k, absent.status, 0, first ? absent.listed : '', null, absent.source));
    });
  } else {
    const st = statusOf(website.status);
    const src = website.source;
    const h = w.securityHeaders;
    const headerCount = [h.hsts, h.csp, h.xContentTypeOptions, h.frameProtection].filter(Boolean).length;
    const perf = performanceScore(w.responseTimeMs, w.bytes);
    out.push(sig('https', st, w.https ? 1 : 0, w.https ? 'Website served over HTTPS' : 'Website is not served over HTTPS (browsers mark it "Not secure")', w.https, src));
    const missingHeaders = [!h.hsts && 'HSTS', !h.csp && 'Content-Security-Policy', !h.xContentTypeOptions && 'X-Content-Type-Options', !h.frameProtection && 'X-Frame-Options'].filter(Boolean);
    out.push(sig('securityHeaders', st, headerCount / 4, headerCount === 4 ? 'All four security headers present' : `${headerCount} of 4 security headers present (missing: ${missingHeaders.join(', ')})`, headerCount, src));
    out.push(sig('performance', st, perf / 100, `Server answered in ${w.responseTimeMs} ms with ${Math.round(w.bytes / 1024)} KB (performance ${perf}/100)`, perf, src));
    out.push(sig('mobileViewport', st, w.viewport ? 1 : 0, w.viewport ? 'Mobile-friendly viewport set' : 'No mobile viewport: the page may render poorly on phones', w.viewport, src));
    const lbPresent = w.localBusiness !== null || w.structuredDataTypes.includes('LocalBusiness');
    out.push(sig('structuredData', st, lbPresent ? 1 : w.structuredDataTypes.length ? 0.5 : 0, lbPresent ? 'LocalBusiness structured data present' : w.structuredDataTypes.length ? `Structured data present (${w.structuredDataTypes.slice(0, 3).join(', ')}) but no LocalBusiness` : 'No structured data for search engines', lbPresent, src));

    const titleLen = w.title?.length ?? 0;
    out.push(sig('title', st, !w.title ? 0 : titleLen >= 10 && titleLen <= 70 ? 1 : 0.5, !w.title ? 'Page title missing' : titleLen >= 10 && titleLen <= 70 ? `Page title: "${w.title}"` : `Page title is ${titleLen} characters (aim for 10-70)`, w.title, src));
    const descLen = w.metaDescription?.length ?? 0;
    out.push(sig('metaDescription', st, !w.metaDescription ? 0 : descLen >= 50 && descLen <= 160 ? 1 : 0.5, !w.metaDescription ? 'Meta description missing: search results show random page text' : descLen >= 50 && descLen <= 160 ? 'Meta description present' : `Meta description is ${descLen} characters (aim for 50-160)`, w.metaDescription, src));
    out.push(sig('headings', st, w.headings.h1 === 1 ? 1 : w.headings.h1 > 1 ? 0.75 : w.headings.h2 > 0 ? 0.5 : 0, w.headings.h1 === 0 ? 'No main heading (H1) on the page' : w.headings.h1 > 1 ? `${w.headings.h1} H1 headings (one is clearer)` : 'Clear main heading (H1)', w.headings.h1, src));
    const alt = w.images.total === 0 ? 1 : w.images.withAlt / w.images.total;
    out.push(sig('imageAlt', st, alt, w.images.total === 0 ? 'No images to describe' : `${w.images.withAlt} of ${w.images.total} images have alt text`, Math.round(alt * 100), src));
    out.push(sig('wordCount', st, w.wordCount / 300, `${w.wordCount} words of visible content${w.wordCount < 300 ? ' (thin for search engines)' : ''}`, w.wordCount, src));
    const contact = (w.contact.phones.length ? 0.5 : 0) + (w.contact.emails.length || w.contact.contactForm ? 0.5 : 0);
    out.push(sig('contactDetails', st, contact, contact === 1 ? 'Phone and email/contact form on the page' : contact === 0 ? 'No contact details found on the page' : 'Only partial contact details on the page', contact, src));
    const bookingNeeded = /service|healthcare|restaurant/i.test(query.businessType);
    out.push(sig('booking', st, w.booking.present ? 1 : 0, w.booking.present ? 'Online booking or ordering available' : `No online booking or ordering${bookingNeeded ? ' (customers must call)' : ''}`, w.booking.present, src));
  }

  // Competitive intelligence
  const compKeys = ['ratingPercentile', 'reviewPercentile'] as const;
  const competitorsGap = !query.location
    ? { reason: 'no location was selected', insight: 'Competitive insights not included: no location selected' }
    : places.status === 'error'
      ? { reason: gFailed, insight: `Local competitors could not be verified: ${places.error}` }
      : places.competitorsError
        ? { reason: `local competitors could not be looked up (${withoutStop(places.competitorsError)})`, insight: `Local competitors could not be verified: ${places.competitorsError}` }
        : !places.competitors || places.competitors.length < 3
          ? { reason: `too few same-type businesses were found nearby to compare (${places.competitors?.length ?? 0})`, insight: 'Too few same-type businesses found nearby to compare' }
          : null;
  if (competitorsGap) {
    compKeys.forEach((k, i) => out.push(notCounted(k, competitorsGap.reason, i === 0 ? competitorsGap.insight : '')));
  } else {
    const comps: Competitor[] = places.competitors!;
    const src = places.competitorsSource ?? pSource;
    if (!places.profile) {
      compKeys.forEach((k, i) => out.push(sig(k, pStatus, 0, i === 0 ? `Not on Google, so invisible next to ${comps.length} local competitors` : '', 0, src)));
    } else {
      const ratings = comps.map((c) => c.rating ?? 0);
      const rp = percentile(places.profile.rating ?? 0, ratings);
      const vp = percentile(places.profile.reviewCount, comps.map((c) => c.reviewCount));
      const medianReviews = [...comps.map((c) => c.reviewCount)].sort((a, b) => a - b)[Math.floor(comps.length / 2)]!;
      out.push(sig('ratingPercentile', pStatus, rp / 100, `Rating higher than ${rp}% of ${comps.length} local competitors`, rp, src));
      out.push(sig('reviewPercentile', pStatus, vp / 100, `More reviews than ${vp}% of local competitors (median ${medianReviews}, yours ${places.profile.reviewCount})`, vp, src));
    }
  }
  return out;
}
