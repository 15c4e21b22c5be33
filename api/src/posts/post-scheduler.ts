import type { JobRunner } from '../lib/job-runner';
import type { Logger } from '../lib/logger';
import type { PostService } from './post-service';

/** How often every instance looks for due scheduled posts (a post scheduled on another instance is seen by then). */
export const SCHEDULER_POLL_MS = 5_000;
/** How often histories of posts deleted more than 30 days ago are dropped. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

export interface PostScheduler {
  /** Looks again now (after a schedule on this instance: its timer is set to the new time). Resolves when done. */
  check(): Promise<void>;
}

/**
 * Publishes scheduled posts at their time, as the `post-schedule` job: every instance runs it at start (a time that
 * passed while the server was down too), every poll, and at the time of the next due post it knows of, so a post
 * goes out within moments of its time. Exactly once, however many instances find it due together: the publish is a
 * compare-and-set on the post (PostService.publishDue), one write wins and only the winner logs `post.published` and
 * stores the revision. Nothing lives only in memory: a restart loses no schedule. The `post-purge` job forgets, every
 * hour, the histories of posts deleted more than 30 days ago.
 */
export function createPostScheduler(deps: { posts: PostService; logger: Logger; jobs: Pick<JobRunner, 'add'>; pollMs?: number }): PostScheduler {
  const job = deps.jobs.add({
    name: 'post-schedule',
    pollMs: deps.pollMs ?? SCHEDULER_POLL_MS,
    async run() {
      await deps.posts.publishDue();
      const next = await deps.posts.nextScheduledAt();
      // A few ms after the time, so the post is due by the database's comparison too.
      return next ? { nextAt: Date.parse(next) + 5 } : {};
    },
  });
  deps.jobs.add({
    name: 'post-purge',
    pollMs: PURGE_EVERY_MS,
    async run() {
      const purged = await deps.posts.purgeDeleted();
      if (purged > 0) deps.logger.info({ posts: purged }, 'forgot the history of posts deleted more than 30 days ago');
      return { done: purged };
    },
  });
  return {
    async check() {
      await job.kick();
    },
  };
}
