import { describe, expect, it } from 'vitest';
import { createWorkPool, PoolFullError } from '../work-pool';

/** A job that runs until the test ends it. */
function held() {
  let end!: () => void;
  const done = new Promise<void>((resolve) => (end = resolve));
  let started = false;
  return {
    job: async () => {
      started = true;
      await done;
      return 'done';
    },
    end,
    started: () => started,
  };
}

describe('work pool', () => {
  it('runs `concurrency` jobs at once, queues `maxWaiting` in order, refuses the next with a Retry-After', async () => {
    let t = 0;
    const pool = createWorkPool({ concurrency: 2, maxWaiting: 1, now: () => t });
    const [a, b, c] = [held(), held(), held()];
    const runs = [pool.run(a.job), pool.run(b.job), pool.run(c.job)];
    expect(pool.stats()).toEqual({ running: 2, waiting: 1 });
    expect([a.started(), b.started(), c.started()]).toEqual([true, true, false]);

    const refused = pool.run(async () => 'never');
    await expect(refused).rejects.toBeInstanceOf(PoolFullError);
    // Three ahead, two at a time, 5 s each until a job has been timed: 7.5 s, rounded up.
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 8 });

    t = 1_000;
    a.end();
    await runs[0];
    expect(c.started()).toBe(true);
    expect(pool.stats()).toEqual({ running: 2, waiting: 0 });
    b.end();
    c.end();
    expect(await Promise.all(runs)).toEqual(['done', 'done', 'done']);
    expect(pool.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('frees its place when a job fails', async () => {
    const pool = createWorkPool({ concurrency: 1, maxWaiting: 0 });
    await expect(pool.run(async () => Promise.reject(new Error('bad image')))).rejects.toThrow('bad image');
    expect(pool.stats()).toEqual({ running: 0, waiting: 0 });
    expect(await pool.run(async () => 'next')).toBe('next');
  });
});
