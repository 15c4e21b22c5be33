import { useQueryClient } from '@tanstack/react-query';
import { adminPostConflictDetailsSchema } from '@site/contracts/admin';
import { BUSINESS_TIME_ZONE_LABEL, formatInBusinessZone } from '@site/contracts/post-schedule';
import type { PostSummary } from '@site/contracts/posts';
import { ApiError, notify } from '@site/ui';
import { errorMessage } from '../../../lib/admin-request';
import { useSchedulePostMutation } from '../api/schedule-post';
import { postKeys } from '../lib/post-queries';
import { scheduleMessageForPeople } from '../lib/schedule-input';
import { ScheduleDialog } from './schedule-dialog';

/** 'Schedule' of a draft in the list: the picker, sent with the updatedAt the list showed. */
export function ScheduleFromListDialog({ post, onClose }: { post: PostSummary | null; onClose: () => void }) {
  const client = useQueryClient();
  const schedule = useSchedulePostMutation();

  async function onSchedule(publishAt: string): Promise<string | undefined> {
    if (!post) return undefined;
    try {
      const scheduled = await schedule.mutateAsync({ id: post.id, body: { publishAt, expectedUpdatedAt: post.updatedAt } });
      onClose();
      notify.success('Post scheduled', {
        description: `“${scheduled.title}” will be published ${scheduled.publishAt ? formatInBusinessZone(scheduled.publishAt) : ''} (${BUSINESS_TIME_ZONE_LABEL}).`,
      });
      return undefined;
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) return scheduleMessageForPeople(err.message);
      if (err instanceof ApiError && err.status === 409 && adminPostConflictDetailsSchema.safeParse(err.details).success) {
        // Changed since the list loaded (an edit elsewhere, the webhook): show the post as it is now.
        onClose();
        notify.error('This post was changed elsewhere', { description: 'The list now shows its latest version; schedule it again if you still want to.' });
        void client.invalidateQueries({ queryKey: postKeys.lists() });
        return undefined;
      }
      if (err instanceof ApiError && err.status === 401) return undefined;
      return errorMessage(err, 'Error scheduling post. Please try again.');
    }
  }

  return (
    <ScheduleDialog
      open={post !== null}
      onOpenChange={(open) => !open && onClose()}
      postTitle={post?.title ?? ''}
      publishAt={post?.publishAt ?? null}
      onSchedule={onSchedule}
    />
  );
}
