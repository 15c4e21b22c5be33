import { Link } from 'react-router-dom';
import { PageHeader, usePageMeta, useScrollToTop } from '@site/ui';
import type { SolutionDesign } from '../data/solution-designs';

/** One layout for the four solution-design pages. */
export function SolutionDesignPage({ design }: { design: SolutionDesign }) {
  usePageMeta(design.meta.title, design.meta.description);
  useScrollToTop();
  return (
    <PageHeader
      title={design.headline}
      eyebrow={
        <Link to={design.townPath} className="text-sm font-semibold text-primary hover:underline dark:text-blue-300">
          ← Back to {design.town} Services
        </Link>
      }
    />
  );
}
