import type { DetectedTechnology } from '../types';

/**
 * Our own technology rule table: a technology is detected when any of its HTML patterns matches the page
 * source or any of its header patterns matches a response header. Patterns look for tell-tale asset hosts,
 * globals and generator tags, not brand words in the copy.
 */
export interface TechnologyRule {
  name: string;
  category: string;
  html?: RegExp[];
  /** Matched against the content of each `<meta name="generator">` the parser found (not the raw source). */
  generator?: RegExp;
  headers?: Array<{ header: string; pattern: RegExp }>;
}

export const TECHNOLOGY_RULES: readonly TechnologyRule[] = [
  // Site builders and CMS
  { name: 'WordPress', category: 'CMS', html: [/\/wp-(?:content|includes)\//i], generator: /wordpress/i, headers: [{ header: 'link', pattern: /api\.w\.org/i }] },
  { name: 'Shopify', category: 'E-commerce', html: [/cdn\.shopify\.com/i, /Shopify\.theme/], headers: [{ header: 'x-shopid', pattern: /./ }, { header: 'x-shopify-stage', pattern: /./ }] },
  { name: 'Wix', category: 'Site builder', html: [/static\.wixstatic\.com/i], generator: /wix\.com/i, headers: [{ header: 'x-wix-request-id', pattern: /./ }] },
  { name: 'Squarespace', category: 'Site builder', html: [/static1?\.squarespace\.com/i, /<!-- This is Squarespace\. -->/i] },
  { name: 'Webflow', category: 'Site builder', html: [/data-wf-(?:page|site)=/i, /assets\.website-files\.com/i], generator: /webflow/i },
  { name: 'GoDaddy Website Builder', category: 'Site builder', html: [/img\d{0,3}\.wsimg\.com/i], generator: /go ?daddy|starfield/i },
  // JavaScript frameworks and libraries
  { name: 'Next.js', category: 'JavaScript framework', html: [/\/_next\/static\//i, /id="__NEXT_DATA__"/i], headers: [{ header: 'x-powered-by', pattern: /next\.js/i }] },
  { name: 'React', category: 'JavaScript library', html: [/data-reactroot/i, /react(?:-dom)?(?:\.production)?(?:\.min)?\.js/i, /id="__NEXT_DATA__"/i] },
  { name: 'Nuxt', category: 'JavaScript framework', html: [/window\.__NUXT__/, /\/_nuxt\//i] },
  { name: 'Vue.js', category: 'JavaScript framework', html: [/\sdata-v-[0-9a-f]{8}/i, /vue(?:\.runtime)?(?:\.global)?(?:\.prod)?(?:\.min)?\.js/i, /window\.__NUXT__/] },
  { name: 'Angular', category: 'JavaScript framework', html: [/\sng-version="/i] },
  { name: 'jQuery', category: 'JavaScript library', html: [/jquery(?:[.-]\d[\w.]{0,40})?(?:\.min)?\.js/i] },
  { name: 'Bootstrap', category: 'UI framework', html: [/bootstrap(?:\.bundle)?(?:\.min)?\.(?:css|js)/i] },
  { name: 'Tailwind CSS', category: 'UI framework', html: [/tailwind[\w.-]{0,60}\.(?:css|js)/i, /--tw-[a-z-]{1,60}:/i] },
  { name: 'Font Awesome', category: 'Font', html: [/font-?awesome/i, /kit\.fontawesome\.com/i] },
  { name: 'Google Fonts', category: 'Font', html: [/fonts\.googleapis\.com/i] },
  // Analytics and marketing
  { name: 'Google Analytics', category: 'Analytics', html: [/google-analytics\.com\/(?:analytics|ga)\.js/i, /googletagmanager\.com\/gtag\/js\?id=(?:G|UA)-/i] },
  { name: 'Google Tag Manager', category: 'Tag manager', html: [/googletagmanager\.com\/gtm\.js/i, /GTM-[A-Z0-9]{4}/] },
  { name: 'Meta Pixel', category: 'Advertising', html: [/connect\.facebook\.net\/\w{1,20}\/fbevents\.js/i, /fbq\(\s*['"]init['"]/] },
  { name: 'Hotjar', category: 'Analytics', html: [/static\.hotjar\.com/i] },
  { name: 'Mailchimp', category: 'Email marketing', html: [/chimpstatic\.com/i, /list-manage\.com/i] },
  { name: 'HubSpot', category: 'Marketing automation', html: [/js\.hs-scripts\.com/i, /js\.hsforms\.net/i, /js\.hs-analytics\.net/i] },
  // Customer communication
  { name: 'Intercom', category: 'Live chat', html: [/widget\.intercom\.io/i, /intercomSettings/] },
  { name: 'Zendesk', category: 'Customer support', html: [/static\.zdassets\.com/i, /zopim/i] },
  { name: 'Tawk.to', category: 'Live chat', html: [/embed\.tawk\.to/i] },
  // Booking, ordering and payments
  { name: 'Calendly', category: 'Online booking', html: [/calendly\.com\//i] },
  { name: 'Acuity Scheduling', category: 'Online booking', html: [/acuityscheduling\.com/i] },
  { name: 'Mindbody', category: 'Online booking', html: [/mindbodyonline\.com/i, /healcode/i] },
  { name: 'Vagaro', category: 'Online booking', html: [/vagaro\.com/i] },
  { name: 'OpenTable', category: 'Reservations', html: [/opentable\.com/i] },
  { name: 'Resy', category: 'Reservations', html: [/resy\.com/i] },
  { name: 'Toast', category: 'Online ordering', html: [/toasttab\.com/i] },
  { name: 'DoorDash', category: 'Online ordering', html: [/doordash\.com/i] },
  { name: 'Square', category: 'Payments', html: [/squareup\.com/i, /\.square\.site/i, /web\.squarecdn\.com/i] },
  { name: 'Stripe', category: 'Payments', html: [/js\.stripe\.com/i] },
  { name: 'PayPal', category: 'Payments', html: [/paypal\.com\/sdk\/js/i, /paypalobjects\.com/i] },
  { name: 'reCAPTCHA', category: 'Security', html: [/google\.com\/recaptcha/i, /grecaptcha/] },
  { name: 'Google Maps', category: 'Maps', html: [/maps\.googleapis\.com/i, /google\.com\/maps\/embed/i] },
  // Hosting and servers (headers)
  { name: 'Cloudflare', category: 'CDN', headers: [{ header: 'server', pattern: /cloudflare/i }, { header: 'cf-ray', pattern: /./ }] },
  { name: 'Vercel', category: 'Hosting', headers: [{ header: 'server', pattern: /vercel/i }, { header: 'x-vercel-id', pattern: /./ }] },
  { name: 'Netlify', category: 'Hosting', headers: [{ header: 'server', pattern: /netlify/i }, { header: 'x-nf-request-id', pattern: /./ }] },
  { name: 'Nginx', category: 'Web server', headers: [{ header: 'server', pattern: /nginx/i }] },
  { name: 'Apache', category: 'Web server', headers: [{ header: 'server', pattern: /apache/i }] },
  { name: 'PHP', category: 'Programming language', headers: [{ header: 'x-powered-by', pattern: /php/i }] },
];

/** Categories whose presence means visitors can book, reserve or order online. */
export const BOOKING_CATEGORIES = new Set(['Online booking', 'Reservations', 'Online ordering']);

/**
 * The page's technologies. Every pattern is linear over the source (a quantifier after a fixed prefix is bounded,
 * so each start costs a constant), since the page is a stranger's. Generator tags are read by the parser and passed in
 * as `generators`.
 */
export function detectTechnologies(
  html: string,
  headers: Record<string, string | string[] | undefined>,
  generators: readonly string[] = [],
): DetectedTechnology[] {
  const headerValue = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  const found: DetectedTechnology[] = [];
  for (const rule of TECHNOLOGY_RULES) {
    const inHtml = (rule.html?.some((p) => p.test(html)) ?? false) || (rule.generator ? generators.some((g) => rule.generator!.test(g)) : false);
    const inHeaders =
      rule.headers?.some(({ header, pattern }) => {
        const v = headerValue(header);
        return v !== undefined && pattern.test(v);
      }) ?? false;
    if (inHtml || inHeaders) found.push({ name: rule.name, category: rule.category });
  }
  return found;
}
