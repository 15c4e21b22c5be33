import { useId, useRef } from 'react';
import { Button, notify } from '@site/ui';

/** Copies text to the clipboard; when the browser refuses, selects it so Ctrl+C works. */
export async function copyText(text: string, select?: () => void): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify.success('Copied to the clipboard');
  } catch {
    select?.();
    notify.error('Could not copy automatically', { description: 'The text is selected: press Ctrl+C (⌘C on a Mac).' });
  }
}

/** A titled code block with a Copy button. The code scrolls sideways instead of widening the page. */
export function CopyBlock({ label, code }: { label: string; code: string }) {
  const ref = useRef<HTMLPreElement>(null);
  const labelId = useId();
  const select = () => {
    const el = ref.current;
    if (!el) return;
    const range = document.createRange();
    range.selectNodeContents(el);
    const sel = window.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
  };
  return (
    <figure className="min-w-0">
      <div className="flex items-center justify-between gap-2 rounded-t-xl border border-b-0 border-border bg-surface-muted px-3 py-1.5">
        <figcaption id={labelId} className="text-xs font-semibold text-muted-fg">
          {label}
        </figcaption>
        <Button size="sm" variant="ghost" className="py-1" onClick={() => copyText(code, select)} aria-label={`Copy ${label}`}>
          Copy
        </Button>
      </div>
      <pre
        ref={ref}
        tabIndex={0}
        className="max-h-96 overflow-auto rounded-b-xl border border-border bg-slate-950 p-3 text-xs leading-relaxed text-slate-100 dark:bg-black/40"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}
