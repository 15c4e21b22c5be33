import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { adminPostConflictDetailsSchema, ADMIN_MESSAGES, type PostRevisionSummary } from '@site/contracts/admin';
import { BUSINESS_TIME_ZONE_LABEL, formatInBusinessZone } from '@site/contracts/post-schedule';
import { BLOG_CATEGORIES, PLACEHOLDER_IMAGE, parseKeywords, readTime, slugify, type Post } from '@site/contracts/posts';
import { ApiError, Button, ButtonLink, cn, notify } from '@site/ui';
import type { ArticlePost } from '@site/ui/post-article';
import { AdminPageHeader } from '../../../components/admin-page-header';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Field, TextAreaField, TextField, controlClass } from '../../../components/form-field';
import { ImageDropZone } from '../../../components/image-drop-zone';
import { StatusPill } from '../../../components/status-pill';
import { adminPages } from '../../../config/pages';
import { errorMessage } from '../../../lib/admin-request';
import { formatDateTime } from '../../../lib/format';
import { createPost } from '../api/create-post';
import { deletePost } from '../api/delete-post';
import { publishPost } from '../api/publish-post';
import { schedulePost } from '../api/schedule-post';
import { unschedulePost } from '../api/unschedule-post';
import { updatePost } from '../api/update-post';
import { useDraftAutosave } from '../hooks/use-draft-autosave';
import { draftKey } from '../lib/post-draft-storage';
import {
  emptyPostValues,
  errorsFromMessages,
  sameValues,
  toPostInput,
  validatePostValues,
  valuesFromPost,
  type PostFormErrors,
  type PostFormValues,
} from '../lib/post-form-values';
import { statusTone } from '../lib/post-status';
import { scheduleMessageForPeople } from '../lib/schedule-input';
import { LeaveGuard } from './leave-guard';
import { PostHistory } from './post-history';
import { PostPreview } from './post-preview';
import { ScheduleDialog } from './schedule-dialog';

export const DELETE_FROM_EDIT_QUESTION = 'Are you sure you want to delete this post? This action cannot be undone.';
const OTHER = '__other__';

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

/** Messages of a 400 'Validation failed: …': its details when they are a list, else the sentence after the prefix. */
function validationMessages(err: ApiError): string[] {
  if (Array.isArray(err.details) && err.details.every((d) => typeof d === 'string')) return err.details as string[];
  return err.message.replace(/^Validation failed: /, '').split(', ').filter(Boolean);
}

/**
 * The create and edit form (one component): the spec's fields and messages, a Preview that renders the post with
 * the blog's own article component, a local draft saved every few seconds, a warning before leaving unsaved
 * changes, and a 409 answer (someone else changed the post) that never overwrites their change.
 */
export function PostEditor({ post: initial }: { post: Post | null }) {
  const navigate = useNavigate();
  const [post, setPost] = useState<Post | null>(initial);
  const [baseline, setBaseline] = useState<PostFormValues>(() => (initial ? valuesFromPost(initial) : emptyPostValues));
  const [values, setValues] = useState<PostFormValues>(baseline);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<PostFormErrors | null>(null);
  const [formAlert, setFormAlert] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState(false);
  const [conflict, setConflict] = useState<Post | null>(null);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [otherChosen, setOtherChosen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  /** A status change in flight (Unschedule, Publish now); Schedule shows its own busy state in its dialog. */
  const [statusBusy, setStatusBusy] = useState<'unschedule' | 'publish' | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const conflictRef = useRef<HTMLDivElement>(null);
  const customCategoryRef = useRef<HTMLInputElement>(null);

  const dirty = !sameValues(values, baseline);
  const autosave = useDraftAutosave({
    storageKey: draftKey(initial?.id ?? null),
    values,
    baseline,
    baseUpdatedAt: post?.updatedAt ?? null,
    ready: true,
  });
  const customCategory = otherChosen || (values.category !== '' && !(BLOG_CATEGORIES as readonly string[]).includes(values.category));
  const clientErrors = submitted ? validatePostValues(values, { categoryTyped: customCategory }) : null;
  const errors = clientErrors ?? serverErrors;
  const fieldError = (f: keyof PostFormErrors['fields']) => errors?.fields[f];

  const set = (field: keyof PostFormValues) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    setServerErrors(null);
  };

  const heading = post ? 'Edit Post' : adminPages.createPost.heading;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    setSubmitted(true);
    setFormAlert(null);
    if (validatePostValues(values, { categoryTyped: customCategory })) {
      setPreview(false);
      requestAnimationFrame(() => summaryRef.current?.focus());
      return;
    }
    if (!post) {
      setSaving(true);
      try {
        const created = await createPost(toPostInput(values));
        autosave.stop();
        setBaseline(values);
        notify.success('Post created as a draft', { description: `“${created.title}” is in the list; publish it when it is ready.` });
        navigate(adminPages.posts.path);
      } catch (err) {
        showSaveError(err);
      } finally {
        setSaving(false);
      }
      return;
    }
    if (await saveChanges()) notify.success('Post updated');
  }

  /** A failed create or save, shown where the writer looks: next to the fields, as the conflict notice, or above the form. */
  function showSaveError(err: unknown) {
    if (err instanceof ApiError && err.status === 400 && err.code === 'validation_failed') {
      setServerErrors(errorsFromMessages(validationMessages(err)));
      requestAnimationFrame(() => summaryRef.current?.focus());
    } else if (err instanceof ApiError && err.status === 409 && post) {
      const details = adminPostConflictDetailsSchema.safeParse(err.details);
      showConflict(details.success ? details.data.current : post);
    } else if (err instanceof ApiError && err.status === 404) {
      setFormAlert(ADMIN_MESSAGES.postNotFound);
    } else if (!(err instanceof ApiError && err.status === 401)) {
      setFormAlert(post ? 'Error updating post. Please try again.' : 'Error creating post. Please try again.');
    }
  }

  function showConflict(current: Post) {
    setConflict(current);
    requestAnimationFrame(() => {
      conflictRef.current?.scrollIntoView?.({ block: 'center' });
      conflictRef.current?.focus();
    });
  }

  /** The form's post after a server answer: fields, baseline and the local draft follow it. */
  function loadPost(updated: Post) {
    const next = valuesFromPost(updated);
    setPost(updated);
    setBaseline(next);
    setValues(next);
    setSubmitted(false);
    setServerErrors(null);
    autosave.clear();
  }

  /** Saves the form (PUT with the updatedAt it loaded): the stored post, or null when it failed (the error is shown). */
  async function saveChanges(): Promise<Post | null> {
    if (!post) return null;
    setSaving(true);
    try {
      const updated = await updatePost(post.id, { ...toPostInput(values), expectedUpdatedAt: post.updatedAt });
      loadPost(updated);
      return updated;
    } catch (err) {
      showSaveError(err);
      return null;
    } finally {
      setSaving(false);
    }
  }

  /**
   * Before a status change the writer expects what is on screen to go live: unsaved edits are saved first (after the
   * same checks as Save Changes). Null when they could not be (the form says why).
   */
  async function savedForStatusChange(): Promise<Post | null> {
    if (!post) return null;
    if (!dirty) return post;
    return saveChanges();
  }

  /** The form's checks before a status change that saves first: false (and the errors shown) when they fail. */
  function readyForStatusChange(): boolean {
    setFormAlert(null);
    if (!dirty) return true;
    setSubmitted(true);
    if (validatePostValues(values, { categoryTyped: customCategory })) {
      setPreview(false);
      requestAnimationFrame(() => summaryRef.current?.focus());
      return false;
    }
    return true;
  }

  async function onSchedule(publishAt: string): Promise<string | undefined> {
    const saved = await savedForStatusChange();
    if (!saved) {
      setScheduleOpen(false);
      return undefined;
    }
    try {
      const scheduled = await schedulePost(saved.id, { publishAt, expectedUpdatedAt: saved.updatedAt });
      loadPost(scheduled);
      setScheduleOpen(false);
      notify.success('Post scheduled', {
        description: `“${scheduled.title}” will be published ${scheduled.publishAt ? formatInBusinessZone(scheduled.publishAt) : ''} (${BUSINESS_TIME_ZONE_LABEL}).`,
      });
      return undefined;
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) return scheduleMessageForPeople(err.message);
      if (err instanceof ApiError && err.status === 409) {
        const details = adminPostConflictDetailsSchema.safeParse(err.details);
        if (!details.success) return err.message;
        setScheduleOpen(false);
        showConflict(details.data.current);
        return undefined;
      }
      if (err instanceof ApiError && err.status === 401) return undefined;
      if (err instanceof ApiError && err.status === 404) return ADMIN_MESSAGES.postNotFound;
      return 'Error scheduling post. Please try again.';
    }
  }

  async function onUnschedule() {
    if (!post) return;
    setStatusBusy('unschedule');
    try {
      const updated = await unschedulePost(post.id);
      // Unscheduling changes no field: edits not saved yet stay in the form.
      setPost(updated);
      setBaseline(valuesFromPost(updated));
      notify.success('Post unscheduled', { description: `“${updated.title}” is a draft again.` });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Error unscheduling post. Please try again.'));
    } finally {
      setStatusBusy(null);
    }
  }

  async function onPublishNow() {
    if (!readyForStatusChange()) return;
    setStatusBusy('publish');
    try {
      const saved = await savedForStatusChange();
      if (!saved) return;
      const published = await publishPost(saved.id);
      loadPost(published);
      notify.success('Post published', { description: `“${published.title}” is live at /blog/${published.slug}.` });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) notify.error(errorMessage(err, 'Error publishing post. Please try again.'));
    } finally {
      setStatusBusy(null);
    }
  }

  function onRestored(updated: Post, from: PostRevisionSummary) {
    const mine = values;
    const hadEdits = dirty;
    loadPost(updated);
    setConflict(null);
    // Edits not saved yet are not lost: they stay on this device and are offered, as after a conflict.
    if (hadEdits && !sameValues(mine, valuesFromPost(updated))) autosave.keepAndOffer(mine);
    notify.success('Version restored', { description: `The post now has the title, content and fields of revision #${from.number}.` });
  }

  function reloadLatest() {
    if (!conflict) return;
    const mine = values;
    const latest = valuesFromPost(conflict);
    setPost(conflict);
    setBaseline(latest);
    setValues(latest);
    setConflict(null);
    setServerErrors(null);
    setSubmitted(false);
    // The writer's own version stays on this device and is offered right away: nothing typed is lost.
    if (!sameValues(mine, latest)) autosave.keepAndOffer(mine);
    notify.info('Loaded the latest version of the post');
  }

  async function onDelete() {
    if (!post) return;
    setDeleting(true);
    try {
      await deletePost(post.id);
      autosave.stop();
      setBaseline(values);
      setDeleteOpen(false);
      notify.success('Post deleted');
      navigate(adminPages.posts.path);
    } catch (err) {
      setDeleting(false);
      setDeleteOpen(false);
      if (!(err instanceof ApiError && err.status === 401)) {
        notify.error(err instanceof ApiError && err.status === 404 ? ADMIN_MESSAGES.postNotFound : 'Error deleting post. Please try again.');
      }
    }
  }

  const offer = autosave.offer;
  const slug = post?.slug ?? slugify(values.title || 'post');

  return (
    <div>
      <AdminPageHeader
        heading={heading}
        lead={
          post ? (
            <span className="flex flex-wrap items-center gap-2">
              <StatusPill tone={statusTone(post.status)}>{post.status}</StatusPill>
              {post.status === 'scheduled' && post.publishAt && (
                <span>
                  Publishes <time dateTime={post.publishAt}>{formatInBusinessZone(post.publishAt)}</time> <span className="text-xs">({BUSINESS_TIME_ZONE_LABEL})</span>
                </span>
              )}
              <span className="break-all">/blog/{post.slug}</span>
            </span>
          ) : (
            'New posts are saved as drafts; publish them from the list.'
          )
        }
        actions={
          <>
            <Button variant="secondary" aria-pressed={preview} onClick={() => setPreview((p) => !p)} className={cn(preview && 'border-primary bg-primary-soft text-primary-soft-fg')}>
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
                <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
                <circle cx="12" cy="12" r="3" />
              </svg>
              Preview
            </Button>
            {post?.status === 'scheduled' && (
              <>
                <Button variant="secondary" onClick={onUnschedule} disabled={statusBusy !== null || saving} aria-busy={statusBusy === 'unschedule' || undefined}>
                  {statusBusy === 'unschedule' ? 'Unscheduling…' : 'Unschedule'}
                </Button>
                <Button variant="secondary" onClick={onPublishNow} disabled={statusBusy !== null || saving} aria-busy={statusBusy === 'publish' || undefined}>
                  {statusBusy === 'publish' ? 'Publishing…' : 'Publish now'}
                </Button>
              </>
            )}
            {(post?.status === 'draft' || post?.status === 'scheduled') && (
              <Button onClick={() => readyForStatusChange() && setScheduleOpen(true)} disabled={statusBusy !== null || saving}>
                <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
                  <rect x="3" y="5" width="18" height="16" rx="2" />
                  <path d="M16 3v4M8 3v4M3 10h18M12 14v3l2 1" />
                </svg>
                Schedule
              </Button>
            )}
            {post && (
              <Button variant="danger" onClick={() => setDeleteOpen(true)}>
                Delete
              </Button>
            )}
          </>
        }
      />

      {offer && (
        <div role="region" aria-label="Unsaved draft" className="mb-5 rounded-xl border border-primary/40 bg-primary-soft p-4 text-sm text-primary-soft-fg">
          <p className="font-semibold">Unsaved changes from {formatDateTime(offer.savedAt)} were found on this device.</p>
          <p className="mt-1">
            Restore them to continue where you left off, or discard them to keep the {post ? 'version saved on the site' : 'empty form'}.
            {post && offer.baseUpdatedAt && offer.baseUpdatedAt !== post.updatedAt && ' The post was changed on the site after this draft was written: saving the restored draft replaces that change.'}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button
              size="sm"
              onClick={() => {
                const restored = autosave.restore();
                if (restored) setValues(restored);
              }}
            >
              Restore draft
            </Button>
            <Button size="sm" variant="secondary" onClick={autosave.discard}>
              Discard draft
            </Button>
          </div>
        </div>
      )}

      {conflict && (
        <div ref={conflictRef} tabIndex={-1} role="alert" className="mb-5 rounded-xl focus:outline-2 focus:outline-ring border border-warning/50 bg-warning-soft p-4 text-sm text-fg">
          <p className="font-semibold">Someone else changed this post while you were editing it.</p>
          <p className="mt-1">
            {ADMIN_MESSAGES.postConflict} It was last changed {formatDateTime(conflict.updatedAt)}
            {conflict.source === 'n8n' ? ' (it came from the n8n webhook)' : ''}. Your changes were not saved, so nothing was overwritten; when you
            reload, your version is kept on this device and you can restore it.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button size="sm" onClick={reloadLatest}>
              Reload the latest version
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setConflict(null)}>
              Keep editing
            </Button>
          </div>
        </div>
      )}

      {formAlert && (
        <div role="alert" className="mb-5 rounded-xl border border-danger/40 bg-danger-soft p-4 text-sm font-semibold text-fg">
          {formAlert}
        </div>
      )}

      {errors && (
        <div ref={summaryRef} tabIndex={-1} role="alert" className="mb-5 rounded-xl border border-danger/40 bg-danger-soft p-4 text-sm text-fg focus:outline-2 focus:outline-ring">
          <p className="font-semibold">{errors.summary}</p>
        </div>
      )}

      {preview && (
        <section aria-label="Preview" className="overflow-hidden rounded-2xl border border-border bg-bg shadow-sm">
          <p className="border-b border-border bg-surface-muted px-4 py-2 text-xs font-semibold uppercase tracking-wider text-muted-fg">
            Preview of <span className="normal-case">/blog/{slug}</span>
          </p>
          <PostPreview article={articleFromValues(values, post)} />
        </section>
      )}

      <form noValidate onSubmit={onSubmit} hidden={preview} aria-label={heading} className="space-y-6">
        <div className="space-y-5 rounded-2xl border border-border bg-surface p-4 shadow-sm sm:p-6">
          <TextField label="Title" required value={values.title} onChange={set('title')} error={fieldError('title')} aside={`${values.title.trim().length} / 5+ characters`} maxLength={200} />
          <TextAreaField
            label="Excerpt"
            required
            rows={3}
            value={values.excerpt}
            onChange={set('excerpt')}
            error={fieldError('excerpt')}
            hint="A short summary shown on the blog's cards (cut to 150 characters there)."
            aside={`${values.excerpt.trim().length} / 20+ characters`}
          />
          <TextAreaField
            label="Content"
            required
            rows={14}
            value={values.content}
            onChange={set('content')}
            error={fieldError('content')}
            hint="HTML: headings (<h2>, <h3>), paragraphs, lists, links, images, quotes, code and tables. Scripts, styles and embeds are removed."
            aside={`${values.content.trim().length} / 100+ characters`}
          />
        </div>

        <div className="grid gap-5 rounded-2xl border border-border bg-surface p-4 shadow-sm sm:grid-cols-2 sm:p-6">
          <TextField label="Author" required value={values.author} onChange={set('author')} error={fieldError('author')} autoComplete="name" />
          <div>
            <Field label="Category" required error={customCategory ? undefined : fieldError('category')} hint="One of the blog's four categories, or type a new one.">
              {(control) => (
                <select
                  {...control}
                  className={controlClass}
                  value={customCategory ? OTHER : values.category}
                  onChange={(e) => {
                    setServerErrors(null);
                    if (e.target.value === OTHER) {
                      setOtherChosen(true);
                      setValues((v) => ({ ...v, category: (BLOG_CATEGORIES as readonly string[]).includes(v.category) ? '' : v.category }));
                      requestAnimationFrame(() => customCategoryRef.current?.focus());
                    } else {
                      setOtherChosen(false);
                      setValues((v) => ({ ...v, category: e.target.value }));
                    }
                  }}
                >
                  <option value="">Choose a category</option>
                  {BLOG_CATEGORIES.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                  <option value={OTHER}>Other (type a category)</option>
                </select>
              )}
            </Field>
            {customCategory && (
              <TextField
                ref={customCategoryRef}
                className="mt-3"
                label="Category name"
                required
                value={values.category}
                onChange={set('category')}
                error={fieldError('category')}
                maxLength={60}
              />
            )}
          </div>
          <TextField
            className="sm:col-span-2"
            label="Keywords"
            value={values.keywords}
            onChange={set('keywords')}
            error={fieldError('keywords')}
            hint={
              parseKeywords(values.keywords).length > 0
                ? `Comma-separated. Tags: ${parseKeywords(values.keywords).map((k) => `#${k}`).join(' ')}`
                : 'Comma-separated, e.g. chatbots, restaurants, automation. Shown as tags under the post.'
            }
          />
          <div>
            <TextField
              label="Featured image URL"
              type="url"
              inputMode="url"
              value={values.featuredImage}
              onChange={set('featuredImage')}
              error={fieldError('featuredImage')}
              hint="Optional. https://… or a path on this site; without one the blog shows its placeholder."
            />
            {/* An upload fills the field with the image's media URL: the blog then serves it in AVIF/WebP at each width. */}
            <ImageDropZone label="Upload featured image" onUploaded={(media) => set('featuredImage')({ target: { value: media.url } })} />
          </div>
          <div>
            <TextField
              label="OG image URL"
              type="url"
              inputMode="url"
              value={values.ogImage}
              onChange={set('ogImage')}
              error={fieldError('ogImage')}
              hint="Optional. The picture for link previews; falls back to the featured image."
            />
            <ImageDropZone label="Upload OG image" onUploaded={(media) => set('ogImage')({ target: { value: media.ogUrl } })} />
          </div>
          <TextAreaField
            className="sm:col-span-2"
            label="Meta description"
            required
            rows={3}
            value={values.metaDescription}
            onChange={set('metaDescription')}
            error={fieldError('metaDescription')}
            hint="What search engines show under the title."
            aside={`${values.metaDescription.trim().length} / 50+ characters`}
          />
        </div>

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted-fg" aria-live="off">
            {autosave.savedAt ? `Draft kept on this device at ${formatDateTime(autosave.savedAt)}.` : dirty ? 'Unsaved changes.' : post ? 'No unsaved changes.' : ''}
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <ButtonLink variant="secondary" to={adminPages.posts.path}>
              Cancel
            </ButtonLink>
            <Button type="submit" disabled={saving} aria-busy={saving || undefined}>
              {saving ? (post ? 'Saving…' : 'Creating…') : post ? 'Save Changes' : 'Create Post'}
            </Button>
          </div>
        </div>
      </form>

      {preview && (
        <div className="mt-4 flex justify-end">
          <Button variant="secondary" onClick={() => setPreview(false)}>
            Back to the form
          </Button>
        </div>
      )}

      {post && <PostHistory post={post} dirty={dirty} onRestored={onRestored} onConflict={showConflict} />}

      <LeaveGuard when={dirty && !saving && !deleting} />

      {post && (post.status === 'draft' || post.status === 'scheduled') && (
        <ScheduleDialog
          open={scheduleOpen}
          onOpenChange={setScheduleOpen}
          postTitle={values.title.trim() || post.title}
          publishAt={post.publishAt}
          note={dirty ? 'Your unsaved changes are saved first, then the post is scheduled with them.' : undefined}
          onSchedule={onSchedule}
        />
      )}

      {post && (
        <ConfirmDialog
          open={deleteOpen}
          onOpenChange={setDeleteOpen}
          title="Delete post"
          description={DELETE_FROM_EDIT_QUESTION}
          confirmLabel="Delete"
          busyLabel="Deleting…"
          busy={deleting}
          onConfirm={onDelete}
        >
          <p className="mt-3 rounded-lg bg-surface-muted px-3 py-2 text-sm font-semibold text-fg">{post.title}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
