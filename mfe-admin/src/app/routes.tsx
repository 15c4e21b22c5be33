import { lazy, Suspense, type ComponentType } from 'react';
import type { AdminSection } from '@site/contracts/admin';
import type { RemoteRouteDef } from '@site/ui';
import { adminPages, EDIT_POST_ROUTE, editPostHead } from '../config/pages';

// The frame (session check, 'Admin Access' gate, sidebar) loads first; each screen is its own chunk behind it,
// so a logged-out visit downloads only the gate.
const AdminFrame = lazy(() => import('../features/auth/components/admin-frame').then((m) => ({ default: m.AdminFrame })));
const DashboardScreen = lazy(() => import('./screens/dashboard-screen').then((m) => ({ default: m.DashboardScreen })));
const AlertsScreen = lazy(() => import('./screens/alerts-screen').then((m) => ({ default: m.AlertsScreen })));
const PostsPage = lazy(() => import('../features/posts/components/posts-page').then((m) => ({ default: m.PostsPage })));
const CreatePostPage = lazy(() => import('../features/posts/components/create-post-page').then((m) => ({ default: m.CreatePostPage })));
const IntegrationsPage = lazy(() => import('../features/integrations/components/integrations-page').then((m) => ({ default: m.IntegrationsPage })));
const DeploysPage = lazy(() => import('../features/deploys/components/deploys-page').then((m) => ({ default: m.DeploysPage })));
const MediaPage = lazy(() => import('../features/media/components/media-page').then((m) => ({ default: m.MediaPage })));
const EditPostPage = lazy(() => import('../features/posts/components/edit-post-page').then((m) => ({ default: m.EditPostPage })));

function ScreenLoading() {
  return (
    <div role="status" aria-live="polite" className="min-h-[60vh]">
      <span className="sr-only">Loading…</span>
    </div>
  );
}

/** A screen inside the frame: the frame decides between the gate and the panel. */
function AdminScreen({ section, screen: Screen }: { section: AdminSection | null; screen?: ComponentType }) {
  return (
    <AdminFrame section={section}>
      {Screen && (
        <Suspense fallback={<ScreenLoading />}>
          <Screen />
        </Suspense>
      )}
    </AdminFrame>
  );
}

const { gate, dashboard, alerts, posts, createPost, integrations, media, deploys } = adminPages;
const meta = ({ heading: _heading, ...m }: (typeof adminPages)[keyof typeof adminPages]) => m;

/** The one route table of mfe-admin: its router, its manifest and the server's metadata read it. */
export const routes: RemoteRouteDef[] = [
  { path: gate.path, page: AdminScreen, props: { section: null }, meta: meta(gate) },
  { path: dashboard.path, page: AdminScreen, props: { section: 'dashboard', screen: DashboardScreen }, meta: meta(dashboard) },
  { path: alerts.path, page: AdminScreen, props: { section: 'alerts', screen: AlertsScreen }, meta: meta(alerts) },
  { path: posts.path, page: AdminScreen, props: { section: 'posts', screen: PostsPage }, meta: meta(posts) },
  { path: createPost.path, page: AdminScreen, props: { section: 'posts', screen: CreatePostPage }, meta: meta(createPost) },
  { path: integrations.path, page: AdminScreen, props: { section: 'integrations', screen: IntegrationsPage }, meta: meta(integrations) },
  { path: media.path, page: AdminScreen, props: { section: 'media', screen: MediaPage }, meta: meta(media) },
  { path: deploys.path, page: AdminScreen, props: { section: 'deploys', screen: DeploysPage }, meta: meta(deploys) },
  { path: EDIT_POST_ROUTE, page: AdminScreen, props: { section: 'posts', screen: EditPostPage }, head: ({ id = '' }) => editPostHead(id) },
];
