import { describe, expect, it } from 'vitest';
import { createJobRunner, type JobKind, type JobLeases, type JobTimers } from '../job-runner';
import { createLogger } from '../logger';

/** Timers and a clock the test moves by hand: `advance(ms)` fires what falls due, in order, and lets each run finish. */
function manualTime() {
  let now = Date.parse('2026-06-01T10:00:00.000Z');
  let seq = 0;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timers: JobTimers = {
    set(callback, ms) {
      const id = ++seq;
      pending.set(id, { at: now + ms, callback });
      return id;
    },
    clear: (handle) => void pending.delete(handle as number),
  };
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    clock: () => new Date(now),
    timers,
    /** When the next timer fires, relative to now (undefined: none armed). */
    nextIn: () => {
      const ats = [...pending.values()].map((t) => t.at);
      return ats.length ? Math.min(...ats) - now : undefined;
    },
    armed: () => pending.size,
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, t]) => t.at <= until).sort((x, y) => x[1].at - y[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].callback();
        await settle();
      }
      now = until;
      await settle();
    },
    settle,
  };
}

const silent = createLogger({ level: 'silent' });

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the job runner', () => {
  it('runs each kind at start, then every poll, and sooner when the job asks for a time before its poll', async () => {
    const time = manualTime();
    const runner = createJobRunner({ clock: time.clock, logger: silent, timers: time.timers });
    const ran: string[] = [];
    let nextAt: number | undefined;
    runner.add({ name: 'a', pollMs: 1000, run: async () => void ran.push('a') });
    const b = runner.add({ name: 'b', pollMs: 5000, run: async () => (ran.push('b'), nextAt === undefined ? {} : { nextAt }) });
    runner.add({ name: 'later', pollMs: 3000, runAtStart: false, run: async () => void ran.push('later') });
    expect(ran).toEqual([]);
    runner.start();
    await time.advance(0);
    expect(ran.sort()).toEqual(['a', 'b']);
    ran.length = 0;
    await time.advance(3000);
    expect(ran.sort()).toEqual(['a', 'a', 'a', 'later']);
    ran.length = 0;
    // b asks for a time later than its poll: its poll wins. Then for one sooner: it runs then.
    nextAt = time.clock().getTime() + 10_000;
    await time.advance(2000);
    expect(ran.sort()).toEqual(['a', 'a', 'b']);
    ran.length = 0;
    nextAt = time.clock().getTime() + 700;
    await b.kick();
    nextAt = undefined;
    ran.length = 0;
    await time.advance(699);
    expect(ran).toEqual([]);
    await time.advance(1);
    expect(ran).toEqual(['b']);
    await runner.stop();
    expect(time.armed()).toBe(0);
  });

  it('runs one run at a time: kicks during a run make exactly one more run after it, and resolve with its outcome', async () => {
    const time = manualTime();
    const runner = createJobRunner({ clock: time.clock, logger: silent, timers: time.timers });
    let runs = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    const gates: Array<ReturnType<typeof deferred>> = [];
    const job = runner.add({
      name: 'outbox',
      pollMs: 1000,
      async run() {
        runs += 1;
        concurrent += 1;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        const gate = deferred();
        gates.push(gate);
        await gate.promise;
        concurrent -= 1;
        return { done: runs };
      },
    });
    const first = job.kick();
    const second = job.kick();
    const third = job.kick();
    expect(second).toBe(third);
    await time.settle();
    expect(runs).toBe(1);
    gates[0]!.resolve();
    expect(await first).toEqual({ done: 1 });
    await time.settle();
    expect(runs).toBe(2);
    gates[1]!.resolve();
    expect(await second).toEqual({ done: 2 });
    expect(maxConcurrent).toBe(1);
    await runner.stop();
  });

  it('backs off after failed runs (doubling from the poll up to its limit) and polls as usual after a success', async () => {
    const time = manualTime();
    const results: string[] = [];
    const runner = createJobRunner({ clock: time.clock, logger: silent, timers: time.timers, observe: (kind, result) => results.push(`${kind}:${result}`) });
    let failing = true;
    runner.add({
      name: 'flaky',
      pollMs: 1000,
      maxBackoffMs: 6000,
      async run() {
        if (failing) throw new Error('the database did not answer');
      },
    });
    runner.start();
    await time.advance(0);
    const delays: Array<number | undefined> = [];
    for (let i = 0; i < 4; i++) {
      delays.push(time.nextIn());
      await time.advance(time.nextIn()!);
    }
    expect(delays).toEqual([2000, 4000, 6000, 6000]);
    failing = false;
    await time.advance(time.nextIn()!);
    expect(time.nextIn()).toBe(1000);
    expect(results).toEqual([...Array(5).fill('flaky:failed'), 'flaky:ok']);
    expect(runner.status()).toEqual([expect.objectContaining({ name: 'flaky', runs: 6, failures: 5 })]);
    await runner.stop();
  });

  it('aborts a run that spends its time budget, and takes no new item after', async () => {
    const time = manualTime();
    const runner = createJobRunner({ clock: time.clock, logger: silent, timers: time.timers });
    const handled: number[] = [];
    const job = runner.add({
      name: 'slow',
      pollMs: 60_000,
      budgetMs: 2500,
      async run({ signal }) {
        for (let item = 1; item <= 10 && !signal.aborted; item++) {
          await new Promise<void>((resolve) => time.timers.set(resolve, 1000));
          handled.push(item);
        }
        return { done: handled.length };
      },
    });
    const outcome = job.kick();
    await time.settle();
    await time.advance(10_000);
    expect(handled).toEqual([1, 2, 3]);
    expect(await outcome).toEqual({ done: 3 });
    await runner.stop();
  });

  it('stops: no new run, the run in progress told to stop and awaited, no timer left', async () => {
    const time = manualTime();
    const runner = createJobRunner({ clock: time.clock, logger: silent, timers: time.timers });
    let runs = 0;
    let sawAbort = false;
    const gate = deferred();
    const job = runner.add({
      name: 'mail',
      pollMs: 1000,
      async run({ signal }) {
        runs += 1;
        signal.addEventListener('abort', () => (sawAbort = true));
        await gate.promise;
      },
    });
    runner.start();
    await time.advance(0);
    const queued = job.kick();
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await time.settle();
    expect(sawAbort).toBe(true);
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(await queued).toBeUndefined();
    expect(runs).toBe(1);
    expect(await job.kick()).toBeUndefined();
    await time.advance(10_000);
    expect(runs).toBe(1);
    expect(time.armed()).toBe(0);
  });

  it('runs a leased kind on the lease holder only, renews it each run, and gives it up on stop', async () => {
    const time = manualTime();
    const held = new Map<string, { holder: string; until: string }>();
    const leases: JobLeases = {
      async acquire(name, holder, now, until) {
        const current = held.get(name);
        if (current && current.holder !== holder && current.until > now) return false;
        held.set(name, { holder, until });
        return true;
      },
      async release(name, holder) {
        if (held.get(name)?.holder === holder) held.delete(name);
      },
    };
    const ran: string[] = [];
    const kind = (who: string): JobKind => ({ name: 'monitor', pollMs: 1000, lease: { ttlMs: 2500 }, run: async () => void ran.push(who) });
    const a = createJobRunner({ clock: time.clock, logger: silent, timers: time.timers, leases, instance: 'a' });
    const b = createJobRunner({ clock: time.clock, logger: silent, timers: time.timers, leases, instance: 'b' });
    a.add(kind('a'));
    b.add(kind('b'));
    a.start();
    b.start();
    await time.advance(3000);
    expect(ran).toEqual(['a', 'a', 'a', 'a']);
    expect(held.get('job:monitor')).toEqual({ holder: 'a', until: new Date(time.clock().getTime() + 2500).toISOString() });
    await a.stop();
    expect(held.has('job:monitor')).toBe(false);
    await time.advance(1000);
    expect(ran.at(-1)).toBe('b');
    await b.stop();
  });

  it('renews a held lease between runs however long the poll, and another instance takes over within 1.5 x the lease once its holder died', async () => {
    const time = manualTime();
    const held = new Map<string, { holder: string; until: string }>();
    const leases: JobLeases = {
      async acquire(name, holder, now, until) {
        const current = held.get(name);
        if (current && current.holder !== holder && current.until > now) return false;
        held.set(name, { holder, until });
        return true;
      },
      async release(name, holder) {
        if (held.get(name)?.holder === holder) held.delete(name);
      },
    };
    const ran: Array<[string, number]> = [];
    const start = time.clock().getTime();
    const kind = (who: string): JobKind => ({ name: 'retention', pollMs: 3600_000, lease: { ttlMs: 30_000 }, run: async () => void ran.push([who, time.clock().getTime() - start]) });
    // A live holder keeps an hourly kind's 30 s lease for as long as it lives.
    const a = createJobRunner({ clock: time.clock, logger: silent, timers: time.timers, leases, instance: 'a' });
    const b = createJobRunner({ clock: time.clock, logger: silent, timers: time.timers, leases, instance: 'b' });
    a.add(kind('a'));
    a.start();
    await time.settle();
    b.add(kind('b'));
    b.start();
    await time.advance(10 * 60_000);
    expect(ran).toEqual([['a', 0]]);
    expect(held.get('job:retention')?.holder).toBe('a');

    // A killed holder: its lease taken by a kick, its timers never fire again (nothing renews it, nothing gives it up).
    const dead = createJobRunner({ clock: time.clock, logger: silent, timers: { set: () => 0, clear() {} }, leases, instance: 'dead' });
    const job = dead.add(kind('dead'));
    await a.stop();
    const killedAt = time.clock().getTime() - start;
    await job.kick();
    await time.advance(60_000);
    const taken = ran.find(([who]) => who === 'b');
    expect(taken).toBeDefined();
    expect(taken![1] - killedAt).toBeGreaterThanOrEqual(30_000);
    expect(taken![1] - killedAt).toBeLessThanOrEqual(45_000);
    await b.stop();
  });

  it('refuses two kinds of one name', () => {
    const runner = createJobRunner({ clock: () => new Date(), logger: silent });
    runner.add({ name: 'x', pollMs: 1, run: async () => undefined });
    expect(() => runner.add({ name: 'x', pollMs: 1, run: async () => undefined })).toThrow('a job named x is already added');
  });
});
