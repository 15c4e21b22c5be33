import { useCallback, useRef, useState } from 'react';

/**
 * Optional hook the end-to-end tests install (`window.__SITE_TEST_HOOKS__.beforeNavigate`) to hold a
 * navigation handler open or make it fail, so the busy wording and its clean-up can be observed.
 * Unset in production, where it costs one property lookup.
 */
type TestHooks = { beforeNavigate?: (key: string) => unknown };
declare global {
  interface Window {
    __SITE_TEST_HOOKS__?: TestHooks;
  }
}

/**
 * One busy flag per page for navigation handlers (spec section 4, city landing pages): while a handler
 * runs, `busyKey` names the clicked button; the flag clears afterwards, also when the handler throws,
 * and the error goes to the console only.
 */
export function useBusyAction() {
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const running = useRef(false);
  const run = useCallback(async (key: string, handler: () => void | Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusyKey(key);
    try {
      await window.__SITE_TEST_HOOKS__?.beforeNavigate?.(key);
      await handler();
    } catch (err) {
      console.error(`Navigation from "${key}" failed`, err);
    } finally {
      running.current = false;
      setBusyKey(null);
    }
  }, []);
  return { busyKey, busy: busyKey !== null, run };
}
