import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@site/ui';
import { UploadError } from '../../../../lib/upload-media';
import { BUSY_GIVE_UP_MS, createUploadQueue, MAX_RETRY_WAIT_MS, type UploadQueue } from '../upload-queue';

/*
 * Issue 54, item 10: the upload queue against a stand-in for the server, on a fake clock. The server's answers are
 * the API's (503 media_busy with Retry-After while its image queue is full; 400 with a message; a network error).
 */

type File = { name: string };
const files = (n: number): File[] => Array.from({ length: n }, (_, i) => ({ name: `photo-${i + 1}.jpg` }));
const busy = (seconds: number) => new UploadError(`Other images are being processed right now. Try again in ${seconds} seconds.`, 503, 'media_busy', seconds);
const message = (error: unknown) => (error instanceof ApiError ? error.message : 'The upload failed.');

/** A server that takes `perSecond` uploads a second into its image queue and answers 503 busy (Retry-After) past it. */
function serverWithRoom(options: { capacity: number; drainMs: number; retryAfter: number; takesMs: number }) {
  const log: Array<{ at: number; file: string; answer: 'stored' | 'busy' }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const queued: number[] = []; // when each stored image finishes processing
  const send = async (file: File) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, options.takesMs));
    inFlight -= 1;
    const now = Date.now();
    while (queued.length > 0 && queued[0]! <= now) queued.shift();
    if (queued.length >= options.capacity) {
      log.push({ at: now, file: file.name, answer: 'busy' });
      throw busy(options.retryAfter);
    }
    queued.push(Math.max(now, queued.at(-1) ?? now) + options.drainMs);
    log.push({ at: now, file: file.name, answer: 'stored' });
    return { name: file.name };
  };
  return { send, log, maxInFlight: () => maxInFlight };
}

const settle = async (ms: number) => {
  await vi.advanceTimersByTimeAsync(ms);
};
const statuses = (queue: UploadQueue<File, unknown>) => queue.snapshot().map((e) => e.status);

describe('the upload queue', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-06-01T09:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('honours Retry-After: after a 503 media_busy nothing is sent before the seconds it names, then the file lands', async () => {
    const sent: number[] = [];
    let answers = 0;
    const queue = createUploadQueue<File, string>({
      failureMessage: message,
      random: () => 1, // the most jitter: still never sooner than Retry-After
      send: async (file) => {
        sent.push(Date.now());
        answers += 1;
        if (answers <= 2) throw busy(7);
        return file.name;
      },
    });
    queue.add(files(2));
    await settle(0);
    // Both were refused at once: both wait, and the list says until when.
    expect(sent).toHaveLength(2);
    const refusedAt = Date.now();
    expect(queue.snapshot().map((e) => [e.status, e.retryReason])).toEqual([
      ['retrying', 'busy'],
      ['retrying', 'busy'],
    ]);
    expect(queue.snapshot()[0]!.retryAt! - refusedAt).toBeGreaterThanOrEqual(7000);
    await settle(6999);
    expect(sent).toHaveLength(2);
    await settle(7000 * 0.2 + 1);
    expect(sent).toHaveLength(4);
    expect(Math.min(...sent.slice(2)) - refusedAt).toBeGreaterThanOrEqual(7000);
    expect(statuses(queue)).toEqual(['done', 'done']);
  });

  it('caps a long Retry-After at a minute, with jitter on top and never below it', async () => {
    const sent: number[] = [];
    const queue = createUploadQueue<File, string>({
      failureMessage: message,
      random: () => 0.5,
      send: async (file) => {
        sent.push(Date.now());
        if (sent.length === 1) throw busy(300);
        return file.name;
      },
    });
    queue.add(files(1));
    await settle(0);
    const wait = queue.snapshot()[0]!.retryAt! - Date.now();
    expect(wait).toBe(MAX_RETRY_WAIT_MS * 1.1);
    await settle(wait);
    expect(statuses(queue)).toEqual(['done']);
  });

  it('sends at most two at once, in the order given', async () => {
    const server = serverWithRoom({ capacity: 100, drainMs: 0, retryAfter: 1, takesMs: 250 });
    const queue = createUploadQueue<File, { name: string }>({ failureMessage: message, send: server.send });
    queue.add(files(9));
    await settle(0);
    expect(statuses(queue).filter((s) => s === 'uploading')).toHaveLength(2);
    await settle(5 * 250);
    expect(statuses(queue).every((s) => s === 'done')).toBe(true);
    expect(server.maxInFlight()).toBe(2);
    expect(server.log.map((l) => l.file)).toEqual(files(9).map((f) => f.name));
  });

  it('lands all 30 photos while the server answers 503 busy for most of the batch, and waits out each Retry-After', async () => {
    // Room for 3 images; each takes 1.5 s to process; Retry-After: 2.
    const server = serverWithRoom({ capacity: 3, drainMs: 1500, retryAfter: 2, takesMs: 50 });
    const queue = createUploadQueue<File, { name: string }>({ failureMessage: message, send: server.send });
    queue.add(files(30));
    for (let i = 0; i < 200 && !statuses(queue).every((s) => s === 'done'); i++) await settle(1000);
    expect(statuses(queue)).toEqual(Array(30).fill('done'));
    expect(new Set(server.log.filter((l) => l.answer === 'stored').map((l) => l.file)).size).toBe(30);
    expect(server.log.filter((l) => l.answer === 'busy').length).toBeGreaterThan(10);
    expect(server.maxInFlight()).toBeLessThanOrEqual(2);
    // After a busy answer the batch is quiet until its Retry-After: no request starts within 2 s of one.
    const started = server.log.map((l) => l.at - 50);
    for (const refusal of server.log.filter((l) => l.answer === 'busy')) {
      expect(started.filter((at) => at > refusal.at && at < refusal.at + 2000)).toEqual([]);
    }
  });

  it('retries a network error three times (1, 2, 4 s), then keeps the file listed as failed with a Retry that works', async () => {
    const sent: number[] = [];
    let online = false;
    const queue = createUploadQueue<File, string>({
      failureMessage: message,
      random: () => 0,
      send: async (file) => {
        sent.push(Date.now());
        if (!online) throw new ApiError('Network error', 0);
        return file.name;
      },
    });
    const start = Date.now();
    queue.add(files(1));
    await settle(0);
    expect(queue.snapshot()[0]).toMatchObject({ status: 'retrying', retryReason: 'network' });
    await settle(1000 + 2000 + 4000);
    expect(sent.map((at) => at - start)).toEqual([0, 1000, 3000, 7000]);
    expect(queue.snapshot()[0]).toMatchObject({ status: 'failed', error: 'The upload failed. Check the connection and try again.', retryable: true });
    await settle(60_000);
    expect(sent).toHaveLength(4);

    online = true;
    queue.retry(queue.snapshot()[0]!.id);
    await settle(0);
    expect(queue.snapshot()[0]).toMatchObject({ status: 'done', result: 'photo-1.jpg', error: null });
  });

  it("fails a refused file at once with the server's message, and the others carry on", async () => {
    const queue = createUploadQueue<File, string>({
      failureMessage: message,
      send: async (file) => {
        if (file.name === 'photo-2.jpg') throw new UploadError("The file's content is a PNG image, but its name (.jpg) says otherwise.", 400, 'type_mismatch');
        return file.name;
      },
    });
    queue.add(files(3));
    await settle(0);
    expect(queue.snapshot().map((e) => [e.status, e.error])).toEqual([
      ['done', null],
      ['failed', "The file's content is a PNG image, but its name (.jpg) says otherwise."],
      ['done', null],
    ]);
  });

  it('lists a file the browser refuses as failed without sending it, and offers no retry', async () => {
    const sent: string[] = [];
    const queue = createUploadQueue<File, string>({
      failureMessage: message,
      send: async (file) => {
        sent.push(file.name);
        return file.name;
      },
    });
    queue.add([{ name: 'logo.svg' }, { name: 'photo.jpg' }], (file) => (file.name.endsWith('.svg') ? 'SVG images are not accepted.' : null));
    await settle(0);
    expect(sent).toEqual(['photo.jpg']);
    expect(queue.snapshot()[0]).toMatchObject({ status: 'failed', error: 'SVG images are not accepted.', retryable: false });
    queue.retry(queue.snapshot()[0]!.id);
    await settle(0);
    expect(sent).toEqual(['photo.jpg']);
  });

  it('gives up on a file after the server stayed busy for 10 minutes, and keeps it listed', async () => {
    const queue = createUploadQueue<File, string>({
      failureMessage: message,
      random: () => 0,
      send: async () => {
        throw busy(30);
      },
    });
    queue.add(files(1));
    await settle(BUSY_GIVE_UP_MS + 31_000);
    expect(queue.snapshot()[0]).toMatchObject({ status: 'failed', retryable: true, error: 'The server stayed busy for 10 minutes. Try again later.' });
  });
});
