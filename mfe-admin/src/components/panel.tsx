import { useId, type ReactNode } from 'react';
import { cn } from '@site/ui';

/** A titled block of an admin screen: a landmark-free section named by its h2, with optional actions. */
export function Panel({
  title,
  description,
  actions,
  children,
  className,
  id,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
}) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className={cn('rounded-2xl border border-border bg-surface p-4 shadow-sm sm:p-6', className)}>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-bold text-fg">
            {title}
          </h2>
          {description && <div className="mt-1 text-sm text-muted-fg">{description}</div>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
