import { lazy } from 'react';
import type { RemoteRouteDef } from '@site/ui';
import { adminPages, EDIT_POST_ROUTE } from '../features/auth/data/pages';

const AdminGate = lazy(() => import('../features/auth/components/admin-gate').then((m) => ({ default: m.AdminGate })));

/** The one route table of mfe-admin: its router, its manifest and the server's metadata read it. */
export const routes: RemoteRouteDef[] = [
  ...adminPages.map(({ heading: _heading, ...meta }) => ({ path: meta.path, page: AdminGate, meta })),
  { path: EDIT_POST_ROUTE, page: AdminGate },
];
