import { lazy } from 'react';
import { BLOG_ROUTES } from '@site/contracts/blog-routes';
import type { Post } from '@site/contracts/posts';
import type { PostListData, RemoteRouteDef } from '@site/ui';
import { categoryHead } from '../features/category/data/category-head';
import { postHead } from '../features/post-detail/data/post-head';
import { blogMeta } from '../features/posts/data/meta';

const BlogPage = lazy(() => import('../features/posts/components/blog-page').then((m) => ({ default: m.BlogPage })));
const CategoryPage = lazy(() => import('../features/category/components/category-page').then((m) => ({ default: m.CategoryPage })));
const PostPage = lazy(() => import('../features/post-detail/components/post-page').then((m) => ({ default: m.PostPage })));

/**
 * The one route table of mfe-blog: its router, its manifest and the server's metadata read it. Its paths are the
 * blog's URL scheme in @site/contracts/blog-routes, which every other address of a post or category (the API's
 * feed and sitemap among them) is filled from.
 */
export const routes: RemoteRouteDef[] = [
  // The server renders the lists with the first page of posts each shows (what the page's queries fetch first).
  { path: BLOG_ROUTES.home, page: BlogPage, meta: blogMeta, data: { source: 'post-list' } },
  {
    path: BLOG_ROUTES.category,
    page: CategoryPage,
    data: { source: 'post-list', param: 'category' },
    head: (params, data: PostListData) => categoryHead(params, data),
  },
  // The server loads the published post by slug (404 when there is none) and renders this head into the HTML.
  { path: BLOG_ROUTES.post, page: PostPage, data: { source: 'post', param: 'slug' }, head: (_params, post: Post) => postHead(post) },
];
