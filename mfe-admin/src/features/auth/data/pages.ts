import type { PageMeta } from '@site/contracts/manifest';

const page = (path: string, heading: string): PageMeta & { heading: string } => ({
  path,
  heading,
  title: `${heading} | Admin`,
  description: 'Administration of the Tri-Valley AI Automation website.',
  noindex: true,
});

/** The admin area's pages: each route's heading and title (the edit page's id varies). */
export const adminPages = [
  page('/admin', 'Admin Access'),
  page('/admin/dashboard', 'Dashboard'),
  page('/admin/alerts', 'Alert Management'),
  page('/admin/posts', 'Blog Posts'),
  page('/admin/posts/create', 'Create Post'),
];
export const EDIT_POST_ROUTE = '/admin/posts/:id/edit';
