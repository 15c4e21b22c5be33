import { Suspense, use, useId, useSyncExternalStore, type ReactNode } from 'react';

/**
 * A part of a server-rendered page that comes to life later: while the page hydrates, this part keeps the server's
 * HTML as it is (visible, its links working) and React hydrates it once it comes near the screen, once the visitor
 * touches or focuses something in it, or when the browser is idle after the rest (one such part per idle moment), in
 * a render and commit of its own instead of inside the page's, so no task hydrates the whole page. Rendered in the browser without hydration (a move inside the site), it renders at once, as on the server.
 *
 * How: a Suspense boundary whose first child, during hydration only, suspends on a promise that one of those moments
 * resolves; React leaves a suspended boundary's server HTML in place and hydrates it when the promise resolves. The
 * server and the browser render the same markup (the boundary's comments and an empty, inert `<template>` that marks
 * where the part starts), so there is no mismatch. What a visitor does meanwhile is held and replayed by the shell
 * (shell/src/features/remotes/lib/early-interaction.ts).
 */
export function HydrateWhenVisible({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={null}>
      <HydrationGate />
      {children}
    </Suspense>
  );
}

/** The attribute of the `<template>` that marks where a part starts, with its useId (the same on both sides). */
export const HYDRATE_WHEN_VISIBLE_ATTRIBUTE = 'data-hydrate-when-visible';

const subscribeToNothing = () => () => {};

function HydrationGate() {
  const id = useId();
  // The server's snapshot is used on the server and while hydrating, the browser's afterwards: true = hydrating.
  const hydrating = useSyncExternalStore(
    subscribeToNothing,
    () => false,
    () => true,
  );
  const gate = hydrating && typeof window !== 'undefined' ? gateFor(id) : null;
  if (gate) use(gate);
  return <template {...{ [HYDRATE_WHEN_VISIBLE_ATTRIBUTE]: id }} />;
}

// ---- when a part may hydrate --------------------------------------------------------------------------------------

/** One promise per part (by its marker in the server's HTML), kept across React's retries of the suspended render. */
const gates = new WeakMap<Element, Promise<void>>();
/** Parts waiting, in the order React met them (the page's order), with the elements that show them. */
const waiting: { elements: Element[]; open: () => void }[] = [];
/** A part's content is hydrated when it comes within this margin of the screen, so it is live when seen. */
const NEAR_SCREEN = '50% 0px';

/** What the part marked `id` waits for; null when the server's HTML has no such part (nothing to wait for). */
function gateFor(id: string): Promise<void> | null {
  const marker = [...document.querySelectorAll(`template[${HYDRATE_WHEN_VISIBLE_ATTRIBUTE}]`)].find((t) => t.getAttribute(HYDRATE_WHEN_VISIBLE_ATTRIBUTE) === id);
  if (!marker) return null;
  let gate = gates.get(marker);
  if (!gate) {
    gate = new Promise<void>((resolve) => watch(partElements(marker), resolve));
    gates.set(marker, gate);
  }
  return gate;
}

/** The elements of the part: the marker's next siblings up to the end of its Suspense boundary. */
function partElements(marker: Element): Element[] {
  const elements: Element[] = [];
  let depth = 0;
  for (let node = marker.nextSibling; node; node = node.nextSibling) {
    if (node.nodeType === Node.COMMENT_NODE) {
      const data = (node as Comment).data;
      // React's boundary comments: `$` (and `$?`, `$!`) open one, `/$` closes it.
      if (data.startsWith('$')) depth++;
      else if (data === '/$' && depth-- === 0) break;
    } else if (node instanceof Element) {
      elements.push(node);
    }
  }
  return elements;
}

let observer: IntersectionObserver | undefined;
let listening = false;
let idleScheduled = false;

function watch(elements: Element[], resolve: () => void): void {
  // Nothing to watch (no element, only text), or a browser without IntersectionObserver: now.
  if (elements.length === 0 || typeof IntersectionObserver === 'undefined') return resolve();
  const part = {
    elements,
    open: () => {
      const at = waiting.indexOf(part);
      if (at < 0) return;
      waiting.splice(at, 1);
      for (const element of elements) observer?.unobserve(element);
      resolve();
    },
  };
  waiting.push(part);
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) if (entry.isIntersecting) waiting.find((p) => p.elements.includes(entry.target))?.open();
    },
    { rootMargin: NEAR_SCREEN },
  );
  for (const element of elements) observer.observe(element);
  if (!listening) {
    listening = true;
    // A touch, a click or the keyboard's focus inside a part hydrates it at once (the shell replays the event then).
    for (const type of ['pointerdown', 'focusin', 'keydown'] as const) document.addEventListener(type, onInteraction, true);
  }
  scheduleIdle();
}

function onInteraction(event: Event): void {
  const target = event.target;
  if (!(target instanceof Node)) return;
  waiting.find((p) => p.elements.some((e) => e.contains(target)))?.open();
}

/** One waiting part hydrates per idle moment of the browser, in page order, until none waits. */
function scheduleIdle(): void {
  if (idleScheduled || waiting.length === 0) return;
  idleScheduled = true;
  const next = () => {
    idleScheduled = false;
    waiting[0]?.open();
    scheduleIdle();
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(next, { timeout: 5000 });
  else setTimeout(next, 200);
}
