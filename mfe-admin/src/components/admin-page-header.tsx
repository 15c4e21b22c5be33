import type { ReactNode } from 'react';

/** The top of an admin screen: its one h1, a line about it, actions on the right (the route table owns the head). */
export function AdminPageHeader({ heading, lead, actions }: { heading: string; lead?: ReactNode; actions?: ReactNode }) {
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
