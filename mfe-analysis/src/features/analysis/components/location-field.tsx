import { useId } from 'react';
import { LOCATION_OPTIONS, locationNote } from '../data/locations';

/** The location dropdown with the spec's two notes (another town; no location). */
export function LocationField({
  value,
  onChange,
  disabled,
  fieldProps,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  fieldProps?: { onFocus: () => void; onBlur: (e: { currentTarget: { value: string } }) => void };
}) {
  const id = useId();
  const note = locationNote(value);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-fg">
        Location
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={note ? `${id}-note` : undefined}
        className="mt-1 block w-full rounded-lg border border-border bg-surface px-3 py-2.5 text-fg shadow-sm disabled:opacity-60"
        {...fieldProps}
      >
        {LOCATION_OPTIONS.map((o) => (
          <option key={o.label} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {/* A live region that stays in the page, so a note that appears is announced. */}
      <div aria-live="polite">
        {note && (
          <p id={`${id}-note`} className="mt-2 rounded-lg bg-warning-soft px-3 py-2 text-sm text-fg">
            {note}
          </p>
        )}
      </div>
    </div>
  );
}
