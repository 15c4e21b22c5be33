import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { HEAD_META_KEYS, headTags, type HeadTags, type PageHead } from '@site/contracts/page-head';
import { siteOrigin } from './site';

export type { PageHead };

/*
 * The one owner of the document head in the browser. The server writes a page's head into the HTML (between
 * `<!--site-head-->` and `<!--/site-head-->`); after a client navigation this replaces title, description,
 * keywords, canonical, robots, Open Graph tags and JSON-LD together, so nothing of the previous page stays.
 * The first render changes nothing when the server's head already says the same (no second JSON-LD block).
 *
 * Pages register heads; the one registered last wins, and when it goes the one before it is written again (the
 * admin gate shown on /admin/dashboard names itself, and the dashboard's own head returns after sign-in).
 */

const heads: { head: PageHead }[] = [];

/** Writes the head of the page that owns it now, touching only what differs. */
function writeTopHead(): void {
  const top = heads.at(-1);
  if (top && typeof document !== 'undefined') writeHead(headTags(top.head, siteOrigin()));
}

/**
 * Makes `head` the document's head while the calling component is mounted. `null`/`undefined` means "nothing to
 * say yet" (a page still loading its data): the head stays as it is until the page knows.
 */
export function usePageHead(head: PageHead | null | undefined): void {
  // By value, so a head rebuilt on every render (`postHead(post)`) is written once.
  const key = head ? JSON.stringify(head) : '';
  useEffect(() => {
    if (!key) return;
    const entry = { head: JSON.parse(key) as PageHead };
    heads.push(entry);
    writeTopHead();
    return () => {
      const index = heads.indexOf(entry);
      if (index >= 0) heads.splice(index, 1);
      writeTopHead();
    };
  }, [key]);
}

/**
 * The head of a route: its static `meta`, or its `head(params)` when it needs no server data. `RemoteRoutes`
 * renders it beside each route's page. Renders nothing.
 */
export function RouteHead({ meta, head }: { meta?: PageHead; head?: (params: Record<string, string>, data: undefined) => PageHead }): null {
  const params = useParams();
  usePageHead(meta ?? head?.(params as Record<string, string>, undefined));
  return null;
}

/** Where new head tags go: inside the server's `<!--site-head-->` block when there is one. */
function insertionPoint(): ChildNode | null {
  for (const node of document.head.childNodes) {
    if (node.nodeType === Node.COMMENT_NODE && (node as Comment).data.trim() === '/site-head') return node;
  }
  return null;
}

function insert(element: Element): void {
  document.head.insertBefore(element, insertionPoint());
}

/** Keeps exactly one element of `elements` holding `value` (none when undefined); writes only what differs. */
function syncOne<E extends Element>(
  elements: readonly E[],
  value: string | undefined,
  read: (element: E) => string,
  write: (element: E, value: string) => void,
  create: () => E,
): void {
  if (value === undefined) {
    for (const element of elements) element.remove();
    return;
  }
  const keep = elements.find((e) => read(e) === value) ?? elements[0];
  for (const element of elements) if (element !== keep) element.remove();
  if (keep) {
    if (read(keep) !== value) write(keep, value);
    return;
  }
  const element = create();
  write(element, value);
  insert(element);
}

/** The JSON of a structured-data block in one canonical spelling, or null when it does not parse. */
function normalizedJson(text: string | null): string | null {
  try {
    return JSON.stringify(JSON.parse(text ?? ''));
  } catch {
    return null;
  }
}

function writeHead(tags: HeadTags): void {
  if (document.title !== tags.title) document.title = tags.title;

  for (const { attr, key } of HEAD_META_KEYS) {
    const content = tags.meta.find((m) => m.attr === attr && m.key === key)?.content;
    syncOne(
      [...document.head.querySelectorAll<HTMLMetaElement>(`meta[${attr}="${key}"]`)],
      content,
      (e) => e.content,
      (e, v) => {
        e.content = v;
      },
      () => {
        const meta = document.createElement('meta');
        meta.setAttribute(attr, key);
        return meta;
      },
    );
  }

  syncOne(
    [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="canonical"]')],
    tags.canonical,
    (e) => e.getAttribute('href') ?? '',
    (e, v) => {
      e.href = v;
    },
    () => {
      const link = document.createElement('link');
      link.rel = 'canonical';
      return link;
    },
  );

  const json = tags.jsonLd === undefined ? undefined : JSON.stringify(tags.jsonLd);
  syncOne(
    [...document.head.querySelectorAll<HTMLScriptElement>('script[type="application/ld+json"]')],
    json,
    (e) => normalizedJson(e.textContent) ?? '',
    (e, v) => {
      // `<` escaped, so a value can never close the script element.
      e.textContent = v.replace(/</g, '\\u003c');
    },
    () => {
      const script = document.createElement('script');
      script.type = 'application/ld+json';
      return script;
    },
  );
}
