import { memo } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { parseKeywords } from '@site/contracts/posts';
import { TextAreaField, TextField } from '../../../components/form-field';
import type { PostFormState } from '../lib/post-form-schema';
import { ContentField } from './content-field';
import { PostCategoryField } from './post-category-field';
import { PostImageFields } from './post-image-fields';

/** A field's length against its rule, beside its label: it alone renders again as the field is typed in. */
function Length({ name, rule }: { name: 'title' | 'excerpt' | 'metaDescription'; rule: string }) {
  const value = useWatch<PostFormState, typeof name>({ name });
  return `${value.trim().length} / ${rule}`;
}

/** The keywords' hint: the tags they make, as they are typed. */
function KeywordsHint() {
  const tags = parseKeywords(useWatch<PostFormState, 'keywords'>({ name: 'keywords' }));
  return tags.length > 0
    ? `Comma-separated. Tags: ${tags.map((k) => `#${k}`).join(' ')}`
    : 'Comma-separated, e.g. chatbots, restaurants, automation. Shown as tags under the post.';
}

/**
 * The post's fields (the spec's, with their rules counted beside the labels): title, excerpt and content (rich text
 * or its HTML, content-field.tsx) first, then author, category, keywords, the two images and the meta description.
 * `onEdit` runs on every change. What follows the values (the counts, the tags) watches them on its own, so typing
 * renders that, not the fields (nor the content's editor).
 */
export const PostFields = memo(function PostFields({ onEdit }: { onEdit: () => void }) {
  const { register, formState } = useFormContext<PostFormState>();
  const error = (field: keyof PostFormState) => formState.errors[field]?.message;
  const field = (name: keyof PostFormState) => register(name, { onChange: onEdit });

  return (
    <>
      <div className="space-y-5 rounded-2xl border border-border bg-surface p-4 shadow-sm sm:p-6">
        <TextField label="Title" required {...field('title')} error={error('title')} aside={<Length name="title" rule="5+ characters" />} maxLength={200} />
        <TextAreaField
          label="Excerpt"
          required
          rows={3}
          {...field('excerpt')}
          error={error('excerpt')}
          hint="A short summary shown on the blog's cards (cut to 150 characters there)."
          aside={<Length name="excerpt" rule="20+ characters" />}
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
          hint={<KeywordsHint />}
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
          aside={<Length name="metaDescription" rule="50+ characters" />}
        />
      </div>
    </>
  );
});
