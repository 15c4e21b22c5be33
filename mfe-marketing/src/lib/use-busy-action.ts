import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * One busy flag per page for navigation handlers (spec section 4, city landing pages): while a handler
 * runs, `busyKey` names the clicked button; the flag clears afterwards, also when the handler throws,
 * and the error goes to the console only. A click while a handler runs is ignored. The handler's signal
 * aborts when the page unmounts, so a handler that finishes late does not act on a page the visitor left.
 */
export function useBusyAction() {
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const running = useRef(false);
  const unmounted = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    unmounted.current = controller;
    return () => controller.abort();
  }, []);

  const run = useCallback(async (key: string, handler: (signal: AbortSignal) => void | Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusyKey(key);
    try {
      await handler(unmounted.current?.signal ?? AbortSignal.abort());
    } catch (err) {
      console.error(`Navigation from "${key}" failed`, err);
    } finally {
      running.current = false;
      setBusyKey(null);
    }
  }, []);
  return { busyKey, busy: busyKey !== null, run };
}
