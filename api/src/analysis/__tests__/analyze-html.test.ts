import { describe, expect, it } from 'vitest';
import { analyzeHtml } from '../website/analyze-html';
import type { FetchedPage } from '../website/fetch-website';

const page = (body: string): FetchedPage => ({
  requestedUrl: 'https://shop.example/',
  finalUrl: 'https://shop.example/',
  status: 200,
  headers: {},
  contentType: 'text/html',
  body,
  bytes: body.length,
  responseTimeMs: 120,
  totalTimeMs: 150,
  redirects: [],
});

const LOCAL_BUSINESS_LD = '{"@context":"https://schema.org","@type":"Bakery","name":"Rise & Shine","telephone":"(925) 555-0111"}';

describe('analyzeHtml (htmlparser2)', () => {
  it('reads attributes in any order, with any quoting, and values holding ">"', () => {
    const facts = analyzeHtml(
      page(`<html><head>
        <meta content="Fresh bread > supermarket bread, baked in Danville every morning since 1998." name="description">
        <meta content='width=device-width, initial-scale=1' name=viewport>
        <meta content="Rise and Shine Bakery" property="og:site_name">
        <script data-note="a>b" id="ld" type="application/ld+json">${LOCAL_BUSINESS_LD}</script>
        </head><body><img alt="Sourdough loaf" src="/a.jpg"><img src="/b.jpg" alt=""></body></html>`),
    );
    expect(facts.metaDescription).toBe('Fresh bread > supermarket bread, baked in Danville every morning since 1998.');
    expect(facts.viewport).toBe(true);
    expect(facts.siteName).toBe('Rise and Shine Bakery');
    expect(facts.localBusiness).toEqual({ type: 'Bakery', name: 'Rise & Shine', telephone: '(925) 555-0111', address: null });
    expect(facts.images).toEqual({ total: 2, withAlt: 1 });
  });

  it('ignores tags inside comments and scripts', () => {
    const facts = analyzeHtml(
      page(`<html><head><title>Real title for the shop</title>
        <!-- <title>Old title</title> <meta name="description" content="commented out"> -->
        <!-- <script type="application/ld+json">{"@type":"Restaurant","name":"Old name"}</script> -->
        <script>const banner = '<h1>Sale</h1><img src="x.png"><a href="/book">Book now</a>';
          if (a < b && c > d) { dialog.innerHTML = "<form><input type=email></form>"; }</script>
        <style>h1::before { content: "<h1>"; }</style>
        </head><body><h1>Welcome</h1><p>We bake bread.</p></body></html>`),
    );
    expect(facts.title).toBe('Real title for the shop');
    expect(facts.metaDescription).toBeNull();
    expect(facts.localBusiness).toBeNull();
    expect(facts.structuredDataTypes).toEqual([]);
    expect(facts.headings).toEqual({ h1: 1, h2: 0, h3: 0, firstH1: 'Welcome' });
    expect(facts.images.total).toBe(0);
    expect(facts.booking).toEqual({ present: false, links: [] });
    expect(facts.contact.contactForm).toBe(false);
    // Script, style and comment text is not visible text.
    expect(facts.wordCount).toBe(4);
  });

  it('decodes named and numeric entities in text and attributes', () => {
    const facts = analyzeHtml(
      page(`<html><head><title>Caf&eacute; Ol&eacute; &mdash; Danville&rsquo;s best &#9749; &#x2615;</title>
        <meta name="description" content="Espresso &amp; pastries &ndash; open 7&nbsp;days &copy; 2024">
        </head><body><h1>Caf&#233; Ol&#xE9;</h1>
        <a href="https://www.facebook.com/cafe?ref=home&amp;tab=about">Facebook</a>
        <a href="mailto:hello@cafe.example?subject=Hi&amp;body=x">Email</a></body></html>`),
    );
    expect(facts.title).toBe('Café Olé — Danville’s best ☕ ☕');
    expect(facts.metaDescription).toBe('Espresso & pastries – open 7\u00a0days © 2024');
    expect(facts.headings.firstH1).toBe('Café Olé');
    expect(facts.socialLinks.facebook).toBe('https://www.facebook.com/cafe?ref=home&tab=about');
    expect(facts.contact.emails).toEqual(['hello@cafe.example']);
  });

  it('reads uppercase tags and attribute names', () => {
    const facts = analyzeHtml(
      page(`<HTML><HEAD><TITLE>Valley Plumbing Danville</TITLE>
        <META NAME="Description" CONTENT="Licensed plumbers in Danville and San Ramon, same-day service and free estimates.">
        <META NAME="VIEWPORT" CONTENT="width=device-width">
        <SCRIPT TYPE="application/LD+JSON">{"@type":"Plumber","name":"Valley Plumbing"}</SCRIPT>
        </HEAD><BODY><H1>Valley Plumbing</H1><H2>Services</H2><H3>Drains</H3>
        <IMG SRC="van.jpg" ALT="Our van"><A HREF="tel:9255550123">Call</A>
        <FORM><INPUT TYPE="EMAIL" NAME="from"></FORM></BODY></HTML>`),
    );
    expect(facts.title).toBe('Valley Plumbing Danville');
    expect(facts.metaDescription).toMatch(/^Licensed plumbers/);
    expect(facts.viewport).toBe(true);
    expect(facts.localBusiness).toMatchObject({ type: 'Plumber', name: 'Valley Plumbing' });
    expect(facts.headings).toEqual({ h1: 1, h2: 1, h3: 1, firstH1: 'Valley Plumbing' });
    expect(facts.images).toEqual({ total: 1, withAlt: 1 });
    expect(facts.contact.phones).toContain('9255550123');
    expect(facts.contact.contactForm).toBe(true);
  });

  it('copes with unclosed tags the way a browser shows them', () => {
    const facts = analyzeHtml(
      page(`<html><head><title>Hair by Kim</title>
        <body><h1>Hair by Kim<h2>Cuts and colour</h2>
        <ul><li>Cuts<li>Colour<li>Styling</ul>
        <p>Walk-ins welcome<p>Call (925) 555-0142
        <a href="/services">Services<a href="https://www.vagaro.com/hairbykim">Book now</a>
        <button>Book an appointment`),
    );
    expect(facts.title).toBe('Hair by Kim');
    expect(facts.headings).toEqual({ h1: 1, h2: 1, h3: 0, firstH1: 'Hair by Kim' });
    expect(facts.contact.phones).toEqual(['(925) 555-0142']);
    // The unclosed "Services" link does not swallow the next link's label.
    expect(facts.booking.links).toEqual(['https://www.vagaro.com/hairbykim', 'Book an appointment']);
    expect(facts.wordCount).toBe(20);
  });

  it('finds LocalBusiness inside an @graph and ignores JSON-LD that does not parse', () => {
    const facts = analyzeHtml(
      page(`<script type="application/ld+json">{ not json </script>
        <script type=" application/ld+json ">{"@graph":[{"@type":"WebSite"},{"@type":["Organization","Dentist"],"name":"Smile Co",
        "address":{"streetAddress":"1 Main St","addressLocality":"San Ramon"}}]}</script>`),
    );
    expect(facts.structuredDataTypes).toEqual(['WebSite', 'Organization', 'Dentist']);
    expect(facts.localBusiness).toEqual({ type: 'Dentist', name: 'Smile Co', telephone: null, address: '1 Main St, San Ramon' });
  });
});
