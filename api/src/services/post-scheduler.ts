import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import type { PostService } from './post-service';

/** How often every instance looks for due scheduled posts (a post scheduled on another instance is seen by then). */
export const SCHEDULER_POLL_MS = 5_000;
/** How often histories of posts deleted more than 30 days ago are dropped. */
const PURGE_EVERY_MS = 60 * 60 * 1000;

export interface PostScheduler {
  /** Publishes what is due now (a time that passed while the server was down too), then every poll until stop(). */
  start(): void;
  /** Looks again now (after a schedule on this instance: its timer is set to the new time). Resolves when done. */
  check(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Publishes scheduled posts at their time. Every instance runs one: each polls every few seconds and sets a timer for
 * the next due post it knows of, so a post goes out within moments of its time. Exactly once, however many instances
 * find it due together: the publish is a compare-and-set on the post (PostService.publishDue), one write wins and only
 * the winner logs `post.published` and stores the revision. Nothing lives only in memory: a restart loses no schedule.
 */
export function createPostScheduler(deps: { posts: PostService; clock: Clock; logger: Logger; pollMs?: number }): PostScheduler {
  const pollMs = deps.pollMs ?? SCHEDULER_POLL_MS;
  let poll: NodeJS.Timeout | undefined;
  let next: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let lastPurge = 0;

  async function run() {
    try {
      await deps.posts.publishDue();
      const now = deps.clock().getTime();
      if (now - lastPurge >= PURGE_EVERY_MS) {
        lastPurge = now;
        const purged = await deps.posts.purgeDeleted();
        if (purged > 0) deps.logger.info({ posts: purged }, 'forgot the history of posts deleted more than 30 days ago');
      }
      arm(await deps.posts.nextScheduledAt());
    } catch (err) {
      deps.logger.error({ err }, 'scheduled publishing failed; retrying at the next poll');
    }
  }

  /** A timer for the next due post when it falls before the next poll. */
  function arm(at: string | undefined) {
    if (next) clearTimeout(next);
    next = undefined;
    if (!at || stopped) return;
    const delay = Date.parse(at) - deps.clock().getTime();
    if (delay >= pollMs) return;
    next = setTimeout(() => void check(), Math.max(0, delay) + 5);
    next.unref();
  }

  /** One run at a time; a check asked for during a run runs once more after it. */
  function check(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await run();
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    start() {
      if (poll || stopped) return;
      void check();
      poll = setInterval(() => void check(), pollMs);
      poll.unref();
    },
    check,
    async stop() {
      stopped = true;
      if (poll) clearInterval(poll);
      if (next) clearTimeout(next);
      await running;
    },
  };
}
