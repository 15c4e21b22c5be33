import { useFormContext } from 'react-hook-form';
import { TextField } from '../../../components/form-field';
import { ImageDropZone } from '../../../components/image-drop-zone';
import type { PostFormState } from '../lib/post-form-schema';

/**
 * The featured and OG image fields, each with an upload. An upload fills the field with the image's media URL: the
 * blog then serves it in AVIF/WebP at each width (the OG image gets its 1200×630 JPEG).
 */
export function PostImageFields({ onEdit }: { onEdit: () => void }) {
  const { register, setValue, formState } = useFormContext<PostFormState>();
  const fill = (field: 'featuredImage' | 'ogImage', url: string) => {
    onEdit();
    setValue(field, url, { shouldDirty: true, shouldValidate: formState.isSubmitted });
  };
  return (
    <>
      <div>
        <TextField
          label="Featured image URL"
          type="url"
          inputMode="url"
          {...register('featuredImage', { onChange: onEdit })}
          error={formState.errors.featuredImage?.message}
          hint="Optional. https://… or a path on this site; without one the blog shows its placeholder."
        />
        <ImageDropZone label="Upload featured image" onUploaded={(media) => fill('featuredImage', media.url)} />
      </div>
      <div>
        <TextField
          label="OG image URL"
          type="url"
          inputMode="url"
          {...register('ogImage', { onChange: onEdit })}
          error={formState.errors.ogImage?.message}
          hint="Optional. The picture for link previews; falls back to the featured image."
        />
        <ImageDropZone label="Upload OG image" onUploaded={(media) => fill('ogImage', media.ogUrl)} />
      </div>
    </>
  );
}
