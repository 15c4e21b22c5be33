// @vitest-environment jsdom
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SITE_ORIGIN_ATTRIBUTE } from '@site/contracts/site';
import { SiteDataProvider, useSiteOrigin, type SiteData } from '../site-data';

/*
 * A page that writes its own full address (a report's printed permalink) names the site's public origin in the
 * server's HTML, so a page printed without JavaScript carries it, and hydrates without a mismatch.
 */

function Permalink() {
  return <p>Permanent link: {`${useSiteOrigin()}/free-analysis/report/abc123`}</p>;
}

const page = (site: SiteData) => (
  <SiteDataProvider value={site}>
    <Permalink />
  </SiteDataProvider>
);

async function hydrate(site: SiteData, serverHtml: string) {
  const container = document.createElement('div');
  container.innerHTML = serverHtml;
  document.body.append(container);
  const recoverable = vi.fn();
  await act(async () => {
    hydrateRoot(container, page(site), { onRecoverableError: recoverable });
  });
  return { text: container.textContent, recoverable };
}

describe('useSiteOrigin', () => {
  afterEach(() => {
    document.documentElement.removeAttribute(SITE_ORIGIN_ATTRIBUTE);
    document.body.replaceChildren();
  });

  it("names the server's PUBLIC_ORIGIN in the server's HTML, and the browser keeps it while hydrating", async () => {
    const site: SiteData = { path: '/free-analysis/report/abc123', status: 200, origin: 'https://trivalley.example' };
    const html = renderToString(page(site));
    expect(html).toContain('https://trivalley.example/free-analysis/report/abc123');

    // The page as the server sent it: the same origin on <html> and in the embedded data; opened by another host.
    document.documentElement.setAttribute(SITE_ORIGIN_ATTRIBUTE, 'https://trivalley.example');
    const { text, recoverable } = await hydrate(site, html);
    expect(recoverable).not.toHaveBeenCalled();
    expect(text).toBe('Permanent link: https://trivalley.example/free-analysis/report/abc123');
  });

  it('a server that does not say its origin renders the path; the browser then names the origin, without a mismatch', async () => {
    const site: SiteData = { path: '/free-analysis/report/abc123', status: 200 };
    const html = renderToString(page(site));
    expect(html).toContain('Permanent link: <!-- -->/free-analysis/report/abc123');

    document.documentElement.setAttribute(SITE_ORIGIN_ATTRIBUTE, 'https://trivalley.example');
    const { text, recoverable } = await hydrate(site, html);
    expect(recoverable).not.toHaveBeenCalled();
    expect(text).toBe('Permanent link: https://trivalley.example/free-analysis/report/abc123');
  });
});
