import { useScrollToTop } from '@site/ui';
import type { CaseStudy } from '../data/case-studies';
import { ProjectPage } from './project-page';
import { RestaurantCasePage } from './restaurant-case-page';
import { ServiceBusinessPage } from './service-business-page';

/** Picks the layout of a case-study page by its kind; every kind scrolls to top (the route table owns the head). */
export function CaseStudyPage({ study }: { study: CaseStudy }) {
  useScrollToTop();
  if (study.kind === 'project') return <ProjectPage study={study} />;
  if (study.kind === 'service-business') return <ServiceBusinessPage study={study} />;
  return <RestaurantCasePage study={study} />;
}
