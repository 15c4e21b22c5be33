import { usePageMeta, useScrollToTop } from '@site/ui';
import type { CaseStudy } from '../data/case-studies';
import { ProjectPage } from './project-page';
import { RestaurantCasePage } from './restaurant-case-page';
import { ServiceBusinessPage } from './service-business-page';

/** Picks the layout of a case-study page by its kind; every kind sets the title and scrolls to top. */
export function CaseStudyPage({ study }: { study: CaseStudy }) {
  usePageMeta(study.meta.title, study.meta.description);
  useScrollToTop();
  if (study.kind === 'project') return <ProjectPage study={study} />;
  if (study.kind === 'service-business') return <ServiceBusinessPage study={study} />;
  return <RestaurantCasePage study={study} />;
}
