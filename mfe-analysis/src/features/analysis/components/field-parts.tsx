import type { ReactNode } from 'react';
import { cn } from '@site/ui';

/** Classes of the tool's text inputs; red border when invalid. */
export function inputClasses(invalid?: boolean): string {
  return cn(
    'mt-1 block w-full rounded-lg border bg-surface px-3 py-2.5 text-fg shadow-sm placeholder:text-muted-fg/80 disabled:opacity-60',
    invalid ? 'border-danger' : 'border-border',
  );
}

/** A field's error message (referenced by the input's aria-describedby). */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1 text-sm font-medium text-danger">
      {children}
    </p>
  );
}
