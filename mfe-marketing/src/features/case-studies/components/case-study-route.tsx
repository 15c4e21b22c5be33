import { NotFound } from '@site/ui';
import { caseStudies } from '../data/case-studies';
import { CaseStudyPage } from './case-study-page';

/** A case-study page by its study's key: the route table holds only the metadata; the copy loads with this page. */
export function CaseStudyRoute({ studyKey }: { studyKey: string }) {
  const study = caseStudies.find((s) => s.key === studyKey);
  return study ? <CaseStudyPage study={study} /> : <NotFound />;
}
