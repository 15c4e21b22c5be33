// @vitest-environment jsdom
import { act, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HydrateWhenVisible } from '../hydrate-when-visible';

/** The browser's IntersectionObserver, driven by the test: `show(element)` brings an observed element into view. */
class ScreenObserver {
  static all: ScreenObserver[] = [];
  readonly observed = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    ScreenObserver.all.push(this);
  }
  observe(element: Element) {
    this.observed.add(element);
  }
  unobserve(element: Element) {
    this.observed.delete(element);
  }
  disconnect() {
    this.observed.clear();
  }
  static show(element: Element) {
    for (const o of ScreenObserver.all)
      if (o.observed.has(element)) o.callback([{ target: element, isIntersecting: true } as IntersectionObserverEntry], o as unknown as IntersectionObserver);
  }
}

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <section id={label}>
      <button type="button" onClick={() => setCount((c) => c + 1)}>
        {label} {count}
      </button>
    </section>
  );
}

function Page() {
  return (
    <main>
      <Counter label="top" />
      <HydrateWhenVisible>
        <Counter label="below" />
      </HydrateWhenVisible>
    </main>
  );
}

/** The page as the server renders it: no window there (the part renders as it is, nothing waits). */
function serverHtml(): string {
  vi.stubGlobal('window', undefined);
  try {
    return renderToString(<Page />);
  } finally {
    vi.stubGlobal('window', globalThis);
  }
}

const isHydrated = (element: Element | null) => !!element && Object.keys(element).some((k) => k.startsWith('__reactFiber$'));
const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

describe('HydrateWhenVisible', () => {
  beforeEach(() => {
    ScreenObserver.all = [];
    vi.stubGlobal('IntersectionObserver', ScreenObserver);
    // A browser never idle: only coming into view may bring the part to life.
    vi.stubGlobal('requestIdleCallback', () => 0);
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.innerHTML = '';
  });

  it("keeps the server's HTML of its part, unhydrated, until it comes into view; then hydrates those same nodes", async () => {
    const html = serverHtml();
    // The same markup as without it, but for the boundary's comments and an empty marker.
    expect(html).toContain('<template data-hydrate-when-visible=');
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const below = container.querySelector('#below')!;
    const errors: unknown[] = [];

    await act(async () => {
      hydrateRoot(container, <Page />, { onRecoverableError: (error) => errors.push(error) });
    });
    await flush();
    expect(isHydrated(container.querySelector('#top'))).toBe(true);
    expect(isHydrated(below)).toBe(false);
    expect(below.textContent).toBe('below 0');

    await act(async () => ScreenObserver.show(below));
    await flush();
    expect(container.querySelector('#below')).toBe(below);
    expect(isHydrated(below)).toBe(true);
    await act(async () => below.querySelector('button')!.click());
    expect(below.textContent).toBe('below 1');
    expect(errors).toEqual([]);
  });

  it('hydrates its part at once when the visitor touches it before it is in view', async () => {
    const container = document.createElement('div');
    container.innerHTML = serverHtml();
    document.body.append(container);
    await act(async () => {
      hydrateRoot(container, <Page />);
    });
    const button = container.querySelector('#below button')!;
    expect(isHydrated(button)).toBe(false);
    await act(async () => button.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true })));
    await flush();
    expect(isHydrated(button)).toBe(true);
  });

  it('renders at once when the page is rendered in the browser (a move inside the site), not hydrated', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    await act(async () => createRoot(container).render(<Page />));
    expect(container.querySelector('#below')?.textContent).toBe('below 0');
    expect(ScreenObserver.all).toEqual([]);
  });
});
