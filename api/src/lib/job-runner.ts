import { randomUUID } from 'node:crypto';
import type { Clock } from './clock';
import type { Logger } from './logger';
import { runOutsideRequest } from './request-context';

/*
 * The one background-work runner of the API. Every loop the server runs in the background (the contact mail outbox,
 * the outgoing webhook outbox, scheduled publishing and its purge, shared-release sync, the admin monitor) is a job
 * kind of it, and the runner alone owns what they had each written by hand: when to run (at start, every poll, when
 * kicked, at a time the job asks for), one run at a time (a kick during a run runs it once more after it), a time
 * budget per run, backoff after a failed run, an optional lease so that one instance of many runs the kind, stop on
 * shutdown (no new run, the run in progress told to stop and awaited, leases given up), and metrics per kind.
 *
 * What a job claims item by item (a mail, a delivery, a due post) it claims in its own repository with a
 * compare-and-set on the row (`… WHERE id = ? AND (lease is free or expired)`), the same SQL on SQLite and PostgreSQL:
 * `run.leaseUntil()` gives the time such a claim holds until.
 */

export interface JobRun {
  /** Aborted when the runner stops or the run has spent its time budget: take no new item after that. */
  readonly signal: AbortSignal;
  /** Now, from the runner's clock. */
  now(): Date;
  /** Until when an item claimed now belongs to this instance (now + the kind's `claimMs`). */
  leaseUntil(): Date;
}

export interface JobOutcome {
  /** How many items the run handled (mails sent, deliveries delivered, posts published…), for callers and logs. */
  done?: number;
  /** When (epoch ms) the kind wants its next run, when that is sooner than its next poll (the next scheduled post). */
  nextAt?: number;
}

export interface JobKind {
  /** Names the kind in logs, metrics and leases: `contact-mail`, `webhook-deliveries`, `post-schedule`, … */
  name: string;
  /** How often it runs by itself (ms). A kick runs it sooner. */
  pollMs: number;
  /** Time budget of one run (ms), 60 s by default: the run's signal aborts then and the run should end soon after. */
  budgetMs?: number;
  /** How long a claim on one item holds (ms), for `run.leaseUntil()`; 60 s by default. */
  claimMs?: number;
  /**
   * One instance of many runs this kind: the holder of the lease named after it, taken or renewed before each run for
   * `ttlMs`, and renewed every third of `ttlMs` while held (between runs too), so the lease can be short whatever the
   * poll. Another instance takes over when the holder stops (it gives the lease up) or when the lease lapses (the holder
   * died): the others try every `min(pollMs, ttlMs / 2)`, so that takes at most 1.5 x `ttlMs` (keep it <= 40 s).
   */
  lease?: { ttlMs: number };
  /** Runs once as soon as the runner starts (true by default): work left by a previous process. */
  runAtStart?: boolean;
  /** Longest wait after failed runs (ms): the delay doubles from `pollMs` with each failure in a row up to this. */
  maxBackoffMs?: number;
  run(run: JobRun): Promise<JobOutcome | void>;
}

/** A kind added to a runner. */
export interface Job {
  readonly name: string;
  /** Runs the kind now, or once more after the run in progress; resolves with that run's outcome (undefined once stopped, or when another instance holds the lease). */
  kick(): Promise<JobOutcome | undefined>;
}

/** Leases shared by every instance (db/leases-repository.ts). */
export interface JobLeases {
  acquire(name: string, holder: string, now: string, until: string): Promise<boolean>;
  release(name: string, holder: string): Promise<void>;
}

/** Timers the runner arms; tests pass their own to move time by hand. */
export interface JobTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export type JobResult = 'ok' | 'failed' | 'not_leader';

export interface JobRunner {
  /** Adds a kind; once the runner has started, its first run is scheduled at once. One kind per name. */
  add(kind: JobKind): Job;
  /** Schedules every kind: a first run now (`runAtStart`), then every poll. */
  start(): void;
  /** No new run; the runs in progress are told to stop (their signal) and awaited; leases held are given up. Idempotent. */
  stop(): Promise<void>;
  /** Each kind's counts since start (health pages, tests). */
  status(): Array<{ name: string; runs: number; failures: number; running: boolean; lastRunAt: string | null }>;
}

export interface JobRunnerDeps {
  clock: Clock;
  logger: Logger;
  /** Required when a kind asks for a lease. */
  leases?: JobLeases;
  /** This instance's name as a lease holder (a random id by default). */
  instance?: string;
  timers?: JobTimers;
  /** Each finished run: its kind, result and duration. */
  observe?: (kind: string, result: JobResult, seconds: number) => void;
}

const realTimers: JobTimers = {
  set(callback, ms) {
    const handle = setTimeout(callback, ms);
    handle.unref();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

const DEFAULT_BUDGET_MS = 60_000;
const DEFAULT_CLAIM_MS = 60_000;
const DEFAULT_MAX_BACKOFF_MS = 5 * 60_000;

export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const { clock, logger } = deps;
  const timers = deps.timers ?? realTimers;
  const instance = deps.instance ?? randomUUID();
  const entries = new Map<string, Entry>();
  let started = false;
  let stopped = false;
  let stopping: Promise<void> | undefined;

  interface Entry {
    kind: JobKind;
    job: Job;
    timer: unknown;
    running?: Promise<JobOutcome | undefined>;
    queued?: Promise<JobOutcome | undefined>;
    controller?: AbortController;
    failuresInRow: number;
    holdsLease: boolean;
    /** The lease's renewal between runs (leased kinds, while this instance holds it). */
    leaseTimer?: unknown;
    renewing?: Promise<unknown>;
    runs: number;
    failures: number;
    lastRunAt: string | null;
  }

  function arm(entry: Entry, delayMs: number) {
    if (entry.timer !== undefined) timers.clear(entry.timer);
    entry.timer = undefined;
    if (stopped || !started) return;
    entry.timer = timers.set(() => {
      entry.timer = undefined;
      void entry.job.kick();
    }, Math.max(0, delayMs));
  }

  /** Whether this instance may run a leased kind now (taking or renewing the lease). */
  async function lead(entry: Entry, now: Date): Promise<boolean> {
    const { lease, name } = entry.kind;
    if (!lease) return true;
    if (!deps.leases) throw new Error(`job ${name} needs a lease store`);
    entry.holdsLease = await deps.leases
      .acquire(`job:${name}`, instance, now.toISOString(), new Date(now.getTime() + lease.ttlMs).toISOString())
      .catch((err: unknown) => {
        logger.warn({ err, job: name }, 'could not take the lease of a background job');
        return false;
      });
    return entry.holdsLease;
  }

  /** While this instance holds the kind's lease it renews it every third of its time, runs or no runs. */
  function keepLease(entry: Entry) {
    if (entry.leaseTimer !== undefined) timers.clear(entry.leaseTimer);
    entry.leaseTimer = undefined;
    const { lease } = entry.kind;
    if (!lease || !entry.holdsLease || stopped) return;
    entry.leaseTimer = timers.set(() => {
      entry.leaseTimer = undefined;
      if (stopped) return;
      const renewing = lead(entry, clock()).then(() => keepLease(entry));
      entry.renewing = renewing.finally(() => {
        if (entry.renewing === renewing) entry.renewing = undefined;
      });
    }, lease.ttlMs / 3);
  }

  async function execute(entry: Entry): Promise<JobOutcome | undefined> {
    const { kind } = entry;
    const begun = clock();
    const controller = new AbortController();
    entry.controller = controller;
    const budget = timers.set(() => controller.abort(new Error(`the run of ${kind.name} spent its time budget`)), kind.budgetMs ?? DEFAULT_BUDGET_MS);
    let result: JobResult = 'ok';
    let outcome: JobOutcome | undefined;
    try {
      const leads = await lead(entry, begun);
      keepLease(entry);
      if (!leads) {
        result = 'not_leader';
        return undefined;
      }
      outcome =
        (await kind.run({
          signal: controller.signal,
          now: () => clock(),
          leaseUntil: () => new Date(clock().getTime() + (kind.claimMs ?? DEFAULT_CLAIM_MS)),
        })) ?? {};
      entry.failuresInRow = 0;
      return outcome;
    } catch (err) {
      result = 'failed';
      entry.failuresInRow += 1;
      entry.failures += 1;
      logger.error({ err, job: kind.name, failuresInRow: entry.failuresInRow }, 'background job failed; it runs again after a backoff');
      return undefined;
    } finally {
      timers.clear(budget);
      entry.controller = undefined;
      entry.runs += 1;
      entry.lastRunAt = clock().toISOString();
      deps.observe?.(kind.name, result, (clock().getTime() - begun.getTime()) / 1000);
      if (!entry.queued) arm(entry, nextDelay(entry, outcome, result));
    }
  }

  function nextDelay(entry: Entry, outcome: JobOutcome | undefined, result: JobResult): number {
    const { pollMs, maxBackoffMs = DEFAULT_MAX_BACKOFF_MS, lease } = entry.kind;
    // Not the holder: look again soon enough to take over within 1.5 x the lease after its holder died.
    if (result === 'not_leader' && lease) return Math.min(pollMs, lease.ttlMs / 2);
    if (entry.failuresInRow > 0) return Math.min(pollMs * 2 ** entry.failuresInRow, Math.max(pollMs, maxBackoffMs));
    if (outcome?.nextAt !== undefined) return Math.min(pollMs, Math.max(0, outcome.nextAt - clock().getTime()));
    return pollMs;
  }

  function kick(entry: Entry): Promise<JobOutcome | undefined> {
    if (stopped) return Promise.resolve(undefined);
    // One more run covers every kick that came during the run in progress.
    if (entry.queued) return entry.queued;
    if (entry.running) {
      entry.queued = entry.running.then(() => {
        entry.queued = undefined;
        return kick(entry);
      });
      return entry.queued;
    }
    if (entry.timer !== undefined) timers.clear(entry.timer);
    entry.timer = undefined;
    // A run belongs to no request, even when a request kicked it (and so do the timers it arms).
    const running = runOutsideRequest(() => execute(entry)).finally(() => {
      if (entry.running === running) entry.running = undefined;
    });
    entry.running = running;
    return running;
  }

  return {
    add(kind) {
      if (entries.has(kind.name)) throw new Error(`a job named ${kind.name} is already added`);
      const entry: Entry = { kind, job: undefined as unknown as Job, timer: undefined, failuresInRow: 0, holdsLease: false, runs: 0, failures: 0, lastRunAt: null };
      entry.job = { name: kind.name, kick: () => kick(entry) };
      entries.set(kind.name, entry);
      if (started && !stopped) arm(entry, kind.runAtStart === false ? kind.pollMs : 0);
      return entry.job;
    },

    start() {
      if (started || stopped) return;
      started = true;
      for (const entry of entries.values()) arm(entry, entry.kind.runAtStart === false ? entry.kind.pollMs : 0);
    },

    stop() {
      stopping ??= (async () => {
        stopped = true;
        for (const entry of entries.values()) {
          if (entry.timer !== undefined) timers.clear(entry.timer);
          entry.timer = undefined;
          if (entry.leaseTimer !== undefined) timers.clear(entry.leaseTimer);
          entry.leaseTimer = undefined;
          entry.controller?.abort(new Error('the server is stopping'));
        }
        await Promise.all([...entries.values()].map((entry) => entry.queued ?? entry.running));
        // A renewal in progress ends before the lease is given up (or it would take the lease again after).
        await Promise.all([...entries.values()].map((entry) => entry.renewing));
        await Promise.all(
          [...entries.values()]
            .filter((entry) => entry.holdsLease)
            .map((entry) => deps.leases?.release(`job:${entry.kind.name}`, instance).catch(() => undefined)),
        );
      })();
      return stopping;
    },

    status() {
      return [...entries.values()].map((e) => ({ name: e.kind.name, runs: e.runs, failures: e.failures, running: e.running !== undefined, lastRunAt: e.lastRunAt }));
    },
  };
}
