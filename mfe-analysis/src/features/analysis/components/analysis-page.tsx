import { PageHeader } from '@site/ui';
import { useEngagementTracking } from '../hooks/use-engagement-tracking';
import { AnalysisTool } from './analysis-tool';
import { WebsiteHero, WhyAnalyze } from './website-hero';

/** The free analysis tool; /website-analysis adds the hero, the why-analyze section and the website mode. */
export function AnalysisPage({ variant }: { variant: 'free' | 'website' }) {
  const path = variant === 'website' ? '/website-analysis' : '/free-analysis';
  useEngagementTracking(path);
  return (
    <>
      {variant === 'website' ? (
        <WebsiteHero />
      ) : (
        <div className="print:hidden">
          <PageHeader
            title="Free Business Growth Scorecard"
            lead="Enter your business name and town. We check your listings, reviews and website and show where you stand against local competitors, with an AI readiness assessment and a plan."
          />
        </div>
      )}
      {variant === 'website' && <WhyAnalyze />}
      <AnalysisTool allowWebsite={variant === 'website'} />
    </>
  );
}
