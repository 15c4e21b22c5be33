import { forwardRef, useId, useState } from 'react';
import type { Recommendation } from '@site/contracts/analysis';
import { cn } from '@site/ui';
import { PriorityBadge } from './ai-parts';

function RecommendationItem({ rec, onClick }: { rec: Recommendation; onClick: (rec: Recommendation) => void }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const actions = Array.isArray(rec.actions) ? rec.actions : [];
  return (
    <li className="rounded-xl border border-border bg-bg p-4 break-inside-avoid-page">
      <div className="flex flex-wrap items-center gap-2">
        <PriorityBadge priority={rec.priority ?? 'low'} />
        {rec.category && <span className="text-xs font-medium uppercase tracking-wide text-muted-fg">{rec.category}</span>}
      </div>
      <h4 className="mt-2 font-semibold text-fg">{rec.title}</h4>
      {rec.description && <p className="mt-1 text-sm text-fg">{rec.description}</p>}
      {actions.length > 0 && (
        <>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={id}
            onClick={() => {
              if (!open) onClick(rec);
              setOpen(!open);
            }}
            className="mt-2 text-sm font-semibold text-primary hover:underline screen-dark:text-blue-300 print:hidden"
          >
            {open ? 'Hide the steps' : `Show the steps (${actions.length})`}
            <span className="sr-only">: {rec.title}</span>
          </button>
          <ol id={id} data-print-expand="" className={cn('mt-2 list-decimal space-y-1 pl-5 text-sm text-fg', !open && 'hidden')}>
            {actions.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ol>
        </>
      )}
    </li>
  );
}

/** 'Action Plan and Recommendations': the engine's recommendations, most valuable first. */
export const ActionPlan = forwardRef<HTMLElement, { recommendations: Recommendation[]; onRecommendationClick: (rec: Recommendation) => void }>(
  function ActionPlan({ recommendations, onRecommendationClick }, ref) {
    return (
      <section ref={ref} aria-labelledby="action-plan-heading" className="rounded-2xl border border-border bg-surface p-5 shadow-sm sm:p-6">
        <h3 id="action-plan-heading" className="text-lg font-bold text-fg">
          Action Plan and Recommendations
        </h3>
        {recommendations.length === 0 ? (
          <p className="mt-2 text-sm text-muted-fg">No recommendations: nothing in this analysis needs fixing right now.</p>
        ) : (
          <ol className="mt-3 grid gap-3 lg:grid-cols-2">
            {recommendations.map((r) => (
              <RecommendationItem key={r.title} rec={r} onClick={onRecommendationClick} />
            ))}
          </ol>
        )}
      </section>
    );
  },
);
