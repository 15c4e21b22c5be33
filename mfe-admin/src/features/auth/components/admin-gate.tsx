import { useLocation } from 'react-router-dom';
import { Card, usePageMeta } from '@site/ui';
import { adminPages } from '../data/pages';

/** The admin area's frame. Sign-in, posts and alerts arrive with the admin issue. */
export function AdminGate() {
  const { pathname } = useLocation();
  const page = adminPages.find((p) => p.path === pathname) ?? { heading: 'Edit Post', title: 'Edit Post | Admin' };
  usePageMeta(page.title);
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-md flex-col justify-center px-4 py-16">
      <Card>
        <h1 className="text-2xl font-bold">{page.heading}</h1>
        <p className="mt-3 text-muted-fg">
          The admin panel is not open yet. Contact messages, analyses and blog posts are already kept by the server.
        </p>
      </Card>
    </div>
  );
}
