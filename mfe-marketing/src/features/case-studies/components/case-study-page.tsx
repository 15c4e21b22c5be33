import { PageHeader, usePageMeta, useScrollToTop } from '@site/ui';
import type { CaseStudyFrame } from '../data/case-studies';

export function CaseStudyPage({ study }: { study: CaseStudyFrame }) {
  usePageMeta(study.meta.title, study.meta.description);
  useScrollToTop();
  return <PageHeader title={study.headline} />;
}
