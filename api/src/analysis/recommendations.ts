import type { Recommendation } from '@site/contracts/analysis';
import type { AnalysisFacts } from './types';
import type { Signal, SignalKey } from './scoring';

/*
 * Recommendations derived from the findings: each rule looks at one or more signals and, when it fires, gives a
 * priority and a value (how much it moves the scorecard or the business). Sorted High -> Low, then by value.
 * Rules never fire on unverified signals: we do not advise fixing what we could not check; and the website's rules
 * need a website (without one, 'Create a simple, fast website' is the advice, not its headers or alt text).
 */

interface Candidate extends Recommendation {
  value: number;
  basedOnSimulation: boolean;
}

const PRIORITY_RANK = { High: 0, Medium: 1, Low: 2 } as const;

/** Spaces collapsed and trimmed: text from providers (an address, a title) may carry runs of them. */
const tidy = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `text` without the characters of `chars` at either end (a loop: a trailing-class regexp is quadratic). */
function trimmed(text: string, chars: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/**
 * A finding followed by why it matters: "12 Google reviews. Customers trust…". A signal may have no finding to
 * state (no Google profile: no review count), and then the item is the sentence alone, never ". Customers trust…".
 */
function withInsight(insight: string, sentence: string): string {
  const finding = trimmed(tidy(insight), ' .,;:');
  if (!finding) return sentence;
  return /[!?]$/.test(finding) ? `${finding} ${sentence}` : `${finding}. ${sentence}`;
}

export function buildRecommendations(facts: AnalysisFacts, signals: readonly Signal[]): Recommendation[] {
  const by = new Map<string, Signal>(signals.map((s) => [s.key, s]));
  const counted = (key: SignalKey) => {
    const s = by.get(key);
    return s && s.status !== 'unverified' ? s : null;
  };
  const below = (key: SignalKey, threshold: number) => {
    const s = counted(key);
    return s !== null && s.fraction < threshold ? s : null;
  };
  const out: Candidate[] = [];
  const add = (c: Omit<Candidate, 'basedOnSimulation'>, ...used: Array<Signal | null>) =>
    out.push({ ...c, basedOnSimulation: used.some((s) => s?.status === 'simulated') });

  const type = facts.query.businessType.toLowerCase();
  const town = facts.query.location ?? 'your area';
  const p = facts.places.profile;
  const w = facts.website.facts;

  let s: Signal | null;
  if ((s = below('googleProfile', 1))) {
    add({ priority: 'High', category: 'Visibility', value: 100, title: 'Claim your Google Business Profile',
      description: `No Google Business Profile was found. Most local customers find businesses on Google Maps first; without a profile you are invisible in "near me" searches in ${town}.`,
      actions: ['Claim or create the profile at business.google.com', 'Add hours, phone, website, categories and at least 10 photos', 'Verify the listing by postcard or phone'] }, s);
  }
  if ((s = below('citationConsistency', 1))) {
    add({ priority: 'High', category: 'Visibility', value: 80, title: 'Make your name, address and phone match everywhere',
      description: withInsight(s.insight, 'Mismatched details confuse customers and lower local search ranking.'),
      actions: ['Pick one exact spelling of name, address and phone', 'Update Google, Yelp and the website structured data to match', 'Check directory listings (Apple Maps, Bing Places) as well'] }, s);
  }
  const reviews = below('reviewPercentile', 0.5);
  if (reviews) {
    add({ priority: 'High', category: 'Reputation', value: 90, title: 'Catch up with local competitors on reviews',
      description: withInsight(reviews.insight, 'Review count is one of the strongest local ranking and trust signals.'),
      actions: ['Send an automated review request by text or email after every visit', 'Add a review link to receipts and your website', 'Reply to every review within 48 hours'] }, reviews);
  } else if ((s = below('googleReviews', 0.6))) {
    add({ priority: 'Medium', category: 'Reputation', value: 60, title: 'Collect more Google reviews',
      description: withInsight(s.insight, 'Customers trust businesses with a steady stream of recent reviews.'),
      actions: ['Automate review requests after each sale or appointment', 'Put a QR code to your review page at the counter'] }, s);
  }
  const rating = counted('googleRating');
  if (rating && p && p.rating !== null && p.rating < 4) {
    add({ priority: 'High', category: 'Reputation', value: 85, title: 'Lift your Google rating above 4 stars',
      description: `Your Google rating is ${p.rating.toFixed(1)}★. Many customers filter out businesses below 4 stars.`,
      actions: ['Reply to negative reviews publicly and offer to make it right', 'Look for repeated complaints and fix the cause', 'Ask satisfied customers for reviews to balance the picture'] }, rating);
  }
  const noSite = counted('https');
  if (noSite && !w) {
    add({ priority: 'High', category: 'Website Trust', value: 95, title: 'Create a simple, fast website',
      description: 'No website was found on your Google profile. A one-page site with services, hours and a booking link turns searches into customers.',
      actions: ['Publish a one-page site on HTTPS with your services, hours and phone', 'Link it from your Google profile', 'Add LocalBusiness structured data'] }, noSite);
  }
  if (w && (s = below('https', 1))) {
    add({ priority: 'High', category: 'Website Trust', value: 88, title: 'Serve your website over HTTPS',
      description: 'Your website is not served over HTTPS; browsers show it as "Not secure" and forms can be read in transit.',
      actions: ['Turn on a free TLS certificate (Let\'s Encrypt or your host\'s)', 'Redirect every http:// address to https://', 'Enable HSTS once HTTPS works everywhere'] }, s);
  }
  if (w && (s = below('mobileViewport', 1))) {
    add({ priority: 'High', category: 'Website Trust', value: 70, title: 'Make the website mobile-friendly',
      description: 'The page has no responsive viewport, so phones show a shrunken desktop page. Most local searches happen on phones.',
      actions: ['Add <meta name="viewport" content="width=device-width, initial-scale=1">', 'Check the layout on a phone'] }, s);
  }
  const booking = w ? below('booking', 1) : null;
  if (booking && /service|healthcare|restaurant/.test(type)) {
    const restaurant = type === 'restaurant';
    add({ priority: 'High', category: 'AI Automation', value: 92, title: restaurant ? 'Take reservations and orders online' : 'Add online booking',
      description: restaurant
        ? 'Customers cannot reserve or order online from your website, so every booking is a phone call during service.'
        : 'Customers cannot book online from your website, so every appointment takes a phone call and often a callback.',
      actions: restaurant
        ? ['Add online ordering (Toast, Square) and reservations (OpenTable, Resy)', 'Let an AI assistant answer menu and hours questions', 'Link ordering from your Google profile']
        : ['Add a booking widget (Calendly, Square Appointments, Acuity)', 'Send automatic confirmations and reminders', 'Link "Book online" from your Google profile'] }, booking);
  }
  if (w && (s = below('metaDescription', 1))) {
    add({ priority: 'Medium', category: 'Content Quality', value: 50, title: 'Write a meta description for search results',
      description: withInsight(s.insight, 'The description is the text people read under your name in Google before they click.'),
      actions: [`Write 50-160 characters naming your main service and ${town}`, 'Give every important page its own description'] }, s);
  }
  if (w && (s = below('title', 1))) {
    add({ priority: 'Medium', category: 'Content Quality', value: 48, title: 'Fix the page title',
      description: withInsight(s.insight, 'The title is the clickable headline in search results.'),
      actions: ['Use "Business name | main service in town", 10-70 characters'] }, s);
  }
  if ((s = below('yelpListing', 1))) {
    add({ priority: 'Medium', category: 'Visibility', value: 55, title: 'Claim your Yelp listing',
      description: 'No Yelp listing was found. Yelp feeds Apple Maps and many voice assistants.',
      actions: ['Claim the listing at biz.yelp.com', 'Match name, address and phone to your Google profile'] }, s);
  }
  if ((s = below('openingHours', 1)) && p) {
    add({ priority: 'Medium', category: 'Profile Quality', value: 52, title: 'Add opening hours to Google',
      description: 'Your Google profile has no opening hours; customers skip businesses that may be closed.',
      actions: ['Add regular and holiday hours', 'Keep them in sync with the website automatically'] }, s);
  }
  if (w && (s = below('securityHeaders', 0.5))) {
    add({ priority: 'Medium', category: 'Website Trust', value: 40, title: 'Add basic security headers',
      description: withInsight(s.insight, 'Security headers protect visitors from clickjacking and content injection.'),
      actions: ['Enable HSTS, X-Content-Type-Options: nosniff and X-Frame-Options (or CSP frame-ancestors)', 'Add a Content-Security-Policy'] }, s);
  }
  if (w && (s = below('performance', 0.7))) {
    add({ priority: 'Medium', category: 'Website Trust', value: 45, title: 'Speed up your website',
      description: withInsight(s.insight, 'Slow pages lose mobile visitors before they load.'),
      actions: ['Compress images and serve them in modern formats', 'Use a CDN or a faster host', 'Remove unused scripts and plugins'] }, s);
  }
  if (w && (s = below('contactDetails', 1))) {
    add({ priority: 'Medium', category: 'Content Quality', value: 42, title: 'Show how to reach you on every page',
      description: withInsight(s.insight, 'Visitors who cannot find a phone number or form leave.'),
      actions: ['Put a click-to-call phone number in the header', 'Add a short contact form that forwards to your inbox or CRM'] }, s);
  }
  if ((s = below('photos', 1)) && p) {
    add({ priority: 'Low', category: 'Profile Quality', value: 30, title: 'Add more photos to your Google profile',
      description: withInsight(s.insight, 'Profiles with photos get more requests for directions and calls.'),
      actions: ['Upload at least 10 photos: storefront, interior, team, products or work'] }, s);
  }
  if (w && (s = below('structuredData', 1))) {
    add({ priority: 'Low', category: 'Content Quality', value: 28, title: 'Add LocalBusiness structured data',
      description: 'Structured data tells search engines your exact name, address, phone and hours.',
      actions: ['Add a LocalBusiness JSON-LD block matching your Google profile'] }, s);
  }
  if (w && (s = below('imageAlt', 0.8))) {
    add({ priority: 'Low', category: 'Content Quality', value: 20, title: 'Describe your images',
      description: withInsight(s.insight, 'Alt text helps screen-reader users and image search.'),
      actions: ['Write a short alt text for every meaningful image'] }, s);
  }
  if (w && (s = below('wordCount', 1))) {
    add({ priority: 'Low', category: 'Content Quality', value: 22, title: 'Say more about your services',
      description: withInsight(s.insight, 'Pages with a few hundred words about services and area rank better.'),
      actions: ['Describe each service, who it is for and the towns you serve', 'Answer the questions customers ask on the phone'] }, s);
  }
  const customer = counted('googleReviews');
  add({ priority: 'Medium', category: 'AI Automation', value: 58, title: 'Answer common questions 24/7 with an AI assistant',
    description: 'Hours, prices, availability and directions are most of the calls a small business gets; an assistant on the website and messaging apps answers them instantly and hands the rest to you.',
    actions: ['List the 20 questions customers ask most', 'Deploy a website chat assistant trained on them', 'Route bookings and complex requests to staff'] }, customer);

  return out
    .sort((a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || b.value - a.value)
    .map(({ value: _value, basedOnSimulation, ...r }) => ({
      ...r,
      description: tidy(basedOnSimulation ? `${r.description} (Based on simulated data.)` : r.description),
    }));
}
