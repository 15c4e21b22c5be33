import { useQueryClient } from '@tanstack/react-query';
import type { MediaList } from '@site/contracts/media';
import { AdminPageHeader } from '../../../components/admin-page-header';
import { ImageDropZone } from '../../../components/image-drop-zone';
import { LoadFailed, LoadingRows } from '../../../components/load-state';
import { Panel } from '../../../components/panel';
import { adminPages } from '../../../config/pages';
import { errorMessage } from '../../../lib/admin-request';
import { mediaKey, useMediaQuery } from '../api/list-media';
import { MediaCard } from './media-card';

/** /admin/media: upload, the library as a grid, alt text, where each image is used, delete (refused while used). */
export function MediaPage() {
  const client = useQueryClient();
  const media = useMediaQuery();
  const data = media.data;

  return (
    <div className="space-y-6">
      <AdminPageHeader
        heading={adminPages.media.heading}
        lead="Images for blog posts. Each upload is stored without its camera data (GPS included) and served in AVIF and WebP at the sizes each screen needs."
      />
      <Panel title="Upload" description="JPEG, PNG, WebP, AVIF or GIF, up to 10 MB. SVG is not accepted.">
        <ImageDropZone
          label="Choose image"
          onUploaded={(item) => client.setQueryData<MediaList>(mediaKey, (d) => ({ media: [item, ...(d?.media ?? []).filter((m) => m.id !== item.id)] }))}
        />
      </Panel>
      <Panel title="Library" description={data ? `${data.media.length} ${data.media.length === 1 ? 'image' : 'images'}` : undefined}>
        {media.error && !data ? (
          <LoadFailed title="Could not load the images" message={errorMessage(media.error, 'The server did not answer.')} onRetry={() => void media.refetch()} />
        ) : !data ? (
          <LoadingRows label="Loading images…" rows={2} />
        ) : data.media.length === 0 ? (
          <p className="rounded-xl border border-dashed border-border p-6 text-center text-sm text-muted-fg">No images yet. Upload one above or from a post's form.</p>
        ) : (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Images">
            {data.media.map((item) => (
              <MediaCard key={item.id} media={item} />
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
