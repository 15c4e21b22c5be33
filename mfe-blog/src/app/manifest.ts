import { blogMeta } from '../features/posts/data/meta';

export const pages = [blogMeta];
export const routes = ['/blog', '/blog/category/:category', '/blog/:slug'];
