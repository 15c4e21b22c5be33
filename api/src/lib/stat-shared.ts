import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { setInterval } from 'node:timers';

/*
 * `fs.stat` of the files that decide what a page is (release pointers, manifests, the shell's index.html, server
 * entries, static files), held in memory so that a warm page makes no filesystem call (issue 51: 40% of a page's CPU
 * went to `stat`). A background check re-reads every remembered file once a second, so a deploy by another process
 * into the folder store counts within a second; a change made by this process (a deploy, a rollback, a release
 * copied from the shared store) calls `refreshStats()`, so its next request sees it at once. Bounded: at most
 * MAX_ENTRIES files, and a file nobody asked about for IDLE_CHECKS checks is forgotten.
 */
export const STAT_CHECK_MS = 1000;
const IDLE_CHECKS = 30;
const MAX_ENTRIES = 2000;

interface Entry {
  value: Promise<Stats | undefined>;
  /** What `value` says, once it is known: compared with the next check's. */
  key?: string;
  usedAt: number;
}

const keyOf = (info: Stats | undefined) => (info ? `${info.ino}:${info.mtimeMs}:${info.ctimeMs}:${info.size}` : 'absent');

const entries = new Map<string, Entry>();
let checks = 0;
/** Bumped whenever a stat is remembered, changes or is forgotten: what was worked out from them is kept until then. */
let generation = 0;
let timer: ReturnType<typeof setInterval> | undefined;
let checking: Promise<void> | undefined;

const statNow = (file: string): Promise<Stats | undefined> =>
  stat(file).then(
    (info) => info,
    () => undefined,
  );

async function checkAll(): Promise<void> {
  checks += 1;
  const work: Array<Promise<void>> = [];
  for (const [file, entry] of entries) {
    if (checks - entry.usedAt > IDLE_CHECKS) {
      entries.delete(file);
      generation += 1;
      continue;
    }
    work.push(
      statNow(file).then((info) => {
        // Replaced only if nobody forgot or re-asked it meanwhile (refreshStats wins over a check under way).
        if (entries.get(file) !== entry) return;
        const key = keyOf(info);
        if (key === entry.key) return;
        entry.value = Promise.resolve(info);
        entry.key = key;
        generation += 1;
      }),
    );
  }
  await Promise.all(work);
  if (entries.size === 0 && timer) {
    clearInterval(timer);
    timer = undefined;
  }
}

let checkEveryMs = STAT_CHECK_MS;

function startChecking(): void {
  if (timer) return;
  // node:timers, not the global: a test's fake clock must not stop the site from seeing a deploy.
  timer = setInterval(() => {
    if (checking) return;
    checking = checkAll().finally(() => {
      checking = undefined;
    });
  }, checkEveryMs);
  timer.unref();
}

/**
 * For tests that must know when the check runs: checks every `ms` from now on (a long period holds it off; the test
 * runs it with checkStatsNow). Returns what puts the period back.
 */
export function setStatCheckEvery(ms: number): () => void {
  const before = checkEveryMs;
  const restart = (period: number) => {
    checkEveryMs = period;
    if (timer) {
      clearInterval(timer);
      timer = undefined;
      startChecking();
    }
  };
  restart(ms);
  return () => restart(before);
}

/** `fs.stat` of a file, undefined when it is not there (or cannot be read), as of the last check (at most a second old). */
export function statShared(file: string): Promise<Stats | undefined> {
  const known = entries.get(file);
  if (known) {
    known.usedAt = checks;
    return known.value;
  }
  if (entries.size >= MAX_ENTRIES) {
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
    generation += 1;
  }
  // A file asked for the first time may be what a kept value now depends on: a new generation.
  generation += 1;
  const entry: Entry = { value: statNow(file), usedAt: checks };
  void entry.value.then((info) => {
    entry.key ??= keyOf(info);
  });
  entries.set(file, entry);
  startChecking();
  return entry.value;
}

/**
 * `fs.stat` of a file as it is now, remembered for the next `statShared`: for an answer that must not be up to a
 * second old (a file the last check found missing, asked for by a visitor after another process copied it in).
 */
export async function statSharedNow(file: string): Promise<Stats | undefined> {
  const info = await statNow(file);
  const key = keyOf(info);
  const known = entries.get(file);
  if (known && known.key !== key) {
    known.value = Promise.resolve(info);
    known.key = key;
    generation += 1;
  }
  return info;
}

/** Forgets every remembered stat: this process changed what is served, and its next request reads the files again. */
export function refreshStats(): void {
  entries.clear();
  generation += 1;
}

/**
 * Runs the once-a-second check now and waits for it: what the next request sees is what the files say at this
 * moment. For tests standing in for that second after another process (a deploy script) wrote the folder.
 */
export async function checkStatsNow(): Promise<void> {
  while (checking) await checking;
  checking = checkAll().finally(() => {
    checking = undefined;
  });
  await checking;
}

/**
 * Changes whenever a stat `statShared` answered may have changed: a value worked out from them (what the shell and each
 * remote serve) and the generation it was started at can be kept while this stays the same.
 */
export function statGeneration(): number {
  return generation;
}
