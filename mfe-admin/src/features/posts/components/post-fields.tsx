import { useFormContext, useWatch } from 'react-hook-form';
import { parseKeywords } from '@site/contracts/posts';
import { TextAreaField, TextField } from '../../../components/form-field';
import type { PostFormState } from '../lib/post-form-schema';
import { ContentField } from './content-field';
import { PostCategoryField } from './post-category-field';
import { PostImageFields } from './post-image-fields';

const length = (value: string) => value.trim().length;

/**
 * The post's fields (the spec's, with their rules counted beside the labels): title, excerpt and content (rich text
 * or its HTML, content-field.tsx) first, then author, category, keywords, the two images and the meta description.
 * `onEdit` runs on every change.
 */
export function PostFields({ onEdit }: { onEdit: () => void }) {
  const { register, control, formState } = useFormContext<PostFormState>();
  const [title, excerpt, keywords, metaDescription] = useWatch({ control, name: ['title', 'excerpt', 'keywords', 'metaDescription'] });
  const error = (field: keyof PostFormState) => formState.errors[field]?.message;
  const field = (name: keyof PostFormState) => register(name, { onChange: onEdit });
  const tags = parseKeywords(keywords);

  return (
    <>
      <div className="space-y-5 rounded-2xl border border-border bg-surface p-4 shadow-sm sm:p-6">
        <TextField label="Title" required {...field('title')} error={error('title')} aside={`${length(title)} / 5+ characters`} maxLength={200} />
        <TextAreaField
          label="Excerpt"
          required
          rows={3}
          {...field('excerpt')}
          error={error('excerpt')}
          hint="A short summary shown on the blog's cards (cut to 150 characters there)."
          aside={`${length(excerpt)} / 20+ characters`}
        />
        <ContentField onEdit={onEdit} />
      </div>

      <div className="grid gap-5 rounded-2xl border border-border bg-surface p-4 shadow-sm sm:grid-cols-2 sm:p-6">
        <TextField label="Author" required {...field('author')} error={error('author')} autoComplete="name" />
        <PostCategoryField onEdit={onEdit} />
        <TextField
          className="sm:col-span-2"
          label="Keywords"
          {...field('keywords')}
          error={error('keywords')}
          hint={
            tags.length > 0
              ? `Comma-separated. Tags: ${tags.map((k) => `#${k}`).join(' ')}`
              : 'Comma-separated, e.g. chatbots, restaurants, automation. Shown as tags under the post.'
          }
        />
        <PostImageFields onEdit={onEdit} />
        <TextAreaField
          className="sm:col-span-2"
          label="Meta description"
          required
          rows={3}
          {...field('metaDescription')}
          error={error('metaDescription')}
          hint="What search engines show under the title."
          aside={`${length(metaDescription)} / 50+ characters`}
        />
      </div>
    </>
  );
}
