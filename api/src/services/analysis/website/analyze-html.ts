import type { LocalBusinessData, WebsiteFacts } from '../types';
import type { FetchedPage } from './fetch-website';
import { BOOKING_CATEGORIES, detectTechnologies } from './technologies';

/*
 * Reads the facts the scorecard needs from one fetched HTML page. A small tag scanner is enough for these
 * checks (head tags, headings, images, links, JSON-LD); the page is never executed.
 */

const LOCAL_BUSINESS_TYPES = new Set(
  [
    'LocalBusiness', 'Restaurant', 'FoodEstablishment', 'CafeOrCoffeeShop', 'Bakery', 'BarOrPub', 'FastFoodRestaurant',
    'Store', 'ClothingStore', 'Florist', 'HomeGoodsStore', 'Pharmacy', 'MedicalBusiness', 'MedicalClinic', 'Dentist',
    'Physician', 'Optician', 'HealthAndBeautyBusiness', 'BeautySalon', 'HairSalon', 'DaySpa', 'NailSalon',
    'HomeAndConstructionBusiness', 'Plumber', 'Electrician', 'HVACBusiness', 'HousePainter', 'RoofingContractor',
    'ProfessionalService', 'AutoRepair', 'AutomotiveBusiness', 'LegalService', 'Attorney', 'AccountingService',
    'FinancialService', 'RealEstateAgent', 'ChildCare', 'DryCleaningOrLaundry', 'PetStore', 'SportsActivityLocation',
    'ExerciseGym', 'LodgingBusiness', 'Hotel', 'EmergencyService', 'EntertainmentBusiness',
  ].map((t) => t.toLowerCase()),
);

type Tag = { name: string; attrs: Record<string, string>; index: number; end: number };

function decodeEntities(text: string): string {
  return text
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)));
}

function parseAttrs(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  const re = /([^\s=/"'>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    attrs[m[1]!.toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

function scanTags(html: string): Tag[] {
  const tags: Tag[] = [];
  const re = /<([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    tags.push({ name: m[1]!.toLowerCase(), attrs: parseAttrs(m[2] ?? ''), index: m.index, end: m.index + m[0].length });
  }
  return tags;
}

function innerText(html: string, from: number, tagName: string): string {
  const close = html.toLowerCase().indexOf(`</${tagName}`, from);
  const raw = html.slice(from, close === -1 ? from + 500 : close);
  return decodeEntities(raw.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
}

function visibleText(html: string): string {
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<[^>]*>/g, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
}

function addressToString(address: unknown): string | null {
  if (typeof address === 'string') return address.trim() || null;
  if (address && typeof address === 'object') {
    const a = address as Record<string, unknown>;
    const parts = [a.streetAddress, a.addressLocality, a.addressRegion, a.postalCode].filter((p) => typeof p === 'string' && p.trim());
    return parts.length ? parts.join(', ') : null;
  }
  return null;
}

function readJsonLd(html: string): { types: string[]; localBusiness: LocalBusinessData | null } {
  const types = new Set<string>();
  let localBusiness: LocalBusinessData | null = null;
  const re = /<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script\s*>/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    let data: unknown;
    try {
      data = JSON.parse(m[1]!.trim());
    } catch {
      continue;
    }
    const queue = asArray(data);
    while (queue.length) {
      const node = queue.shift();
      if (!node || typeof node !== 'object') continue;
      const obj = node as Record<string, unknown>;
      queue.push(...asArray(obj['@graph']));
      const nodeTypes = asArray(obj['@type']).filter((t): t is string => typeof t === 'string');
      for (const t of nodeTypes) types.add(t);
      const lb = nodeTypes.find((t) => LOCAL_BUSINESS_TYPES.has(t.toLowerCase()));
      if (lb && !localBusiness) {
        localBusiness = {
          type: lb,
          name: typeof obj.name === 'string' ? obj.name.trim() : null,
          telephone: typeof obj.telephone === 'string' ? obj.telephone.trim() : null,
          address: addressToString(obj.address),
        };
      }
    }
  }
  return { types: [...types], localBusiness };
}

const BOOKING_TEXT = /\b(book(?:\s+(?:now|online|an?\s+appointment|a\s+table))|schedule\s+(?:an?\s+)?(?:appointment|service|consultation|visit)|make\s+a\s+reservation|reserve\s+(?:a\s+table|now|online)|order\s+(?:online|now|ahead|pickup|delivery)|start\s+(?:your\s+)?order)\b/i;
const BOOKING_HREF = /(calendly\.com|acuityscheduling\.com|vagaro\.com|mindbodyonline\.com|opentable\.com|resy\.com|toasttab\.com|doordash\.com|grubhub\.com|ubereats\.com|square\.site|squareup\.com\/appointments|\/(?:book|booking|bookings|appointments?|reservations?|order(?:-online)?|schedule)(?:[/?#]|$))/i;
const PHONE_TEXT = /(?:\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/g;
const EMAIL_TEXT = /\b[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}\b/gi;

function headerString(headers: FetchedPage['headers'], name: string): string {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

export function analyzeHtml(page: FetchedPage): WebsiteFacts {
  const html = page.body;
  const tags = scanTags(html);
  const byName = (n: string) => tags.filter((t) => t.name === n);

  const titleTag = byName('title')[0];
  const title = titleTag ? innerText(html, titleTag.end, 'title') || null : null;
  const metas = byName('meta');
  const metaContent = (key: string) =>
    metas.find((m) => (m.attrs.name ?? m.attrs.property ?? '').toLowerCase() === key)?.attrs.content?.trim() || null;

  const h1s = byName('h1');
  const images = byName('img');
  const anchors = byName('a');
  const hrefs = anchors.map((a) => a.attrs.href ?? '');
  const text = visibleText(html);

  const phones = new Set<string>();
  const emails = new Set<string>();
  for (const href of hrefs) {
    if (/^tel:/i.test(href)) phones.add(decodeURIComponent(href.slice(4)).trim());
    if (/^mailto:/i.test(href)) emails.add(decodeURIComponent(href.slice(7).split('?')[0] ?? '').trim());
  }
  for (const m of text.match(PHONE_TEXT) ?? []) phones.add(m.trim());
  for (const m of text.match(EMAIL_TEXT) ?? []) emails.add(m.trim());
  const forms = byName('form');
  const inputs = [...byName('input'), ...byName('textarea')];
  const contactForm = forms.length > 0 && inputs.some((i) => i.attrs.type === 'email' || /mail|message|phone/i.test(i.attrs.name ?? ''));

  const technologies = detectTechnologies(html, page.headers);
  const bookingLinks = new Set<string>();
  anchors.forEach((a) => {
    const href = a.attrs.href ?? '';
    const label = innerText(html, a.end, 'a');
    if (BOOKING_HREF.test(href) || BOOKING_TEXT.test(label)) bookingLinks.add(href || label);
  });
  for (const b of byName('button')) {
    const label = innerText(html, b.end, 'button');
    if (BOOKING_TEXT.test(label)) bookingLinks.add(label);
  }
  const bookingTech = technologies.filter((t) => BOOKING_CATEGORIES.has(t.category));

  const social = (re: RegExp) => hrefs.find((h) => re.test(h)) ?? null;
  const csp = headerString(page.headers, 'content-security-policy');
  const { types, localBusiness } = readJsonLd(html);
  const finalUrl = new URL(page.finalUrl);

  return {
    requestedUrl: page.requestedUrl,
    finalUrl: page.finalUrl,
    https: finalUrl.protocol === 'https:',
    statusCode: page.status,
    responseTimeMs: page.responseTimeMs,
    bytes: page.bytes,
    securityHeaders: {
      hsts: Boolean(headerString(page.headers, 'strict-transport-security')),
      csp: Boolean(csp),
      xContentTypeOptions: /nosniff/i.test(headerString(page.headers, 'x-content-type-options')),
      frameProtection: Boolean(headerString(page.headers, 'x-frame-options')) || /frame-ancestors/i.test(csp),
    },
    title,
    metaDescription: metaContent('description'),
    headings: {
      h1: h1s.length,
      h2: byName('h2').length,
      h3: byName('h3').length,
      firstH1: h1s[0] ? innerText(html, h1s[0].end, 'h1') || null : null,
    },
    viewport: metas.some((m) => (m.attrs.name ?? '').toLowerCase() === 'viewport' && /width\s*=\s*device-width/i.test(m.attrs.content ?? '')),
    images: { total: images.length, withAlt: images.filter((i) => (i.attrs.alt ?? '').trim().length > 0).length },
    structuredDataTypes: types,
    localBusiness,
    contact: { phones: [...phones].slice(0, 10), emails: [...emails].slice(0, 10), contactForm },
    booking: { present: bookingLinks.size > 0 || bookingTech.length > 0, links: [...bookingLinks].slice(0, 10) },
    socialLinks: {
      facebook: social(/^https?:\/\/(?:www\.|m\.)?facebook\.com\/(?!sharer)/i),
      instagram: social(/^https?:\/\/(?:www\.)?instagram\.com\//i),
      linkedin: social(/^https?:\/\/(?:[a-z]+\.)?linkedin\.com\/(?:company|in)\//i),
    },
    wordCount: text ? text.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w)).length : 0,
    technologies,
    siteName: metaContent('og:site_name') ?? localBusiness?.name ?? null,
  };
}
