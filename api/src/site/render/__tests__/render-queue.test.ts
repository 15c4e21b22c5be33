import { describe, expect, it } from 'vitest';
import { createRenderQueue } from '../render-queue';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('render queue: server renders take turns (render-queue.ts)', () => {
  it('runs at most `concurrency` at once, first come first served', async () => {
    const queue = createRenderQueue({ concurrency: 2, maxWaitMs: 60_000 });
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const entries = [1, 2, 3, 4, 5].map((n) =>
      queue.enter().then((release) => {
        order.push(n);
        releases.push(release!);
      }),
    );
    await nextTurn();
    expect(order).toEqual([1, 2]);
    expect(queue.stats()).toEqual({ running: 2, waiting: 3 });

    releases[0]!();
    releases[0]!(); // a second call changes nothing
    await nextTurn();
    await nextTurn();
    expect(order).toEqual([1, 2, 3]);
    expect(queue.stats()).toEqual({ running: 2, waiting: 2 });

    releases[1]!();
    releases[2]!();
    await nextTurn();
    await nextTurn();
    expect(order).toEqual([1, 2, 3, 4, 5]);
    await Promise.all(entries);
  });

  it('starts a waiting render in a later turn of the event loop, not in the turn that ended the last', async () => {
    const queue = createRenderQueue({ concurrency: 1, maxWaitMs: 60_000 });
    const release = (await queue.enter())!;
    let admitted = false;
    void queue.enter().then(() => (admitted = true));
    release();
    await Promise.resolve();
    await Promise.resolve();
    expect(admitted).toBe(false);
    await nextTurn();
    await nextTurn();
    expect(admitted).toBe(true);
  });

  it('a render that waited longer than maxWaitMs is not run (null): its page is rendered in the browser', async () => {
    const queue = createRenderQueue({ concurrency: 1, maxWaitMs: 20 });
    const release = (await queue.enter())!;
    const late = queue.enter();
    await new Promise((resolve) => setTimeout(resolve, 40));
    release();
    expect(await late).toBeNull();
    expect(queue.stats()).toEqual({ running: 0, waiting: 0 });
    // The queue goes on serving.
    const again = await queue.enter();
    expect(again).toBeTypeOf('function');
  });
});
