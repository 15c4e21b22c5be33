import { useEffect } from 'react';

/** Sets the document title and description when a page mounts (the server already put them in the HTML). */
export function usePageMeta(title: string, description?: string): void {
  useEffect(() => {
    document.title = title;
    if (description) {
      let tag = document.querySelector<HTMLMetaElement>('meta[name="description"]');
      if (!tag) {
        tag = document.createElement('meta');
        tag.name = 'description';
        document.head.appendChild(tag);
      }
      tag.content = description;
    }
  }, [title, description]);
}

/** Scrolls to the top when a page mounts (case-study and city pages). */
export function useScrollToTop(): void {
  useEffect(() => {
    // Instant: the theme's smooth scrolling would otherwise animate a freshly opened page up from below.
    if (!window.location.hash) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, []);
}

/** Structured data for search engines. Rendered as data, never executed. */
export function JsonLd({ data }: { data: unknown }) {
  // `<` is escaped so a value can never close the script element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}
