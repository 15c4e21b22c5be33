import { afterEach, describe, expect, it } from 'vitest';
import { siteOrigin } from '../site';

describe("the site's origin in the browser (issue 54, item 2)", () => {
  afterEach(() => document.documentElement.removeAttribute('data-site-origin'));

  it("is the server's PUBLIC_ORIGIN written on <html>, not the host the page was opened by", () => {
    document.documentElement.setAttribute('data-site-origin', 'http://localhost:3103');
    expect(window.location.origin).not.toBe('http://localhost:3103');
    expect(siteOrigin()).toBe('http://localhost:3103');
  });

  it('is the address the page was opened at when the server named none (or nothing usable)', () => {
    expect(siteOrigin()).toBe(window.location.origin);
    document.documentElement.setAttribute('data-site-origin', 'javascript:alert(1)');
    expect(siteOrigin()).toBe(window.location.origin);
  });
});
