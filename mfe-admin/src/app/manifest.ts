import type { PageMeta } from '@site/contracts/manifest';
import { adminPages, EDIT_POST_ROUTE } from '../features/auth/data/pages';

export const pages: PageMeta[] = adminPages.map(({ heading: _heading, ...meta }) => meta);
export const routes = [...adminPages.map((p) => p.path), EDIT_POST_ROUTE];
