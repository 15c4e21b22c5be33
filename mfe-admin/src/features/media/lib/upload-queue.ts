/**
 * A batch of uploads sent a few at a time, none lost: when the server's image queue is full (503 `media_busy`, or a
 * 429) the whole batch waits for its Retry-After (capped, plus jitter, never sooner) and tries again, for up to 10
 * minutes; a network error or a 5xx is retried a few times with backoff; any other refusal fails that file with the
 * server's message, and it stays in the list to be retried by hand. Framework-free: the Media screen renders its
 * snapshot (features/media/hooks/use-batch-upload.ts); tests drive it with a fake clock.
 */

/** How many files are sent at once. */
export const UPLOAD_CONCURRENCY = 2;
/** The longest wait for a Retry-After (the server's guess can be minutes while a big batch is processed). */
export const MAX_RETRY_WAIT_MS = 60_000;
/** How long a file keeps waiting for room while the server says it is busy. */
export const BUSY_GIVE_UP_MS = 10 * 60_000;
/** Retries after a network error or a server error, waiting 1, 2, then 4 s. */
export const NETWORK_RETRIES = 3;
/** Up to this share of a wait is added at random, so files (and other tabs) waiting together do not retry at once. */
const JITTER = 0.2;

export type UploadStatus = 'waiting' | 'uploading' | 'retrying' | 'done' | 'failed';

export interface UploadEntry<F, T> {
  id: number;
  file: F;
  status: UploadStatus;
  /** While uploading: the share sent, 0 to 1 (null when the browser cannot tell). */
  progress: number | null;
  /** While retrying: when the next attempt starts (ms since the epoch), how long the wait is, and why. */
  retryAt: number | null;
  retryWaitMs: number | null;
  retryReason: 'busy' | 'network' | null;
  /** Once done: the server's answer (updated later, e.g. when its processing finishes). */
  result: T | null;
  /** Once failed: what to tell the owner, and whether trying again may help. */
  error: string | null;
  retryable: boolean;
}

/** What a failed attempt means, read from the error's `status`, `code` and `retryAfterSeconds` (an UploadError's). */
type Plan = { kind: 'busy'; waitMs: number } | { kind: 'network' } | { kind: 'fail'; message: string };

export interface UploadQueueOptions<F, T> {
  /** Sends one file; rejects with the server's error (status, code, message, retryAfterSeconds) or a network error. */
  send: (file: F, onProgress: (fraction: number) => void) => Promise<T>;
  /** The sentence for a failure nobody can retry into success (a refusal): the server's message, else a fallback. */
  failureMessage: (error: unknown) => string;
  concurrency?: number;
  now?: () => number;
  random?: () => number;
}

export interface UploadQueue<F, T> {
  /** Adds files at the end; a file `refuse` names a reason for is listed as failed at once (never sent). */
  add(files: readonly F[], refuse?: (file: F) => string | null): void;
  /** Sends a failed (or finished) file again, from the start. */
  retry(id: number): void;
  /** Replaces a finished file's answer (its processing moved on). */
  update(id: number, result: T): void;
  /** Takes finished files off the list. */
  remove(predicate: (entry: UploadEntry<F, T>) => boolean): void;
  /** The list as it is now: a new array after each change, the same one until then. */
  snapshot(): readonly UploadEntry<F, T>[];
  subscribe(listener: () => void): () => void;
}

function planFor(error: unknown, failureMessage: (error: unknown) => string): Plan {
  const { status, code, retryAfterSeconds } = (error ?? {}) as { status?: unknown; code?: unknown; retryAfterSeconds?: unknown };
  const after = typeof retryAfterSeconds === 'number' && Number.isFinite(retryAfterSeconds) ? Math.max(0, retryAfterSeconds) : undefined;
  if ((status === 503 && code === 'media_busy') || status === 429) return { kind: 'busy', waitMs: (after ?? 5) * 1000 };
  if (status === 0 || (typeof status === 'number' && status >= 500) || typeof status !== 'number') return { kind: 'network' };
  return { kind: 'fail', message: failureMessage(error) };
}

export function createUploadQueue<F, T>(options: UploadQueueOptions<F, T>): UploadQueue<F, T> {
  const concurrency = Math.max(1, options.concurrency ?? UPLOAD_CONCURRENCY);
  const now = options.now ?? (() => Date.now());
  const random = options.random ?? Math.random;
  const listeners = new Set<() => void>();
  let entries: UploadEntry<F, T>[] = [];
  let nextId = 1;
  /** Nothing new starts before this time: the server said it is busy. */
  let pausedUntil = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Per file: attempts after network errors, when the server first said busy, and a token so a retried file's old attempt is ignored. */
  const tries = new Map<number, { network: number; busySince: number | null; token: number }>();

  const emit = () => {
    for (const listener of listeners) listener();
  };
  const change = (id: number, patch: Partial<UploadEntry<F, T>>) => {
    entries = entries.map((e) => (e.id === id ? { ...e, ...patch } : e));
    emit();
  };
  const jittered = (ms: number) => ms + Math.round(random() * ms * JITTER);

  function wake(at: number) {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(
      () => {
        timer = null;
        pump();
      },
      Math.max(0, at - now()),
    );
  }

  /** Starts what may start now, and sets the timer for the next file to become due. */
  function pump() {
    const t = now();
    if (t < pausedUntil) return wake(pausedUntil);
    let running = entries.filter((e) => e.status === 'uploading').length;
    let nextDue = Infinity;
    for (const entry of entries) {
      if (running >= concurrency) break;
      if (entry.status === 'retrying' && entry.retryAt !== null && entry.retryAt > t) {
        nextDue = Math.min(nextDue, entry.retryAt);
        continue;
      }
      if (entry.status !== 'waiting' && entry.status !== 'retrying') continue;
      running += 1;
      start(entry.id);
    }
    if (running < concurrency && Number.isFinite(nextDue)) wake(nextDue);
  }

  function start(id: number) {
    const entry = entries.find((e) => e.id === id)!;
    const token = (tries.get(id)?.token ?? 0) + 1;
    tries.set(id, { network: tries.get(id)?.network ?? 0, busySince: tries.get(id)?.busySince ?? null, token });
    const current = () => tries.get(id)?.token === token;
    let shown = -1;
    change(id, { status: 'uploading', progress: 0, retryAt: null, retryWaitMs: null, retryReason: null, error: null });
    options
      .send(entry.file, (fraction) => {
        // Whole percents only: a progress event per network packet would redraw the list hundreds of times.
        const percent = Math.floor(fraction * 100);
        if (!current() || percent === shown) return;
        shown = percent;
        change(id, { progress: fraction });
      })
      .then(
        (result) => {
          if (!current()) return;
          tries.set(id, { network: 0, busySince: null, token });
          change(id, { status: 'done', progress: null, result });
        },
        (error: unknown) => {
          if (!current()) return;
          failed(id, error);
        },
      )
      .finally(() => {
        if (current()) pump();
      });
  }

  function failed(id: number, error: unknown) {
    const plan = planFor(error, options.failureMessage);
    const state = tries.get(id)!;
    const t = now();
    if (plan.kind === 'busy') {
      state.busySince ??= t;
      if (t - state.busySince < BUSY_GIVE_UP_MS) {
        const wait = jittered(Math.min(plan.waitMs, MAX_RETRY_WAIT_MS));
        // The server is busy for every file: the whole batch waits, not only this one.
        pausedUntil = Math.max(pausedUntil, t + wait);
        return change(id, { status: 'retrying', progress: null, retryAt: t + wait, retryWaitMs: wait, retryReason: 'busy' });
      }
      return change(id, { status: 'failed', progress: null, error: 'The server stayed busy for 10 minutes. Try again later.', retryable: true });
    }
    if (plan.kind === 'network' && state.network < NETWORK_RETRIES) {
      const wait = jittered(1000 * 2 ** state.network);
      state.network += 1;
      return change(id, { status: 'retrying', progress: null, retryAt: t + wait, retryWaitMs: wait, retryReason: 'network' });
    }
    const message = plan.kind === 'fail' ? plan.message : 'The upload failed. Check the connection and try again.';
    change(id, { status: 'failed', progress: null, error: message, retryable: true });
  }

  return {
    add(files, refuse) {
      const added = files.map((file): UploadEntry<F, T> => {
        const reason = refuse?.(file) ?? null;
        const base = { id: nextId++, file, progress: null, retryAt: null, retryWaitMs: null, retryReason: null, result: null };
        return reason ? { ...base, status: 'failed', error: reason, retryable: false } : { ...base, status: 'waiting', error: null, retryable: true };
      });
      if (added.length === 0) return;
      entries = [...entries, ...added];
      emit();
      pump();
    },
    retry(id) {
      const entry = entries.find((e) => e.id === id);
      if (!entry || !entry.retryable || (entry.status !== 'failed' && entry.status !== 'done')) return;
      tries.set(id, { network: 0, busySince: null, token: (tries.get(id)?.token ?? 0) + 1 });
      change(id, { status: 'waiting', result: null, error: null });
      pump();
    },
    update(id, result) {
      const entry = entries.find((e) => e.id === id);
      if (entry?.status === 'done' && entry.result !== result) change(id, { result });
    },
    remove(predicate) {
      const kept = entries.filter((e) => !((e.status === 'done' || e.status === 'failed') && predicate(e)));
      if (kept.length === entries.length) return;
      entries = kept;
      emit();
    },
    snapshot: () => entries,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
