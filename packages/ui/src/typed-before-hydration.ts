import { useEffect, type RefObject } from 'react';

/**
 * A server-rendered field can be typed into before the page's code has loaded; hydration keeps that text on screen
 * but the component's state does not know it. Right after hydration this hands the typed value to `adopt` (once),
 * so nothing the visitor typed is lost or ignored.
 */
export function useValueTypedBeforeHydration(
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  adopt: (typed: string) => void,
): void {
  useEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== value) adopt(typed);
    // Once, on the first commit: later differences are the component's own updates.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
