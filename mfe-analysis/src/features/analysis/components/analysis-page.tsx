import { PageHeader, usePageMeta } from '@site/ui';
import { analysisPages } from '../data/meta';

/** The free analysis tool; /website-analysis adds the hero and the why-analyze section. */
export function AnalysisPage({ variant }: { variant: 'free' | 'website' }) {
  const meta = analysisPages.find((p) => p.path === (variant === 'website' ? '/website-analysis' : '/free-analysis'))!;
  usePageMeta(meta.title, meta.description);
  return (
    <>
      <PageHeader
        title="Free Business Growth Scorecard"
        lead="Enter your business name and town. We check your listings, reviews and website and show where you stand against local competitors."
      />
      <section id="analysis-tool" aria-labelledby="analysis-tool-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:px-8">
        <h2 id="analysis-tool-heading" className="text-2xl font-bold">
          SMB Scorecard
        </h2>
      </section>
    </>
  );
}
