import type { PageMeta } from '@site/contracts/manifest';

const page = (path: string, title: string): PageMeta => ({
  path,
  title: `${title} | Admin`,
  description: 'Administration of the Tri-Valley AI Automation website.',
  noindex: true,
});

export const pages: PageMeta[] = [
  page('/admin', 'Admin Access'),
  page('/admin/dashboard', 'Dashboard'),
  page('/admin/alerts', 'Alert Management'),
  page('/admin/posts', 'Blog Posts'),
  page('/admin/posts/create', 'Create Post'),
];
export const routes = [...pages.map((p) => p.path), '/admin/posts/:id/edit'];
