import type { ReactNode } from 'react';
import { usePageMeta } from '@site/ui';

/** The top of an admin screen: its one h1, a line about it, actions on the right; sets the document title. */
export function AdminPageHeader({ title, heading, lead, actions }: { title: string; heading: string; lead?: ReactNode; actions?: ReactNode }) {
  usePageMeta(title);
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-extrabold tracking-tight text-fg sm:text-3xl">{heading}</h1>
        {lead && <p className="mt-1 text-muted-fg">{lead}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
