import { bundleWorker } from '../../lib/bundle-worker';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WebsiteFacts } from '../types';
import type { AnalyzeAnswer, AnalyzeRequest } from './analyze-worker';
import type { FetchedPage } from './fetch-website';

/*
 * The analysis of a fetched page runs on a worker thread under a deadline. Every pattern in analyze-html.ts and
 * technologies.ts is linear, but the HTML parser is not for every input (htmlparser2 keeps its open-element stack
 * with unshift, so 2 MB of unclosed nested tags is quadratic) and the page is a stranger's: the deadline is the
 * guarantee that no page can hold the server, and on a worker even an ordinary large page leaves the event loop free.
 */

/** Wall time one page's analysis may take on its worker (it has the thread to itself, so this is its CPU). */
export const PAGE_ANALYSIS_BUDGET_MS = 4_000;

/** The page could not be read within the budget: reported to the visitor, never a hang. */
export class PageTooComplexError extends Error {
  constructor(budgetMs: number) {
    super(`This page is too large or complex to analyze: its analysis was stopped after ${Math.round(budgetMs / 100) / 10} s.`);
    this.name = 'PageTooComplexError';
  }
}

export interface PageAnalyzer {
  analyze(page: FetchedPage): Promise<WebsiteFacts>;
  /** Ends the workers (idle ones end by themselves; this is for tests and shutdown). */
  close(): Promise<void>;
}

export interface PageAnalyzerOptions {
  budgetMs?: number;
  /** Workers at most (default: one per core beyond the main thread's, at least one). */
  maxWorkers?: number;
  /** An idle worker ends after this long (the next page starts a new one, ~30 ms). */
  idleMs?: number;
}

type Source = { kind: 'file'; url: URL } | { kind: 'code'; code: string };
let bundled: Promise<Source> | undefined;

/**
 * Where the worker's code is: beside the running file in a build (dist/server.js → dist/analyze-worker.js); from
 * the TypeScript sources (vitest, tsx), bundled once with esbuild, a devDependency, into one CommonJS script.
 */
function workerSource(): Promise<Source> {
  const built = new URL('./analyze-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return Promise.resolve({ kind: 'file', url: built });
  bundled ??= bundleWorker(new URL('./analyze-worker.ts', import.meta.url)).then((code) => ({ kind: 'code', code }));
  return bundled;
}

interface Job {
  page: FetchedPage;
  resolve: (facts: WebsiteFacts) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: Job & { id: number; timer: NodeJS.Timeout };
  idleTimer?: NodeJS.Timeout;
}

export function createPageAnalyzer(options: PageAnalyzerOptions = {}): PageAnalyzer {
  const budgetMs = options.budgetMs ?? PAGE_ANALYSIS_BUDGET_MS;
  const maxWorkers = options.maxWorkers ?? Math.max(1, availableParallelism() - 1);
  const idleMs = options.idleMs ?? 30_000;
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let nextId = 1;
  let starting = 0;
  let closed = false;

  function retire(slot: Slot) {
    slots.delete(slot);
    clearTimeout(slot.idleTimer);
    if (slot.job) clearTimeout(slot.job.timer);
    void slot.worker.terminate();
  }

  function finish(slot: Slot, settle: (job: Job) => void) {
    const job = slot.job;
    if (!job) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    settle(job);
  }

  function run(slot: Slot, job: Job) {
    clearTimeout(slot.idleTimer);
    const id = nextId++;
    const timer = setTimeout(() => {
      // Past the budget: the thread is ended mid-work (the only way to stop a running regular expression or parse).
      finish(slot, (j) => j.reject(new PageTooComplexError(budgetMs)));
      retire(slot);
      pump();
    }, budgetMs);
    slot.job = { ...job, id, timer };
    slot.worker.ref();
    slot.worker.postMessage({ id, page: job.page } satisfies AnalyzeRequest);
  }

  function idle(slot: Slot) {
    slot.worker.unref();
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => retire(slot), idleMs);
    slot.idleTimer.unref();
  }

  async function start() {
    starting++;
    try {
      const source = await workerSource();
      if (closed) return;
      const worker =
        source.kind === 'file'
          ? new Worker(source.url, { resourceLimits: { maxOldGenerationSizeMb: 256 } })
          : new Worker(source.code, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 256 } });
      const slot: Slot = { worker };
      slots.add(slot);
      worker.on('message', (answer: AnalyzeAnswer) => {
        if (slot.job?.id !== answer.id) return;
        finish(slot, (job) => ('facts' in answer ? job.resolve(answer.facts) : job.reject(new Error(answer.error))));
        pump(slot);
      });
      // Out of memory (resourceLimits) or a crash: that page fails, the next one gets a new thread.
      worker.on('error', (error) => {
        finish(slot, (job) => job.reject(error.message.includes('memory') ? new PageTooComplexError(budgetMs) : error));
        retire(slot);
        pump();
      });
      worker.on('exit', () => {
        finish(slot, (job) => job.reject(new Error('The page analysis stopped unexpectedly.')));
        slots.delete(slot);
      });
      pump(slot);
    } catch (error) {
      // The worker could not be started at all: the pages waiting fail rather than wait for ever.
      for (const job of queue.splice(0)) job.reject(error as Error);
    } finally {
      starting--;
    }
  }

  /** Gives the next waiting page to `free` (a worker that just finished) or to any idle or new worker. */
  function pump(free?: Slot) {
    if (closed) return;
    const candidates = free ? [free] : [...slots].filter((s) => !s.job);
    for (const slot of candidates) {
      const job = queue.shift();
      if (!job) {
        if (!slot.job) idle(slot);
        continue;
      }
      run(slot, job);
    }
    if (queue.length > starting && slots.size + starting < maxWorkers) void start();
  }

  return {
    analyze(page) {
      if (closed) return Promise.reject(new Error('The page analyzer is closed.'));
      return new Promise<WebsiteFacts>((resolve, reject) => {
        queue.push({ page, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('The page analyzer is closed.'));
      await Promise.all(
        [...slots].map(async (slot) => {
          finish(slot, (job) => job.reject(new Error('The page analyzer is closed.')));
          retire(slot);
        }),
      );
    },
  };
}
