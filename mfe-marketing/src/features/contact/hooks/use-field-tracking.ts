import { useCallback, useRef } from 'react';
import { track } from '@site/ui';

/**
 * Focus and blur handlers that record each field's first focus and first blur of this page view.
 * Tracking is best effort: it never throws into the form (the original site's could).
 */
export function useFieldTracking(form: string) {
  const sent = useRef(new Set<string>());
  const once = useCallback(
    (name: 'form_field_focus' | 'form_field_blur', field: string) => {
      try {
        const key = `${name}:${field}`;
        if (sent.current.has(key)) return;
        sent.current.add(key);
        track(name, { form, field });
      } catch {
        // Never let analytics break typing.
      }
    },
    [form],
  );
  return {
    onFocus: (field: string) => () => once('form_field_focus', field),
    onBlur: (field: string) => () => once('form_field_blur', field),
  };
}
