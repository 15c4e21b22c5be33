import { useEffect } from 'react';
import type { PageMeta } from '@site/contracts/manifest';

/**
 * Keeps the page's JSON-LD in the document after client-side navigation. The server already puts it in
 * the HTML of a page requested directly; then this adds nothing, so crawlers never see it twice.
 */
export function useStructuredData(jsonLd: PageMeta['jsonLd']): void {
  useEffect(() => {
    if (!jsonLd) return;
    const text = JSON.stringify(jsonLd);
    const present = [...document.querySelectorAll('script[type="application/ld+json"]')].some((s) => {
      try {
        return JSON.stringify(JSON.parse(s.textContent ?? '')) === text;
      } catch {
        return false;
      }
    });
    if (present) return;
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.dataset.pageJsonld = 'marketing';
    script.textContent = text.replace(/</g, '\\u003c');
    document.head.appendChild(script);
    return () => script.remove();
  }, [jsonLd]);
}
