import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PageMeta } from '@site/contracts/manifest';
import { RouteHead, usePageHead, type PageHead } from '../page-head';
import { RemoteRoutes, type RemoteRouteDef } from '../route-table';

const origin = () => window.location.origin;

const CITY: PageMeta = {
  path: '/local-services/danville-ai-automation',
  title: 'AI Automation in Danville, CA',
  description: 'Danville automation.',
  keywords: ['danville', 'ai'],
  jsonLd: { '@context': 'https://schema.org', '@type': 'LocalBusiness', name: 'Tri-Valley AI', url: '/local-services/danville-ai-automation' },
};
const BLOG: PageMeta = { path: '/blog', title: 'AI Automation Blog', description: 'Guides.', canonical: '/blog' };
const ADMIN: PageMeta = { path: '/admin', title: 'Admin Access | Admin', description: 'Administration.', noindex: true };

/** The head block the server writes for CITY (render-page.ts), with the template's tags around it. */
function serverHead(siteOrigin = origin()): string {
  const url = `${siteOrigin}/local-services/danville-ai-automation`;
  return `<meta charset="UTF-8"><!--site-head-->
    <title>AI Automation in Danville, CA</title>
    <meta name="description" content="Danville automation." />
    <meta name="keywords" content="danville, ai" />
    <link rel="canonical" href="${url}" />
    <meta property="og:title" content="AI Automation in Danville, CA" />
    <meta property="og:description" content="Danville automation." />
    <meta property="og:url" content="${url}" />
    <meta property="og:type" content="website" />
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"LocalBusiness","name":"Tri-Valley AI","url":"${url}"}</script>
    <!--/site-head--><script type="application/json" id="remotes-manifest">{}</script>`;
}

function Page({ name }: { name: string }) {
  return (
    <div>
      <h1>{name}</h1>
      <Link to="/blog">Blog</Link>
      <Link to="/admin">Admin</Link>
      <Link to="/local-services/danville-ai-automation">Danville</Link>
    </div>
  );
}

const routes: RemoteRouteDef[] = [
  { path: CITY.path, page: Page, props: { name: 'Danville' }, meta: CITY },
  { path: BLOG.path, page: Page, props: { name: 'Blog' }, meta: BLOG },
  { path: ADMIN.path, page: Page, props: { name: 'Admin' }, meta: ADMIN },
  { path: '/edit/:id', page: Page, props: { name: 'Edit' }, head: ({ id }) => ({ path: `/edit/${id}`, title: `Edit ${id}`, description: 'Edit.', noindex: true }) },
];

const headState = () => ({
  title: document.title,
  description: [...document.head.querySelectorAll<HTMLMetaElement>('meta[name="description"]')].map((m) => m.content),
  canonical: [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="canonical"]')].map((l) => l.getAttribute('href')),
  robots: [...document.head.querySelectorAll<HTMLMetaElement>('meta[name="robots"]')].map((m) => m.content),
  keywords: [...document.head.querySelectorAll<HTMLMetaElement>('meta[name="keywords"]')].map((m) => m.content),
  ogUrl: [...document.head.querySelectorAll<HTMLMetaElement>('meta[property="og:url"]')].map((m) => m.content),
  jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent ?? '') as unknown),
});

describe('the document head manager', () => {
  beforeEach(() => {
    document.head.innerHTML = serverHead();
    document.title = 'AI Automation in Danville, CA';
  });
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('changes nothing on the first render when the server already wrote this head', async () => {
    const before = document.head.innerHTML;
    const changes: MutationRecord[] = [];
    const observer = new MutationObserver((records) => changes.push(...records));
    observer.observe(document.head, { subtree: true, childList: true, attributes: true, characterData: true });
    render(
      <MemoryRouter initialEntries={[CITY.path]}>
        <RemoteRoutes routes={routes} />
      </MemoryRouter>,
    );
    await screen.findByRole('heading', { name: 'Danville' });
    await act(async () => {});
    observer.disconnect();
    expect(changes).toEqual([]);
    expect(document.head.innerHTML).toBe(before);
    expect(headState().jsonLd).toHaveLength(1);
  });

  it('replaces title, description, canonical, robots, og tags and JSON-LD together on client navigation, all URLs absolute', async () => {
    render(
      <MemoryRouter initialEntries={[CITY.path]}>
        <RemoteRoutes routes={routes} />
      </MemoryRouter>,
    );
    await userEvent.click(await screen.findByRole('link', { name: 'Blog' }));
    await screen.findByRole('heading', { name: 'Blog' });
    expect(headState()).toEqual({
      title: 'AI Automation Blog',
      description: ['Guides.'],
      canonical: [`${origin()}/blog`],
      robots: [],
      keywords: [],
      ogUrl: [`${origin()}/blog`],
      jsonLd: [],
    });

    await userEvent.click(screen.getByRole('link', { name: 'Admin' }));
    await screen.findByRole('heading', { name: 'Admin' });
    expect(headState()).toMatchObject({ title: 'Admin Access | Admin', robots: ['noindex'], canonical: [`${origin()}/admin`] });

    await userEvent.click(screen.getByRole('link', { name: 'Danville' }));
    await screen.findByRole('heading', { name: 'Danville' });
    expect(headState()).toEqual({
      title: 'AI Automation in Danville, CA',
      description: ['Danville automation.'],
      canonical: [`${origin()}/local-services/danville-ai-automation`],
      robots: [],
      keywords: ['danville, ai'],
      ogUrl: [`${origin()}/local-services/danville-ai-automation`],
      jsonLd: [{ ...CITY.jsonLd, url: `${origin()}/local-services/danville-ai-automation` }],
    });
    // New tags go inside the server's block, so the head keeps one place for the page's tags.
    const html = document.head.innerHTML;
    expect(html.indexOf('application/ld+json')).toBeLessThan(html.indexOf('<!--/site-head-->'));
  });

  it("runs a route's head(params) when the route needs no server data", async () => {
    render(
      <MemoryRouter initialEntries={['/edit/42']}>
        <RemoteRoutes routes={routes} />
      </MemoryRouter>,
    );
    await screen.findByRole('heading', { name: 'Edit' });
    expect(headState()).toMatchObject({ title: 'Edit 42', robots: ['noindex'], canonical: [`${origin()}/edit/42`], jsonLd: [] });
  });

  it('a head registered later wins while mounted; the one before comes back when it goes', async () => {
    const gate: PageHead = { title: 'Sign in', noindex: true };
    function Gate() {
      usePageHead(gate);
      return null;
    }
    function Screen() {
      const [signedIn, setSignedIn] = useState(false);
      return (
        <>
          {!signedIn && <Gate />}
          <button onClick={() => setSignedIn(true)}>Sign in</button>
        </>
      );
    }
    // As RemoteRoutes renders it: the route's head beside its page, the gate inside the page.
    render(
      <>
        <RouteHead meta={BLOG} />
        <Screen />
      </>,
    );
    expect(headState()).toMatchObject({ title: 'Sign in', description: [], canonical: [], robots: ['noindex'], jsonLd: [] });
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(headState()).toMatchObject({ title: 'AI Automation Blog', description: ['Guides.'], canonical: [`${origin()}/blog`], robots: [] });
  });

  it('leaves the head alone while a page has nothing to say yet, and escapes "<" in JSON-LD', () => {
    function Loading({ head }: { head?: PageHead }) {
      usePageHead(head);
      return null;
    }
    const { rerender } = render(<Loading />);
    expect(headState().title).toBe('AI Automation in Danville, CA');
    rerender(<Loading head={{ ...BLOG, jsonLd: { '@type': 'Article', headline: '</script><b>x</b>' } }} />);
    const script = document.head.querySelector('script[type="application/ld+json"]')!;
    expect(script.textContent).not.toContain('</script>');
    expect(headState().jsonLd).toEqual([{ '@type': 'Article', headline: '</script><b>x</b>' }]);
  });
});

describe('the document head manager on a page opened by another host than the site (issue 54, item 2)', () => {
  // The server's PUBLIC_ORIGIN, as it writes it on <html>; the page itself was opened at window.location.origin.
  const SITE_ORIGIN = 'https://www.trivalley.test';
  beforeEach(() => {
    expect(window.location.origin).not.toBe(SITE_ORIGIN);
    document.documentElement.setAttribute('data-site-origin', SITE_ORIGIN);
    document.head.innerHTML = serverHead(SITE_ORIGIN);
    document.title = 'AI Automation in Danville, CA';
  });
  afterEach(() => {
    document.documentElement.removeAttribute('data-site-origin');
    document.head.innerHTML = '';
  });

  it("keeps the server's canonical link and og:url when it hydrates, and names the site's origin after a click", async () => {
    const before = document.head.innerHTML;
    render(
      <MemoryRouter initialEntries={[CITY.path]}>
        <RemoteRoutes routes={routes} />
      </MemoryRouter>,
    );
    await screen.findByRole('heading', { name: 'Danville' });
    await act(async () => {});
    expect(document.head.innerHTML).toBe(before);

    await userEvent.click(screen.getByRole('link', { name: 'Blog' }));
    await screen.findByRole('heading', { name: 'Blog' });
    expect(headState()).toMatchObject({ canonical: [`${SITE_ORIGIN}/blog`], ogUrl: [`${SITE_ORIGIN}/blog`] });

    await userEvent.click(screen.getByRole('link', { name: 'Danville' }));
    await screen.findByRole('heading', { name: 'Danville' });
    const url = `${SITE_ORIGIN}/local-services/danville-ai-automation`;
    expect(headState()).toMatchObject({ canonical: [url], ogUrl: [url], jsonLd: [{ ...CITY.jsonLd, url }] });
  });
});
