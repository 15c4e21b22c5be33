import type { ReactNode } from 'react';

/** The root element of a remote's ./App: names the remote and the version of the code actually running. */
export function RemoteRoot({ name, version, children }: { name: string; version: string; children: ReactNode }) {
  return (
    <div data-mfe={name} data-mfe-version={version}>
      {children}
    </div>
  );
}

/** A page's top: the one h1 of the page, with an optional lead paragraph. */
export function PageHeader({ title, lead, eyebrow, children }: { title: string; lead?: ReactNode; eyebrow?: ReactNode; children?: ReactNode }) {
  return (
    <div className="border-b border-border bg-gradient-to-b from-primary-soft/60 to-bg">
      <div className="mx-auto w-full max-w-6xl px-4 py-14 sm:px-6 sm:py-20 lg:px-8">
        {eyebrow && <div className="mb-4">{eyebrow}</div>}
        <h1 className="max-w-3xl text-4xl font-extrabold tracking-tight text-fg sm:text-5xl">{title}</h1>
        {lead && <div className="mt-5 max-w-2xl text-lg text-muted-fg">{lead}</div>}
        {children}
      </div>
    </div>
  );
}
