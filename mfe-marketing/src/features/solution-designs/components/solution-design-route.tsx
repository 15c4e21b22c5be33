import { NotFound } from '@site/ui';
import { solutionDesigns } from '../data/solution-designs';
import { SolutionDesignPage } from './solution-design-page';

/** A solution-design page by its slug: the route table holds only the metadata; the copy loads with this page. */
export function SolutionDesignRoute({ slug }: { slug: string }) {
  const design = solutionDesigns.find((d) => d.slug === slug);
  return design ? <SolutionDesignPage design={design} /> : <NotFound />;
}
