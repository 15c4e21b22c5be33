import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';
import { cn } from '@site/ui';

export const controlClass =
  'mt-1.5 block w-full rounded-lg border border-border bg-bg px-3 py-2.5 text-fg shadow-sm placeholder:text-muted-fg/80 focus:border-primary focus:outline-2 focus:outline-ring aria-[invalid=true]:border-danger disabled:opacity-60';

type FieldProps = {
  label: string;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  /** Shown at the right of the label, e.g. a character count. */
  aside?: ReactNode;
  className?: string;
};

/**
 * A labelled control with its hint and its error next to it: the control is aria-invalid and described by both,
 * so a screen reader hears the message when it reaches the field.
 */
export function Field({
  label,
  required,
  hint,
  error,
  aside,
  className,
  children,
}: FieldProps & { children: (control: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string; required?: boolean; 'aria-required'?: true }) => ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <label htmlFor={id} className="text-sm font-semibold text-fg">
          {label} {required && <span className="font-normal text-muted-fg">(required)</span>}
        </label>
        {aside && <span className="text-xs text-muted-fg">{aside}</span>}
      </div>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy, required: required || undefined, 'aria-required': required ? true : undefined })}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-danger">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="mt-1.5 text-xs text-muted-fg">
          {hint}
        </p>
      )}
    </div>
  );
}

export function TextField({ label, required, hint, error, aside, className, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <Field label={label} required={required} hint={hint} error={error} aside={aside} className={className}>
      {(control) => <input {...input} {...control} className={controlClass} />}
    </Field>
  );
}

export function TextAreaField({
  label,
  required,
  hint,
  error,
  aside,
  className,
  ...area
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  return (
    <Field label={label} required={required} hint={hint} error={error} aside={aside} className={className}>
      {(control) => <textarea {...area} {...control} className={cn(controlClass, (area.rows ?? 0) > 8 && 'font-mono text-sm')} />}
    </Field>
  );
}
