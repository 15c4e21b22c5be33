import { Button, useGoToSection } from '@site/ui';
import type { ScorecardData } from './normalize-result';
import { GENERATING_RECOMMENDATIONS, RoadmapList } from './ai-parts';

/** Body of the 'AI Implementation Guide' modal (lazy-loaded). */
export default function ImplementationGuideContent({ data }: { data: ScorecardData }) {
  const goToSection = useGoToSection();
  const ai = data.aiAssessment;
  const recs = Array.isArray(ai?.detailedRecommendations) ? ai.detailedRecommendations : [];
  return (
    <div className="space-y-6 text-sm">
      <section aria-labelledby="guide-phases">
        <h3 id="guide-phases" className="text-lg font-semibold">
          Phases
        </h3>
        <div className="mt-2">
          <RoadmapList ai={ai} />
        </div>
      </section>
      <section aria-labelledby="guide-steps">
        <h3 id="guide-steps" className="text-lg font-semibold">
          Step by step
        </h3>
        {recs.length === 0 ? (
          <p className="mt-2 text-muted-fg">{GENERATING_RECOMMENDATIONS}</p>
        ) : (
          <ol className="mt-2 list-decimal space-y-2 pl-5">
            {recs.map((r) => (
              <li key={r.title}>
                <span className="font-semibold">{r.title}</span>: {r.effort.toLowerCase()} effort, {r.timeline}, {r.impact.toLowerCase()} impact.
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="guide-start">
        <h3 id="guide-start" className="text-lg font-semibold">
          Getting started
        </h3>
        <ol className="mt-2 list-decimal space-y-1 pl-5">
          <li>Fix the listing and website gaps in the action plan first: they cost little and lift every score.</li>
          <li>Write down how many hours a week each task above really takes; the savings follow from those hours.</li>
          <li>Start with one automation, measure it for a month, then add the next.</li>
        </ol>
        <Button className="mt-4" onClick={() => goToSection('contact')}>
          Book a free consultation for {data.businessName}
        </Button>
      </section>
    </div>
  );
}
