import type { Plugin } from 'vite';

/**
 * The shell's code starts after a server-rendered page has painted.
 *
 * A module script in the head is fetched while the HTML and stylesheets are still arriving and runs before the
 * first paint when it arrives in time; on a slow phone its bytes compete with the stylesheets the page needs to
 * show. A server-rendered page (`#root[data-ssr]`) is readable without it, so this replaces vite's entry tag by a
 * small inline loader at the end of the body that adds the entry (and a modulepreload of the page's remote) once
 * the first contentful paint is recorded: the paint timing entry where the browser has one, two animation frames
 * otherwise. A page without server markup (admin, a failed server render) starts its code at once.
 *
 * What a visitor does between the paint and hydration is kept: until the shell's code runs, the loader holds clicks
 * on buttons and form submissions of the server's HTML (a button does nothing without its code; a native submit
 * would reload the page with the fields in the URL) in `window.__siteEarly`, and the shell's
 * `early-interaction.ts` takes them over when it starts, with what the visitor typed meanwhile. A held control
 * visibly waits (`aria-busy`, and `data-waiting`, which the shell's stylesheet shows) until the page's code acts on it.
 * Links keep working natively until then, and so does a popover's button (the phone menu): the browser opens it.
 *
 * The loader also keeps the sections with a form below the screen (`RENDER_AFTER_LOAD`: the home page's ROI
 * calculator and contact form) out of the page until it has loaded. Chrome's autofill reads every field of a page
 * when the document has been parsed and again when it has loaded, and asking a field whether it can take focus lays
 * out its whole section at once, though a section off the screen is otherwise laid out only when it comes near
 * (`render-near-screen`): on `/` that made one long task (docs/decisions.md), at DOMContentLoaded or at the load
 * event, whichever came after the fields were there. With `display: none` until then the fields have nothing to lay
 * out; shown after the load event, one section a frame, they are off the screen and wait like any other section.
 * A scroll, tap, key press or section link before then shows them at once (so does a 5 s limit), and a page opened at
 * a `#fragment`, reloaded or come back to never hides them: the browser scrolls those to a place that may be in them.
 * Without script nothing is hidden.
 *
 * The loader is inline, so its hash is in the CSP (the server hashes the inline scripts of the built index.html).
 */
/** Where the loader keeps early clicks and submissions: `{ stop(): { kind: 'click' | 'submit'; element }[] }`. */
export const EARLY_QUEUE = '__siteEarly';

/** The class of a server-rendered section that the loader shows after the load event (`Section`'s `renderAfterLoad`). */
export const RENDER_AFTER_LOAD = 'render-after-load';

/** At the latest, the sections wait this long for the load event. */
export const RENDER_AFTER_LOAD_LIMIT_MS = 5000;

export function afterPaintEntryPlugin(): Plugin {
  return {
    name: 'site:after-paint-entry',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const tag = /(?<!\s)\s*<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html);
        if (!tag) throw new Error('site:after-paint-entry: the entry <script type="module"> tag was not found in index.html');
        const loader = entryLoader(tag[1]!);
        return html.replace(tag[0], '').replace(/<\/body>/i, () => `  <script>${loader}</script>\n  </body>`);
      },
    },
  };
}

/** ES5, no dependencies: runs in every browser that runs the site's modules, and fails closed to loading at once. */
function entryLoader(entry: string): string {
  return `
      // Starts the site's code after the first paint of a server-rendered page (packages/vite-config/after-paint.ts).
      (function () {
        var started = false;
        function add(rel, href) {
          var el = document.createElement(rel === 'script' ? 'script' : 'link');
          if (rel === 'script') { el.type = 'module'; el.src = href; } else { el.rel = rel; el.href = href; }
          el.crossOrigin = '';
          document.head.appendChild(el);
        }
        function start() {
          if (started) return;
          started = true;
          try {
            var site = JSON.parse(document.getElementById('__SITE_DATA__').textContent);
            var remotes = JSON.parse(document.getElementById('remotes-manifest').textContent);
            var own = site && site.remote && remotes[site.remote];
            if (own && own.entry) add('modulepreload', own.entry);
          } catch (e) {}
          add('script', ${JSON.stringify(entry)});
        }
        var root = document.getElementById('root');
        if (!root || !root.hasAttribute('data-ssr')) return start();
        showFormsAfterLoad();
        // Until the shell's code takes over (early-interaction.ts), a click on a button or a form's submission is
        // held for it rather than lost or sent as a page reload, and the control shows that it waits. A popover's
        // button needs no code: the browser opens its popover.
        var held = [];
        function hold(event) {
          var target = event.target;
          var element = event.type === 'submit' ? target
            : event.button === 0 && !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) && target && target.closest
              ? target.closest('button, [role="button"], [role="tab"], [role="switch"]') : null;
          if (!element || !root.contains(element) || element.hasAttribute('popovertarget')) return;
          event.preventDefault();
          event.stopPropagation();
          if (!element.hasAttribute('data-waiting') && !element.hasAttribute('aria-busy')) {
            element.setAttribute('data-waiting', 'aria-busy');
            element.setAttribute('aria-busy', 'true');
          }
          held.push({ kind: event.type, element: element });
        }
        document.addEventListener('click', hold, true);
        document.addEventListener('submit', hold, true);
        window.${EARLY_QUEUE} = {
          stop: function () {
            document.removeEventListener('click', hold, true);
            document.removeEventListener('submit', hold, true);
            return held.splice(0);
          }
        };
        if (document.visibilityState === 'hidden') return start();
        var later = function () { setTimeout(start, 0); };
        // However the paint is (not) reported, the code never waits longer than this.
        setTimeout(start, 1500);
        try {
          if (PerformanceObserver.supportedEntryTypes.indexOf('paint') >= 0) {
            var seen = new PerformanceObserver(function (list) {
              if (list.getEntriesByName('first-contentful-paint').length) { seen.disconnect(); later(); }
            });
            seen.observe({ type: 'paint', buffered: true });
            return;
          }
        } catch (e) {}
        requestAnimationFrame(function () { requestAnimationFrame(later); });

        // The sections with a form below the screen: hidden on the screen (a printout has them) by a stylesheet of the
        // loader's own until the load event, then shown one a frame. A section link (go-to-section.ts sets
        // data-render-all) overrides the stylesheet.
        function showFormsAfterLoad() {
          var nav;
          try { nav = performance.getEntriesByType('navigation')[0]; } catch (e) {}
          if (location.hash || (nav && nav.type !== 'navigate')) return;
          var found = root.querySelectorAll(${JSON.stringify(`.${RENDER_AFTER_LOAD}[id]`)});
          var ids = [];
          for (var i = 0; i < found.length; i++) ids.push(found[i].id);
          if (!ids.length) return;
          var style = document.createElement('style');
          var events = ['scroll', 'click', 'keydown', 'touchstart'];
          function hide() {
            var selectors = [];
            for (var i = 0; i < ids.length; i++) selectors.push('html:not([data-render-all]) [id="' + ids[i] + '"]');
            style.textContent = selectors.length ? '@media screen{' + selectors.join(',') + '{display:none}}' : '';
          }
          function showAll() {
            ids = [];
            if (style.parentNode) style.parentNode.removeChild(style);
            for (var i = 0; i < events.length; i++) removeEventListener(events[i], showAll, true);
          }
          function showNext() {
            ids.shift();
            if (!ids.length) return showAll();
            hide();
            afterFrame(showNext);
          }
          function afterFrame(f) { requestAnimationFrame(function () { setTimeout(f, 0); }); }
          hide();
          document.head.appendChild(style);
          for (var j = 0; j < events.length; j++) addEventListener(events[j], showAll, { capture: true, passive: true });
          addEventListener('load', function () { afterFrame(showNext); });
          setTimeout(showAll, ${RENDER_AFTER_LOAD_LIMIT_MS});
        }
      })();
    `;
}
