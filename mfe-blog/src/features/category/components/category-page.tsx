import { useParams } from 'react-router-dom';
import { PageHeader, usePageMeta } from '@site/ui';

/** `some-category` shown as `Some Category`. */
export function titleCaseSlug(slug: string): string {
  return slug
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

export function CategoryPage() {
  const { category = '' } = useParams();
  const name = titleCaseSlug(category);
  usePageMeta(`${name} | AI Automation Blog`);
  return <PageHeader title={name} />;
}
