import { useState, type ReactNode } from 'react';
import * as Collapsible from '@radix-ui/react-collapsible';
import type { AiAssessment } from '@site/contracts/analysis';
import { cn } from '@site/ui';
import { SampleMark } from './sample-mark';
import { BusinessTypeAnalysis, DetailedRecommendations, OpportunitiesList, RoadmapList, SignalsList } from './ai-parts';

/*
 * The five collapsible panels (spec section 4): closed at first, toggled on click. Their content is always in the
 * page (forceMount) and hidden on screen while closed, so a printed report shows every panel expanded.
 */

export const AI_PANELS = [
  { key: 'opportunities', title: 'Top Automation Opportunities' },
  { key: 'roadmap', title: 'Implementation Roadmap' },
  { key: 'businessType', title: 'Business Type Analysis' },
  { key: 'signals', title: 'Automation Signals' },
  { key: 'recommendations', title: 'Detailed AI Recommendations' },
] as const;
export type AiPanelKey = (typeof AI_PANELS)[number]['key'];

function Panel({ title, children, onToggle }: { title: string; children: ReactNode; onToggle: (open: boolean) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <Collapsible.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        onToggle(o);
      }}
      className="rounded-xl border border-border bg-surface break-inside-avoid-page"
    >
      <h4>
        <Collapsible.Trigger data-print-keep="" className="flex w-full items-center justify-between gap-3 rounded-xl px-4 py-3 text-left font-semibold text-fg hover:bg-surface-muted">
          <span>{title}</span>
          <span aria-hidden="true" className={cn('text-muted-fg transition-transform print:hidden', open && 'rotate-180')}>
            ▾
          </span>
        </Collapsible.Trigger>
      </h4>
      <Collapsible.Content forceMount data-print-expand="" className="px-4 pb-4 data-[state=closed]:hidden">
        {children}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

export function AiPanels({ ai, sample = false, onToggle }: { ai: Partial<AiAssessment> | null; sample?: boolean; onToggle: (panel: AiPanelKey, open: boolean) => void }) {
  const body: Record<AiPanelKey, ReactNode> = {
    opportunities: <OpportunitiesList ai={ai} />,
    roadmap: <RoadmapList ai={ai} />,
    businessType: <BusinessTypeAnalysis ai={ai} />,
    signals: <SignalsList ai={ai} />,
    recommendations: <DetailedRecommendations ai={ai} />,
  };
  return (
    <section aria-labelledby="ai-details-heading" className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="ai-details-heading" className="text-lg font-bold text-fg">
          AI Automation Details
        </h3>{' '}
        {sample && <SampleMark />}
      </div>
      {sample && <p className="text-sm text-muted-fg">The hours, savings and signal strengths below rest on sample data: treat them as an example.</p>}
      {AI_PANELS.map((p) => (
        <Panel key={p.key} title={p.title} onToggle={(open) => onToggle(p.key, open)}>
          {body[p.key]}
        </Panel>
      ))}
    </section>
  );
}
