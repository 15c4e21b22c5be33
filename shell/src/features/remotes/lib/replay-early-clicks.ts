/** React marks every element it has hydrated with its props (an internal key, stable across React versions since 16). */
const isHydrated = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactProps$'));

/** How long after an element is marked hydrated its page's effects have surely run. */
const SETTLE_MS = 100;

/** What a click can act on without being a link (links work without JavaScript, so they are left to the browser). */
const CONTROL = 'button, [role="button"], [role="tab"], [role="switch"], summary, input[type="checkbox"], input[type="radio"]';

/**
 * A server-rendered page shows its buttons before their code has loaded (a remote's area hydrates once its code is
 * there). A click on a control that is not hydrated yet would do nothing; this holds it and clicks it again as soon
 * as React has hydrated that control (within `timeoutMs`), so a quick visitor's click is not lost.
 */
export function replayEarlyClicks(container: HTMLElement, timeoutMs = 10_000): () => void {
  const onClick = (event: MouseEvent) => {
    const control = event.target instanceof Element ? event.target.closest(CONTROL) : null;
    if (!control || !container.contains(control) || isHydrated(control)) return;
    event.preventDefault();
    event.stopPropagation();
    const started = performance.now();
    const replay = () => {
      if (!control.isConnected) return;
      // React marks an element while it renders the hydration, before the commit and its effects (a form's
      // subscription to a prefill, say): the click goes in a moment later, once those have run.
      if (isHydrated(control)) setTimeout(() => control.isConnected && (control as HTMLElement).click(), SETTLE_MS);
      else if (performance.now() - started < timeoutMs) setTimeout(replay, 50);
    };
    setTimeout(replay, 50);
  };
  document.addEventListener('click', onClick, true);
  return () => document.removeEventListener('click', onClick, true);
}
