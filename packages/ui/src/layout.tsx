import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from './cn';

/** The class of a section the page's loader shows after the load event (`RENDER_AFTER_LOAD` in after-paint.ts). */
const RENDER_AFTER_LOAD = 'render-after-load';

export function Container({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8', className)} {...rest} />;
}

export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('rounded-2xl border border-border bg-surface p-6 shadow-sm', className)} {...rest} />;
}

export function Badge({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full bg-primary-soft px-3 py-1 text-xs font-semibold tracking-wide text-primary-soft-fg',
        className,
      )}
    >
      {children}
    </span>
  );
}

/**
 * A page section with an anchor id and a heading that names it for screen readers.
 *
 * `renderAfterLoad`: for a section with a form that starts below the screen. The page's loader shows it only once the
 * page has loaded (packages/vite-config/after-paint.ts says why); it needs an `id`.
 */
export function Section({
  id,
  title,
  eyebrow,
  intro,
  className,
  renderAfterLoad = false,
  children,
}: {
  id?: string;
  title: string;
  eyebrow?: string;
  intro?: ReactNode;
  className?: string;
  renderAfterLoad?: boolean;
  children?: ReactNode;
}) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={cn('render-near-screen py-16 sm:py-20', renderAfterLoad && id && RENDER_AFTER_LOAD, className)}
    >
      <Container>
        <div className="mx-auto mb-10 max-w-3xl text-center">
          {eyebrow && <p className="mb-2 text-sm font-semibold uppercase tracking-wider text-primary dark:text-blue-300">{eyebrow}</p>}
          <h2 id={headingId} className="text-3xl font-bold tracking-tight text-fg sm:text-4xl">
            {title}
          </h2>
          {intro && <div className="mt-4 text-lg text-muted-fg">{intro}</div>}
        </div>
        {children}
      </Container>
    </section>
  );
}
