import { PageHeader, usePageMeta } from '@site/ui';
import { blogMeta } from '../data/meta';

export function BlogPage() {
  usePageMeta(blogMeta.title, blogMeta.description);
  return <PageHeader title="AI Automation Blog" lead="Practical guides and local case studies for East Bay business owners." />;
}
