import { Card, usePageMeta } from '@site/ui';

/** The admin area's frame. Sign-in, posts and alerts arrive with the admin issue. */
export function AdminGate() {
  usePageMeta('Admin Access | Admin');
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-md flex-col justify-center px-4 py-16">
      <Card>
        <h1 className="text-2xl font-bold">Admin Access</h1>
        <p className="mt-3 text-muted-fg">The admin panel is not open yet. Posts and contact messages are kept by the server in the meantime.</p>
      </Card>
    </div>
  );
}
