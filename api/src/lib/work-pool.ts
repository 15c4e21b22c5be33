/**
 * A bounded pool for heavy work (image processing): at most `concurrency` jobs run at once, at most `maxWaiting` more
 * wait their turn, first come first served, and a job past that is refused at once (`PoolFullError`) instead of
 * queueing without end, so a burst costs the caller a retry, not every visitor the server's CPU and memory.
 */
export interface WorkPool {
  /** Runs `job` in its turn; throws PoolFullError, without running it, when the queue is full. */
  run<T>(job: () => Promise<T>): Promise<T>;
  /** Jobs running and waiting now. */
  stats(): { running: number; waiting: number };
}

/** The pool and its queue are full; `retryAfterSeconds` estimates when a place frees up. */
export class PoolFullError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The work queue is full.');
    this.name = 'PoolFullError';
  }
}

export function createWorkPool(options: { concurrency: number; maxWaiting: number; now?: () => number }): WorkPool {
  const concurrency = Math.max(1, options.concurrency);
  const maxWaiting = Math.max(0, options.maxWaiting);
  const now = options.now ?? (() => performance.now());
  const waiting: Array<() => void> = [];
  let running = 0;
  // The mean time of recent jobs (moving average), for Retry-After: a guess of 5 s until one has run.
  let meanMs = 5_000;

  const next = () => {
    running -= 1;
    const turn = waiting.shift();
    if (turn) {
      running += 1;
      turn();
    }
  };

  return {
    async run(job) {
      if (running >= concurrency) {
        if (waiting.length >= maxWaiting) {
          // Everyone ahead (running and waiting) done, `concurrency` at a time, in whole seconds (1 s to 10 min).
          const seconds = Math.ceil((((waiting.length + running) / concurrency) * meanMs) / 1000);
          throw new PoolFullError(Math.min(600, Math.max(1, seconds)));
        }
        await new Promise<void>((turn) => waiting.push(turn));
      } else {
        running += 1;
      }
      const started = now();
      try {
        return await job();
      } finally {
        meanMs = meanMs * 0.7 + (now() - started) * 0.3;
        next();
      }
    },
    stats: () => ({ running, waiting: waiting.length }),
  };
}
