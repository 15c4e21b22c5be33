/*
 * Pages built to make a regular expression over fetched HTML backtrack, and an ordinary page of the largest size the
 * fetcher accepts. Shared by the reliability test and api/bench/hostile-bench.entry.ts, so both measure the same pages.
 */

/** Repeats `unit` until the text is `bytes` long (cut to the byte, ASCII only). */
function fill(unit: string, bytes: number): string {
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

const wrap = (body: string) => `<!doctype html><html><head><title>Hostile</title></head><body><p>${body}</p></body></html>`;

export interface HostilePage {
  name: string;
  html: string;
}

/** Each former pattern's attack string, `bytes` long. */
export function hostilePages(bytes = 120_000): HostilePage[] {
  return [
    // analyze-html's e-mail pattern: every start position ran to the end of the run looking for an '@'.
    { name: 'e-mail pattern (a.a.a…)', html: wrap(fill('a.', bytes)) },
    // An '@' at the end: the domain part after each start backtracks over the dots.
    { name: 'e-mail pattern (a.a.a…@a…)', html: wrap(`${fill('a.', bytes)}@${fill('a-', 200)}`) },
    // technologies.ts: /<meta[^>]+generator[^>]+wordpress/i and its siblings, with no closing '>'.
    { name: 'meta generator (<meta generator …, no >)', html: `<!doctype html><html><head>${fill('<meta generator ', bytes)}` },
    // /jquery(?:[.-]\d[\w.]*)?(?:\.min)?\.js/i and /tailwind(?:css)?[\w.-]*\.(?:css|js)/i: each occurrence scanned the rest.
    { name: 'asset name (jquery-1jquery-1…)', html: wrap(fill('jquery-1', bytes)) },
    { name: 'asset name (tailwind.tailwind.…)', html: wrap(fill('tailwind.', bytes)) },
    // Phone numbers: long digit and separator runs.
    { name: 'phone pattern (1-1-1-…)', html: wrap(fill('1-', bytes)) },
    // Booking labels: many words that start a booking phrase but never finish one.
    { name: 'booking label (book book …)', html: wrap(`<a href="/x">${fill('book schedule order ', bytes)}</a>`) },
    // Deep nesting: the parser and the text walk.
    { name: 'deep nesting (<div><div>…)', html: wrap(fill('<div><span>a', bytes)) },
  ];
}

/** An ordinary, well-formed page of about `bytes` (2 MB: the fetcher's limit). */
export function largeOrdinaryPage(bytes = 2 * 1024 * 1024 - 4096): string {
  const section = (i: number) =>
    `<section id="s${i}"><h2>Service ${i}</h2><p>We help local businesses in Danville and San Ramon with scheduling, ` +
    `invoices and follow-ups. Call (925) 555-${String(1000 + (i % 9000)).padStart(4, '0')} or write to team${i}@example.com.</p>` +
    `<a href="/services/${i}">Learn more</a> <img src="/img/${i}.jpg" alt="Service ${i}"></section>\n`;
  const head =
    '<!doctype html><html><head><title>Ordinary Large Page</title><meta name="description" content="A large ordinary page">' +
    '<meta name="generator" content="WordPress 6.5"><script src="/wp-includes/js/jquery/jquery.min.js"></script></head><body><h1>Services</h1>';
  let body = '';
  for (let i = 0; body.length + head.length < bytes; i++) body += section(i);
  return `${head}${body}</body></html>`;
}
