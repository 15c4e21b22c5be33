import { DomUtils, parseDocument } from 'htmlparser2';
import type { LocalBusinessData, WebsiteFacts } from '../types';
import type { FetchedPage } from './fetch-website';
import { BOOKING_CATEGORIES, detectTechnologies } from './technologies';

/*
 * Reads the facts the scorecard needs from one fetched HTML page, parsed by htmlparser2 (never executed).
 * Technologies are still matched on the raw source (technologies.ts): their rules look for asset hosts and globals.
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

type Document = ReturnType<typeof parseDocument>;
type Node = Document['children'][number];
type Element = Extract<Node, { attribs: Record<string, string> }>;

/** Never rendered: their text is not visible text and their markup is not the page's. */
const NOT_RENDERED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'title']);

/*
 * htmlparser2 nests what a browser would close: in `<a>A<a>B` and `<h1>A<h2>B` the second element (and all that
 * follows) stays inside the first. A browser ends the link at the next link and the heading at the next heading,
 * so a label or heading text stops there too.
 */
const LINK_ENDS = new Set(['a']);
const HEADING_ENDS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const BUTTON_ENDS = new Set(['button']);

/**
 * The text a person reads inside `nodes`: text nodes (entities decoded by the parser) joined, whitespace collapsed;
 * not-rendered elements are skipped, and reading stops at the first element named in `endsAt`.
 * Walked with a stack of its own, not by recursion: a page of 100,000 nested elements is ordinary HTML to the
 * parser and must not overflow the call stack.
 */
function textOf(nodes: readonly Node[], endsAt: ReadonlySet<string> = new Set()): string {
  const parts: string[] = [];
  const stack: Node[] = [...nodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (DomUtils.isText(node)) parts.push(node.data);
    else if (DomUtils.isTag(node)) {
      if (endsAt.has(node.name)) break;
      if (!NOT_RENDERED.has(node.name)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * One parse of the page (htmlparser2: the tokenizer knows comments, raw-text script/style, every named and numeric
 * entity, any attribute order and case, and closes what the author left open). Elements are grouped by lowercase
 * name; nothing inside a <template> counts, since it is not rendered.
 */
function parsePage(html: string) {
  const document = parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true });
  const byName = new Map<string, Element[]>();
  // Document order, without recursion (see textOf).
  const stack: Node[] = [...document.children].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!DomUtils.isTag(node) || node.name === 'template') continue;
    const group = byName.get(node.name);
    if (group) group.push(node);
    else byName.set(node.name, [node]);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return { document, elements: (name: string): Element[] => byName.get(name) ?? [] };
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

/** JSON-LD nodes read per page: a business describes itself in a handful; the rest cannot change the facts. */
const MAX_JSON_LD_NODES = 10_000;

function readJsonLd(scripts: readonly Element[]): { types: string[]; localBusiness: LocalBusinessData | null } {
  const types = new Set<string>();
  let localBusiness: LocalBusinessData | null = null;
  for (const script of scripts) {
    if ((script.attribs.type ?? '').trim().toLowerCase() !== 'application/ld+json') continue;
    let data: unknown;
    try {
      data = JSON.parse(DomUtils.textContent(script).trim());
    } catch {
      continue;
    }
    // A read index instead of shift() and a loop instead of push(...spread): a @graph of 200,000 nodes is linear
    // work and no call exceeds the argument limit.
    const queue = asArray(data);
    for (let next = 0; next < queue.length && next < MAX_JSON_LD_NODES; next++) {
      const node = queue[next];
      if (!node || typeof node !== 'object') continue;
      const obj = node as Record<string, unknown>;
      for (const child of asArray(obj['@graph'])) queue.push(child);
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

/*
 * Every pattern here runs on text a stranger's web page chose, so each one is linear: no unbounded quantifier
 * that can rescan what another start position already scanned (eslint-plugin-regexp checks the literals; the
 * e-mail scan below is hand-written because no single pattern finds addresses in linear time). The whole analysis
 * also runs under a time budget in a worker thread (page-analyzer.ts).
 */
const BOOKING_TEXT = /\b(?:book\s+(?:now|online|an?\s+appointment|a\s+table)|schedule\s+(?:an?\s+)?(?:appointment|service|consultation|visit)|make\s+a\s+reservation|reserve\s+(?:a\s+table|now|online)|order\s+(?:online|now|ahead|pickup|delivery)|start\s+(?:your\s+)?order)\b/i;
const BOOKING_HREF = /calendly\.com|acuityscheduling\.com|vagaro\.com|mindbodyonline\.com|opentable\.com|resy\.com|toasttab\.com|doordash\.com|grubhub\.com|ubereats\.com|square\.site|squareup\.com\/appointments|\/(?:book|booking|bookings|appointments?|reservations?|order(?:-online)?|schedule)(?:[/?#]|$)/i;
const PHONE_TEXT = /(?:\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/g;

const EMAIL_LOCAL_CHAR = /[\w%+.-]/;
const EMAIL_DOMAIN_CHAR = /[\da-z.-]/i;
/** RFC 5321's limits: 64 characters before the '@', 255 after it. */
const EMAIL_LOCAL_MAX = 64;
const EMAIL_DOMAIN_MAX = 255;
const EMAIL_DOMAIN_SHAPE = /^[\da-z](?:[\da-z.-]*[\da-z])?\.[a-z]{2,}$/i;

/**
 * E-mail addresses in visible text, found from each '@' outwards: at most 64 characters are read to its left and
 * 255 to its right, so a page of `a.a.a…` (no '@') costs one pass and `@@@…` a bounded amount per '@'; a regular
 * expression would rescan the run from every start.
 */
export function emailsIn(text: string): string[] {
  const found: string[] = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < EMAIL_LOCAL_MAX && EMAIL_LOCAL_CHAR.test(text[start - 1]!)) start--;
    let end = at + 1;
    while (end < text.length && end - at - 1 < EMAIL_DOMAIN_MAX && EMAIL_DOMAIN_CHAR.test(text[end]!)) end++;
    // An address starts and ends on a letter or digit (the old pattern's \b): trim punctuation around it.
    while (start < at && !/[\da-z]/i.test(text[start]!)) start++;
    while (end > at + 1 && !/[\da-z]/i.test(text[end - 1]!)) end--;
    const domain = text.slice(at + 1, end);
    if (start < at && EMAIL_DOMAIN_SHAPE.test(domain)) found.push(`${text.slice(start, at)}@${domain}`);
    if (found.length >= 50) break;
  }
  return found;
}

/** A `tel:`/`mailto:` target as written; a malformed %-escape (which makes decodeURIComponent throw) stays raw. */
function decodeTarget(value: string): string {
  try {
    return decodeURIComponent(value).trim();
  } catch {
    return value.trim();
  }
}

function headerString(headers: FetchedPage['headers'], name: string): string {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

export function analyzeHtml(page: FetchedPage): WebsiteFacts {
  const html = page.body;
  const { document, elements: byName } = parsePage(html);

  const titleTag = byName('title')[0];
  // The title's own text (textOf skips <title> itself, so read its children).
  const title = titleTag ? textOf(titleTag.children) || null : null;
  const metas = byName('meta');
  const metaContent = (key: string) =>
    metas.find((m) => (m.attribs.name ?? m.attribs.property ?? '').toLowerCase() === key)?.attribs.content?.trim() || null;

  const h1s = byName('h1');
  const images = byName('img');
  const anchors = byName('a');
  const hrefs = anchors.map((a) => a.attribs.href ?? '');
  const text = textOf(document.children);

  const phones = new Set<string>();
  const emails = new Set<string>();
  for (const href of hrefs) {
    if (/^tel:/i.test(href)) phones.add(decodeTarget(href.slice(4)));
    if (/^mailto:/i.test(href)) emails.add(decodeTarget(href.slice(7).split('?')[0] ?? ''));
  }
  for (const m of text.match(PHONE_TEXT) ?? []) phones.add(m.trim());
  for (const m of emailsIn(text)) emails.add(m);
  const forms = byName('form');
  const inputs = [...byName('input'), ...byName('textarea')];
  const contactForm =
    forms.length > 0 && inputs.some((i) => (i.attribs.type ?? '').toLowerCase() === 'email' || /mail|message|phone/i.test(i.attribs.name ?? ''));

  const generators = metas.filter((m) => (m.attribs.name ?? '').trim().toLowerCase() === 'generator').map((m) => m.attribs.content ?? '');
  const technologies = detectTechnologies(html, page.headers, generators);
  const bookingLinks = new Set<string>();
  anchors.forEach((a) => {
    const href = a.attribs.href ?? '';
    const label = textOf(a.children, LINK_ENDS);
    if (BOOKING_HREF.test(href) || BOOKING_TEXT.test(label)) bookingLinks.add(href || label);
  });
  for (const b of byName('button')) {
    // A button ends at the next button, as in a browser (the parser nests them: without this, N nested buttons
    // would be read N times each).
    const label = textOf(b.children, BUTTON_ENDS);
    if (BOOKING_TEXT.test(label)) bookingLinks.add(label);
  }
  const bookingTech = technologies.filter((t) => BOOKING_CATEGORIES.has(t.category));

  const social = (re: RegExp) => hrefs.find((h) => re.test(h)) ?? null;
  const csp = headerString(page.headers, 'content-security-policy');
  const { types, localBusiness } = readJsonLd(byName('script'));
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
      firstH1: h1s[0] ? textOf(h1s[0].children, HEADING_ENDS) || null : null,
    },
    viewport: metas.some(
      (m) => (m.attribs.name ?? '').toLowerCase() === 'viewport' && /width\s*=\s*device-width/i.test(m.attribs.content ?? ''),
    ),
    images: { total: images.length, withAlt: images.filter((i) => (i.attribs.alt ?? '').trim().length > 0).length },
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
