/**
 * Server renders take their turn.
 *
 * Rendering a page is a few milliseconds of synchronous work. When many arrive at once, Node would run all of them in
 * one turn of its event loop, and a long turn starves the rest of the server: libuv accepts one new connection per
 * turn, so under a burst of new visitors a connection could wait seconds before its request is even read. This queue
 * runs at most `concurrency` renders at a time and starts the next in a later turn (setImmediate), so turns stay short
 * and new connections keep being accepted. Waiters are served first come, first served; one that has waited longer
 * than `maxWaitMs` is not rendered on the server at all (the page goes out to be rendered in the browser, as when a
 * render fails), so an overload makes pages lighter instead of later.
 */
export interface RenderQueue {
  /** Resolves with a release function when it is this render's turn, or with null when it waited too long. */
  enter(): Promise<(() => void) | null>;
  /** Renders running and waiting now. */
  stats(): { running: number; waiting: number };
}

export const DEFAULT_SSR_CONCURRENCY = 4;
export const DEFAULT_SSR_QUEUE_MS = 2_000;

export function createRenderQueue(options: { concurrency?: number; maxWaitMs?: number } = {}): RenderQueue {
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_SSR_CONCURRENCY);
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_SSR_QUEUE_MS;
  const waiting: Array<{ since: number; admit: (release: (() => void) | null) => void }> = [];
  let running = 0;
  let scheduled = false;

  function release(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      running -= 1;
      schedule();
    };
  }

  function schedule() {
    if (scheduled || waiting.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const now = performance.now();
      while (running < concurrency && waiting.length > 0) {
        const next = waiting.shift()!;
        if (now - next.since > maxWaitMs) {
          next.admit(null);
          continue;
        }
        running += 1;
        next.admit(release());
      }
    });
  }

  return {
    enter() {
      if (running < concurrency && waiting.length === 0) {
        running += 1;
        return Promise.resolve(release());
      }
      return new Promise((admit) => {
        waiting.push({ since: performance.now(), admit });
        schedule();
      });
    },
    stats: () => ({ running, waiting: waiting.length }),
  };
}
