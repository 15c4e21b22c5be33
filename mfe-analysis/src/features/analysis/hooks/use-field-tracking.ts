import { useCallback } from 'react';
import { track } from '@site/ui';

/**
 * Focus and blur events of a form's fields (spec section 7), without the original's runtime failure: the
 * handlers only call track(), which never throws. No typed value is sent, only whether the field is filled.
 */
export function useFieldTracking(form: string) {
  return useCallback(
    (field: string) => ({
      onFocus: () => track('form_field_focus', { form, field }),
      onBlur: (e: { currentTarget: { value: string } }) => track('form_field_blur', { form, field, filled: e.currentTarget.value.trim() !== '' }),
    }),
    [form],
  );
}
