import { useState } from 'react';
import { adminPostConflictDetailsSchema, ADMIN_MESSAGES } from '@site/contracts/admin';
import { BUSINESS_TIME_ZONE_LABEL, formatInBusinessZone } from '@site/contracts/post-schedule';
import { ApiError, Button, notify } from '@site/ui';
import { errorMessage } from '../../../lib/admin-request';
import { usePublishPostMutation } from '../api/publish-post';
import { useSchedulePostMutation } from '../api/schedule-post';
import { useUnschedulePostMutation } from '../api/unschedule-post';
import type { PostEditorState } from '../hooks/use-post-editor';
import { scheduleMessageForPeople } from '../lib/schedule-input';
import { ScheduleDialog } from './schedule-dialog';

const unless401 = (err: unknown, say: () => void) => !(err instanceof ApiError && err.status === 401) && say();

/**
 * The form's status changes: Unschedule and Publish now (scheduled posts), Schedule (drafts and scheduled posts).
 * What is on screen is what goes live: unsaved edits are checked and saved first.
 */
export function PostStatusActions({ editor }: { editor: PostEditorState }) {
  const { post, dirty, saving, values, readyForStatusChange, savedForStatusChange, loadPost, setPost, showConflict } = editor;
  const [scheduleOpen, setScheduleOpen] = useState(false);
  /** Publish now is under way (its save first, then the publish). */
  const [publishing, setPublishing] = useState(false);
  const schedule = useSchedulePostMutation();
  const unschedule = useUnschedulePostMutation();
  const publish = usePublishPostMutation();
  const busy = publishing || unschedule.isPending;
  if (!post || (post.status !== 'draft' && post.status !== 'scheduled')) return null;

  async function onSchedule(publishAt: string): Promise<string | undefined> {
    const saved = await savedForStatusChange();
    if (!saved) {
      setScheduleOpen(false);
      return undefined;
    }
    try {
      const scheduled = await schedule.mutateAsync({ id: saved.id, body: { publishAt, expectedUpdatedAt: saved.updatedAt } });
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

  const onUnschedule = () =>
    unschedule.mutate(post.id, {
      // Unscheduling changes no field: edits not saved yet stay in the form.
      onSuccess: (updated) => {
        setPost(updated);
        notify.success('Post unscheduled', { description: `“${updated.title}” is a draft again.` });
      },
      onError: (err) => unless401(err, () => notify.error(errorMessage(err, 'Error unscheduling post. Please try again.'))),
    });

  async function onPublishNow() {
    if (!(await readyForStatusChange())) return;
    setPublishing(true);
    try {
      const saved = await savedForStatusChange();
      if (!saved) return;
      const published = await publish.mutateAsync(saved.id);
      loadPost(published);
      notify.success('Post published', { description: `“${published.title}” is live at /blog/${published.slug}.` });
    } catch (err) {
      unless401(err, () => notify.error(errorMessage(err, 'Error publishing post. Please try again.')));
    } finally {
      setPublishing(false);
    }
  }

  return (
    <>
      {post.status === 'scheduled' && (
        <>
          <Button variant="secondary" onClick={onUnschedule} disabled={busy || saving} aria-busy={unschedule.isPending || undefined}>
            {unschedule.isPending ? 'Unscheduling…' : 'Unschedule'}
          </Button>
          <Button variant="secondary" onClick={onPublishNow} disabled={busy || saving} aria-busy={publishing || undefined}>
            {publishing ? 'Publishing…' : 'Publish now'}
          </Button>
        </>
      )}
      <Button onClick={async () => (await readyForStatusChange()) && setScheduleOpen(true)} disabled={busy || saving}>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
          <rect x="3" y="5" width="18" height="16" rx="2" />
          <path d="M16 3v4M8 3v4M3 10h18M12 14v3l2 1" />
        </svg>
        Schedule
      </Button>
      <ScheduleDialog
        open={scheduleOpen}
        onOpenChange={setScheduleOpen}
        postTitle={values.title.trim() || post.title}
        publishAt={post.publishAt}
        note={dirty ? 'Your unsaved changes are saved first, then the post is scheduled with them.' : undefined}
        onSchedule={onSchedule}
      />
    </>
  );
}
