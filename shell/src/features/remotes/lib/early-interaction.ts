/**
 * A server-rendered page can be used before its code has hydrated it: a remote's area hydrates once its code has
 * loaded, a moment after the page shows. What a visitor does in that moment would be lost (a click on a button with
 * no handler yet) or ignored (text typed into a field whose state does not know it). This keeps it: clicks on
 * controls that are not hydrated are held and clicked again once they are, and fields changed before hydration hand
 * their value to the page once hydrated, in the order the visitor acted. Links are held too (the app navigates and
 * records as it would) and fall back to a plain navigation if their code never comes. A held control visibly waits
 * until then (`aria-busy`, and `data-waiting`, which shell/src/index.css shows), and a popover's button is never held:
 * the browser opens its popover without any code (the phone menu).
 */

/** React marks every element it has hydrated with its props (an internal key, stable since React 16). */
const propsOf = (element: Element): Record<string, unknown> | undefined => {
  const key = Object.keys(element).find((k) => k.startsWith('__reactProps$'));
  return key ? ((element as unknown as Record<string, Record<string, unknown>>)[key] ?? {}) : undefined;
};

type Fiber = { return: Fiber | null; alternate: Fiber | null; flags: number; tag: number };
/** React's Placement | Hydrating flags: a fiber carrying them is not committed yet. */
const NOT_COMMITTED = 4098;
const HOST_ROOT = 3;

/**
 * Whether React would deliver an event to this element now: it has been hydrated *and* committed. (React marks an
 * element while it renders the hydration; an event in between is dropped.) The same walk as React's own
 * getNearestMountedFiber: the element's fiber must be the nearest mounted one.
 */
function isLive(element: Element): boolean {
  const key = Object.keys(element).find((k) => k.startsWith('__reactFiber$'));
  if (!key) return false;
  const own = (element as unknown as Record<string, Fiber>)[key]!;
  let mounted: Fiber | null = own;
  let node = own;
  for (let next: Fiber | null = own; next && !next.alternate; next = node.return) {
    node = next;
    if ((node.flags & NOT_COMMITTED) !== 0) mounted = node.return;
  }
  while (node.return) node = node.return;
  return node.tag === HOST_ROOT && mounted === own;
}
const isHydrated = isLive;

/** What a click acts on, held until hydrated. Checkboxes and radios toggle natively and are handed over as fields. */
const CLICKABLE = 'a[href], button, [role="button"], [role="tab"], [role="switch"], summary';
const FIELD = 'input, textarea, select';

/** The mark of a control that waits for the page's code (set here, or by the page's inline loader: after-paint.ts). */
const WAITING = 'data-waiting';

/** Shows that `element` waits for the page's code, unless it already says it is busy. */
function markWaiting(element: Element): void {
  if (element.hasAttribute(WAITING) || element.hasAttribute('aria-busy')) return;
  element.setAttribute(WAITING, 'aria-busy');
  element.setAttribute('aria-busy', 'true');
}

/** The page's code has acted on `element` (or never will): it no longer waits. */
function clearWaiting(element: Element): void {
  if (!element.hasAttribute(WAITING)) return;
  if (element.getAttribute(WAITING) === 'aria-busy') element.removeAttribute('aria-busy');
  element.removeAttribute(WAITING);
}

/** Once committed, the page's effects (a form's subscription to a prefill, say) run within a frame: wait this long. */
const SETTLE_MS = 50;
const POLL_MS = 50;

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
type Held =
  | { kind: 'click'; element: HTMLElement }
  | { kind: 'submit'; element: HTMLFormElement }
  /** A key pressed on a custom widget (a slider): its key is sent again to the hydrated widget. */
  | { kind: 'key'; element: HTMLElement; init: KeyboardEventInit }
  /** `value`/`checked`: what the visitor left in the field (a re-render may reset the DOM to the page's state). */
  | { kind: 'field'; element: Field; value: string; checked: boolean };

/** React's record of a field's last known value (`_valueTracker`); resetting it makes the next event a change. */
type Tracked = { _valueTracker?: { setValue(value: string): void } };

const isToggle = (field: Field): field is HTMLInputElement => field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');

/** Tells the hydrated page about a value the visitor set before hydration, through React's own change event. */
function handOver(held: Extract<Held, { kind: 'field' }>): void {
  const { element: field } = held;
  const props = propsOf(field) ?? {};
  if (isToggle(field)) {
    if (typeof props.checked !== 'boolean' || props.checked === held.checked || (field.type === 'radio' && !held.checked)) return;
    // Back to what the page thinks, then the visitor's click again: React sees a real click that changes it.
    field.checked = props.checked;
    (field as Tracked)._valueTracker?.setValue(String(props.checked));
    field.click();
    return;
  }
  if (props.value === undefined || String(props.value) === held.value) return;
  field.value = held.value;
  (field as Tracked)._valueTracker?.setValue(String(props.value));
  field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/** Whether the visitor changed a field from what the server's HTML holds (its default value, checked or selected). */
function changedFromServer(field: Field): boolean {
  if (field instanceof HTMLSelectElement) {
    if (field.multiple) return [...field.options].some((o) => o.selected !== o.defaultSelected);
    // A single select shows its last option marked `selected`, else its first.
    let byDefault = 0;
    [...field.options].forEach((o, i) => {
      if (o.defaultSelected) byDefault = i;
    });
    return field.selectedIndex !== byDefault;
  }
  if (isToggle(field)) return field.checked !== field.defaultChecked;
  return field.value !== field.defaultValue;
}

/** What the page's inline loader held before this code ran (packages/vite-config/after-paint.ts, `EARLY_QUEUE`). */
type EarlyQueue = { stop(): { kind: 'click' | 'submit'; element: Element }[] };
declare global {
  interface Window {
    __siteEarly?: EarlyQueue;
  }
}

export function keepEarlyInteraction(container: HTMLElement, timeoutMs = 10_000): () => void {
  const queue: Held[] = [];
  const started = new Map<Held, number>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const drain = () => {
    timer = undefined;
    while (queue.length > 0) {
      const held = queue[0]!;
      const { element } = held;
      if (!element.isConnected) {
        queue.shift();
        continue;
      }
      if (!isHydrated(element)) {
        if (performance.now() - (started.get(held) ?? 0) > timeoutMs) {
          queue.shift();
          clearWaiting(element);
          // The code never came: a link still goes where it points.
          if (held.kind === 'click' && element instanceof HTMLAnchorElement) window.location.assign(element.href);
          continue;
        }
        timer = setTimeout(drain, POLL_MS);
        return;
      }
      queue.shift();
      timer = setTimeout(() => {
        clearWaiting(held.element);
        if (held.kind === 'click') held.element.click();
        else if (held.kind === 'submit') held.element.requestSubmit();
        else if (held.kind === 'key') {
          held.element.dispatchEvent(new KeyboardEvent('keydown', held.init));
          held.element.dispatchEvent(new KeyboardEvent('keyup', held.init));
        }
        else handOver(held);
        drain();
      }, SETTLE_MS);
      return;
    }
  };

  const hold = (held: Held) => {
    started.set(held, performance.now());
    if (held.kind !== 'field') markWaiting(held.element);
    queue.push(held);
    if (!timer) timer = setTimeout(drain, POLL_MS);
  };

  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const control = event.target instanceof Element ? event.target.closest(CLICKABLE) : null;
    if (!(control instanceof HTMLElement) || !container.contains(control) || isHydrated(control)) return;
    if (control.hasAttribute('popovertarget')) return;
    event.preventDefault();
    event.stopPropagation();
    hold({ kind: 'click', element: control });
  };
  const onInput = (event: Event) => {
    const field = event.target instanceof Element ? event.target.closest(FIELD) : null;
    if (!field || !container.contains(field) || isHydrated(field)) return;
    const element = field as Field;
    const value = element.value;
    const checked = isToggle(element) && element.checked;
    // One hand-over per field, at the place of its first change, with its latest value.
    const earlier = queue.find((h): h is Extract<Held, { kind: 'field' }> => h.kind === 'field' && h.element === element);
    if (earlier) Object.assign(earlier, { value, checked });
    else hold({ kind: 'field', element, value, checked });
  };

  // Keys on native controls do their native thing (typing is handed over as a field, Enter/Space click a button);
  // a custom widget (role="slider", a tab list) only acts through its code.
  const onKeyDown = (event: KeyboardEvent) => {
    const widget = event.target instanceof HTMLElement ? event.target : null;
    if (!widget || !container.contains(widget) || widget.matches(`${FIELD}, ${CLICKABLE}, a`) || !widget.hasAttribute('role')) return;
    if (isHydrated(widget)) return;
    event.preventDefault();
    event.stopPropagation();
    const { key, code, shiftKey, ctrlKey, altKey, metaKey } = event;
    hold({ kind: 'key', element: widget, init: { key, code, shiftKey, ctrlKey, altKey, metaKey, bubbles: true, cancelable: true } });
  };

  // Enter in a field submits its form natively (a reload with the fields in the URL): held for the page instead.
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !container.contains(form) || isHydrated(form)) return;
    event.preventDefault();
    event.stopPropagation();
    hold({ kind: 'submit', element: form });
  };

  // Fields changed before this code arrived (it loads after the first paint) are handed over too: their value is no
  // longer the one the server wrote.
  for (const field of container.querySelectorAll<Field>(FIELD)) {
    if (!isHydrated(field) && changedFromServer(field)) hold({ kind: 'field', element: field, value: field.value, checked: isToggle(field) && field.checked });
  }

  document.addEventListener('click', onClick, true);
  document.addEventListener('input', onInput, true);
  document.addEventListener('change', onInput, true);
  document.addEventListener('submit', onSubmit, true);
  document.addEventListener('keydown', onKeyDown, true);
  // Clicks and submissions the inline loader held until now follow the fields (typed, then sent), in their order.
  const early = window.__siteEarly;
  window.__siteEarly = undefined;
  for (const { kind, element } of early?.stop() ?? []) {
    if (!container.contains(element)) continue;
    if (kind === 'submit' && element instanceof HTMLFormElement) hold({ kind, element });
    else if (kind === 'click' && element instanceof HTMLElement) hold({ kind, element });
  }
  return () => {
    document.removeEventListener('keydown', onKeyDown, true);
    document.removeEventListener('submit', onSubmit, true);
    clearTimeout(timer);
    document.removeEventListener('click', onClick, true);
    document.removeEventListener('input', onInput, true);
    document.removeEventListener('change', onInput, true);
  };
}

// Installed when this module is evaluated, which main.tsx makes its first import: the federation runtime's top-level
// awaits (shared React and the rest) let the page's load event fire before main.tsx's own code runs.
const root = typeof document === 'undefined' ? null : document.getElementById('root');
if (root?.hasAttribute('data-ssr')) keepEarlyInteraction(root);
