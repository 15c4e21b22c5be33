// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EARLY_QUEUE, RENDER_AFTER_LOAD, RENDER_AFTER_LOAD_LIMIT_MS, afterPaintEntryPlugin } from '../after-paint';

const BUILT = `<!doctype html>
<html lang="en">
  <head>
    <title>Site</title>
    <script type="module" crossorigin src="/assets/index-Ab12.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/style-Cd34.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

function transform(html: string): string {
  const hook = afterPaintEntryPlugin().transformIndexHtml as { handler: (html: string) => string };
  return hook.handler(html);
}

/** The loader's code, as the built index.html carries it. */
function loaderOf(html: string): string {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  expect(scripts).toHaveLength(1);
  return scripts[0]!;
}

type PaintCallback = (list: { getEntriesByName(name: string): unknown[] }) => void;
let observers: PaintCallback[] = [];

class FakePaintObserver {
  static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
  constructor(private readonly callback: PaintCallback) {}
  observe() {
    observers.push(this.callback);
  }
  disconnect() {
    observers = observers.filter((c) => c !== this.callback);
  }
}

const firstPaint = () => {
  for (const callback of observers) callback({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{ name }] : []) });
};

function page(ssr: boolean) {
  document.head.innerHTML = '<title>Site</title>';
  document.body.innerHTML = ssr
    ? `<div id="root" data-ssr=""><h1>Hello</h1></div>
       <script type="application/json" id="__SITE_DATA__">{"path":"/blog","status":200,"remote":"blog"}</script>
       <script type="application/json" id="remotes-manifest">{"blog":{"entry":"/mfe/blog/assets/remoteEntry.js","routes":["/blog"]}}</script>`
    : '<div id="root"></div>';
}

const added = () =>
  [...document.head.querySelectorAll('script[src], link[rel="modulepreload"]')].map((el) =>
    el instanceof HTMLScriptElement ? `script ${el.type} ${el.getAttribute('src')}` : `modulepreload ${el.getAttribute('href')}`,
  );

describe('the shell entry starts after the first paint (after-paint.ts)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    observers = [];
    vi.stubGlobal('PerformanceObserver', FakePaintObserver);
  });
  afterEach(() => {
    (window as unknown as { [EARLY_QUEUE]?: { stop(): unknown } })[EARLY_QUEUE]?.stop();
    delete (window as unknown as Record<string, unknown>)[EARLY_QUEUE];
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("takes vite's entry tag out of the head and puts a loader at the end of the body", () => {
    const html = transform(BUILT);
    expect(html).not.toContain('<script type="module"');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/style-Cd34.css">');
    expect(html.indexOf('<script>')).toBeGreaterThan(html.indexOf('<div id="root"></div>'));
    expect(html.trimEnd().endsWith('</script>\n  </body>\n</html>')).toBe(true);
    expect(loaderOf(html)).toContain('"/assets/index-Ab12.js"');
  });

  it('fails the build when the entry tag is not where it expects', () => {
    expect(() => transform(BUILT.replace(/<script type="module"[^>]*><\/script>/, ''))).toThrow(/entry <script type="module"> tag was not found/);
  });

  it('on a server-rendered page, loads nothing before the first paint, then the entry and its remote', () => {
    page(true);
    new Function(loaderOf(transform(BUILT)))();
    vi.advanceTimersByTime(100);
    expect(added()).toEqual([]);

    firstPaint();
    expect(added()).toEqual([]); // the next task, not inside the paint callback
    vi.advanceTimersByTime(0);
    expect(added()).toEqual(['modulepreload /mfe/blog/assets/remoteEntry.js', 'script module /assets/index-Ab12.js']);

    // Once only, whatever comes later.
    firstPaint();
    vi.advanceTimersByTime(5_000);
    expect(added()).toHaveLength(2);
  });

  it('never waits longer than 1.5 s for a paint that is not reported', () => {
    page(true);
    new Function(loaderOf(transform(BUILT)))();
    vi.advanceTimersByTime(1_499);
    expect(added()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(added()).toContain('script module /assets/index-Ab12.js');
  });

  it('a page without server markup (admin, a failed render) starts at once', () => {
    page(false);
    new Function(loaderOf(transform(BUILT)))();
    expect(added()).toEqual(['script module /assets/index-Ab12.js']);
  });

  it("until the shell's code runs, holds clicks on the page's buttons and its form submissions, not links", () => {
    page(true);
    const root = document.getElementById('root')!;
    root.insertAdjacentHTML('beforeend', '<form><input name="email"><button>Send</button></form><a href="#faq">FAQ</a>');
    document.body.insertAdjacentHTML('beforeend', '<button id="outside">Outside</button>');
    new Function(loaderOf(transform(BUILT)))();

    const click = (el: Element) => {
      const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
      el.dispatchEvent(event);
      return event.defaultPrevented;
    };
    const button = root.querySelector('button')!;
    expect(click(button)).toBe(true);
    expect(click(root.querySelector('a')!)).toBe(false);
    expect(click(document.getElementById('outside')!)).toBe(false);
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    root.querySelector('form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);

    const early = (window as unknown as { [EARLY_QUEUE]?: { stop(): { kind: string; element: Element }[] } })[EARLY_QUEUE]!;
    expect(early.stop()).toEqual([
      { kind: 'click', element: button },
      { kind: 'submit', element: root.querySelector('form') },
    ]);
    // Once taken over, the loader lets everything through.
    expect(click(button)).toBe(false);
  });

  it('holds nothing on a page the browser renders itself', () => {
    page(false);
    document.getElementById('root')!.innerHTML = '<button>Send</button>';
    new Function(loaderOf(transform(BUILT)))();
    const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    document.querySelector('button')!.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });

  it('without paint timing, waits two animation frames', () => {
    vi.stubGlobal('PerformanceObserver', undefined);
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    page(true);
    new Function(loaderOf(transform(BUILT)))();
    frames.shift()!(0);
    vi.advanceTimersByTime(0);
    expect(added()).toEqual([]);
    frames.shift()!(16);
    vi.advanceTimersByTime(0);
    expect(added()).toContain('script module /assets/index-Ab12.js');
  });
});

describe('the sections with a form below the screen are shown after the load event (after-paint.ts)', () => {
  let frames: FrameRequestCallback[] = [];
  /** Runs the animation frames asked for so far, and the tasks they set. */
  const nextFrame = () => {
    for (const frame of frames.splice(0)) frame(0);
    vi.advanceTimersByTime(0);
  };
  const shown = () =>
    ['testimonials', 'calculator', 'contact'].filter((id) => getComputedStyle(document.getElementById(id)!).display !== 'none');

  beforeEach(() => {
    vi.useFakeTimers();
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    vi.stubGlobal('PerformanceObserver', FakePaintObserver);
    page(true);
    document.getElementById('root')!.insertAdjacentHTML(
      'beforeend',
      `<section id="testimonials" class="render-near-screen">Quotes</section>
       <section id="calculator" class="render-near-screen ${RENDER_AFTER_LOAD}"><input type="range"></section>
       <section id="contact" class="render-near-screen ${RENDER_AFTER_LOAD}"><input name="email"></section>`,
    );
  });
  afterEach(() => {
    (window as unknown as { [EARLY_QUEUE]?: { stop(): unknown } })[EARLY_QUEUE]?.stop();
    document.documentElement.removeAttribute('data-render-all');
    window.history.replaceState(null, '', '/');
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('hides them until the load event, then shows one a frame, and leaves no stylesheet behind', () => {
    new Function(loaderOf(transform(BUILT)))();
    expect(shown()).toEqual(['testimonials']);
    nextFrame();
    vi.advanceTimersByTime(1000);
    expect(shown()).toEqual(['testimonials']);

    window.dispatchEvent(new Event('load'));
    expect(shown()).toEqual(['testimonials']); // not in the load event's own task
    nextFrame();
    expect(shown()).toEqual(['testimonials', 'calculator']);
    nextFrame();
    expect(shown()).toEqual(['testimonials', 'calculator', 'contact']);
    expect(document.head.querySelector('style')).toBeNull();
  });

  it.each(['scroll', 'click', 'keydown', 'touchstart'])('a %s before the load event shows them at once', (type) => {
    new Function(loaderOf(transform(BUILT)))();
    expect(shown()).toEqual(['testimonials']);
    document.body.dispatchEvent(new Event(type, { bubbles: type !== 'scroll' }));
    expect(shown()).toEqual(['testimonials', 'calculator', 'contact']);
  });

  it('a section link shows them (go-to-section.ts lays out the whole page)', () => {
    new Function(loaderOf(transform(BUILT)))();
    document.documentElement.setAttribute('data-render-all', '');
    expect(shown()).toEqual(['testimonials', 'calculator', 'contact']);
  });

  it(`waits at most ${RENDER_AFTER_LOAD_LIMIT_MS / 1000} s for the load event`, () => {
    new Function(loaderOf(transform(BUILT)))();
    vi.advanceTimersByTime(RENDER_AFTER_LOAD_LIMIT_MS - 1);
    expect(shown()).toEqual(['testimonials']);
    vi.advanceTimersByTime(1);
    expect(shown()).toEqual(['testimonials', 'calculator', 'contact']);
  });

  it('hides nothing on a page opened at a #fragment, where the browser scrolls at once', () => {
    window.history.replaceState(null, '', '/#contact');
    new Function(loaderOf(transform(BUILT)))();
    expect(shown()).toEqual(['testimonials', 'calculator', 'contact']);
  });

  it.each(['reload', 'back_forward'])('hides nothing on a %s, where the browser puts back the scroll position', (type) => {
    vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ type } as unknown as PerformanceEntry]);
    new Function(loaderOf(transform(BUILT)))();
    expect(shown()).toEqual(['testimonials', 'calculator', 'contact']);
  });
});
