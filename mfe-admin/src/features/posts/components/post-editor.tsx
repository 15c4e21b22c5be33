import { useIsMutating } from '@tanstack/react-query';
import { useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import { PLACEHOLDER_IMAGE, parseKeywords, readTime, slugify, type Post } from '@site/contracts/posts';
import { Button, notify } from '@site/ui';
import type { ArticlePost } from '@site/ui/post-article';
import { adminPages } from '../../../config/pages';
import { usePostEditor } from '../hooks/use-post-editor';
import type { PostFormValues } from '../lib/post-form-values';
import { postKeys } from '../lib/post-queries';
import { ConflictNotice } from './conflict-notice';
import { DELETE_FROM_EDIT_QUESTION, DeletePostDialog } from './delete-post-dialog';
import { DraftOffer } from './draft-offer';
import { LeaveGuard } from './leave-guard';
import { PostEditorHeader } from './post-editor-header';
import { PostFields } from './post-fields';
import { PostFormFooter } from './post-form-footer';
import { PostHistory } from './post-history';
import { PostPreview } from './post-preview';

/** What the preview shows: the form's values as the blog will render them. */
function articleFromValues(values: PostFormValues, post: Post | null): ArticlePost {
  const category = values.category.trim();
  return {
    title: values.title.trim(),
    excerpt: values.excerpt.trim(),
    content: values.content,
    keywords: parseKeywords(values.keywords),
    author: values.author.trim(),
    category,
    categorySlug: slugify(category),
    readTime: readTime(values.content),
    views: post?.views ?? 0,
    // A draft shows the date it would get if published now.
    publishedAt: post?.publishedAt ?? new Date().toISOString(),
    featuredImage: values.featuredImage.trim() || PLACEHOLDER_IMAGE,
  };
}

/**
 * The create and edit form (one component): the spec's fields and messages, a Preview that renders the post with
 * the blog's own article component, a local draft saved every few seconds, a warning before leaving unsaved
 * changes, and a 409 answer (someone else changed the post) that never overwrites their change. Its parts: the
 * header (status changes), the notices (draft, conflict, errors), the fields, the footer and the history.
 */
export function PostEditor({ post: initial }: { post: Post | null }) {
  const navigate = useNavigate();
  const editor = usePostEditor(initial);
  const { form, post, values, dirty, saving, summary, summaryRef, formAlert, preview, setPreview } = editor;
  const [deleteOpen, setDeleteOpen] = useState(false);
  const deleting = useIsMutating({ mutationKey: postKeys.deleting() }) > 0;
  const heading = post ? 'Edit Post' : adminPages.createPost.heading;

  return (
    <FormProvider {...form}>
      <div>
        <PostEditorHeader editor={editor} heading={heading} onDelete={() => setDeleteOpen(true)} />
        <DraftOffer editor={editor} />
        <ConflictNotice editor={editor} />

        {formAlert && (
          <div role="alert" className="mb-5 rounded-xl border border-danger/40 bg-danger-soft p-4 text-sm font-semibold text-fg">
            {formAlert}
          </div>
        )}

        {summary && (
          <div ref={summaryRef} tabIndex={-1} role="alert" className="mb-5 rounded-xl border border-danger/40 bg-danger-soft p-4 text-sm text-fg focus:outline-2 focus:outline-ring">
            <p className="font-semibold">{summary}</p>
          </div>
        )}

        {preview && (
          <section aria-label="Preview" className="overflow-hidden rounded-2xl border border-border bg-bg shadow-sm">
            <p className="border-b border-border bg-surface-muted px-4 py-2 text-xs font-semibold uppercase tracking-wider text-muted-fg">
              Preview of <span className="normal-case">/blog/{post?.slug ?? slugify(values.title || 'post')}</span>
            </p>
            <PostPreview article={articleFromValues(values, post)} />
          </section>
        )}

        <form noValidate onSubmit={editor.onSubmit} hidden={preview} aria-label={heading} className="space-y-6">
          <PostFields onEdit={editor.clearServerErrors} />
          <PostFormFooter editor={editor} />
        </form>

        {preview && (
          <div className="mt-4 flex justify-end">
            <Button variant="secondary" onClick={() => setPreview(false)}>
              Back to the form
            </Button>
          </div>
        )}

        {post && <PostHistory post={post} dirty={dirty} onRestored={editor.onRestored} onConflict={editor.showConflict} />}

        <LeaveGuard when={dirty && !saving && !deleting} />

        <DeletePostDialog
          post={post && deleteOpen ? post : null}
          question={DELETE_FROM_EDIT_QUESTION}
          sayNotFound
          onClose={() => setDeleteOpen(false)}
          onDeleted={() => {
            editor.autosave.stop();
            setDeleteOpen(false);
            notify.success('Post deleted');
            navigate(adminPages.posts.path);
          }}
        />
      </div>
    </FormProvider>
  );
}
