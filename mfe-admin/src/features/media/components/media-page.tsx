import { AdminPageHeader } from '../../../components/admin-page-header';
import { Panel } from '../../../components/panel';
import { adminPages } from '../../../config/pages';
import { useMediaLibraryQuery } from '../api/list-media';
import { BatchUpload } from './batch-upload';
import { MediaLibrary } from './media-library';

/** How many images the panel shows, without claiming a total it does not know while older pages wait. */
function shownLabel(count: number, more: boolean): string {
  return `${count} ${count === 1 ? 'image' : 'images'}${more ? ' shown' : ''}`;
}

/**
 * /admin/media: upload any number of images at once, the library as a grid a page at a time, alt text, where each
 * image is used, delete (refused while used).
 */
export function MediaPage() {
  const library = useMediaLibraryQuery();
  const count = library.data?.pages.reduce((n, page) => n + page.media.length, 0);

  return (
    <div className="space-y-6">
      <AdminPageHeader
        heading={adminPages.media.heading}
        lead="Images for blog posts. Each upload is stored without its camera data (GPS included) and served in AVIF and WebP at the sizes each screen needs."
      />
      <Panel title="Upload" description="JPEG, PNG, WebP, AVIF or GIF, up to 10 MB. SVG is not accepted.">
        <BatchUpload />
      </Panel>
      <Panel title="Library" description={count === undefined ? undefined : shownLabel(count, library.hasNextPage)}>
        <MediaLibrary library={library} />
      </Panel>
    </div>
  );
}
