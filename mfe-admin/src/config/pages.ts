import type { PageMeta } from '@site/contracts/manifest';
import { adminEditPostPath } from '@site/contracts/posts-rules';

const page = (path: string, heading: string): PageMeta & { heading: string } => ({
  path,
  heading,
  title: `${heading} | Admin`,
  description: 'Administration of the Tri-Valley AI Automation website.',
  noindex: true,
});

/** The admin area's pages: each route's heading and title (the edit page's id varies). */
export const adminPages = {
  gate: page('/admin', 'Admin Access'),
  dashboard: page('/admin/dashboard', 'Dashboard'),
  alerts: page('/admin/alerts', 'Alert Management'),
  posts: page('/admin/posts', 'Blog Posts'),
  createPost: page('/admin/posts/create', 'Create Post'),
  integrations: page('/admin/integrations', 'Integrations'),
  media: page('/admin/media', 'Media'),
  deploys: page('/admin/deploys', 'Deploys'),
};
export const EDIT_POST_ROUTE = '/admin/posts/:id/edit';
/** The same address the webhook answers as a post's `adminUrl`. */
export const editPostPath = adminEditPostPath;
/** The head of one post's edit screen (the route table's `head`). */
export function editPostHead(id: string): PageMeta {
  const { heading: _heading, ...meta } = page(editPostPath(id), 'Edit Post');
  return meta;
}
