/*
 * The worker thread of page-analyzer.ts: reads one fetched page at a time with analyzeHtml. Its own event loop, so
 * a page that takes long blocks nothing but this thread, and the server can end it at the deadline.
 * Built to dist/analyze-worker.js (build.mjs); from source (tests, dev) page-analyzer bundles it on first use.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { analyzeHtml } from './analyze-html';
import type { FetchedPage } from './fetch-website';

export type AnalyzeRequest = { id: number; page: FetchedPage };
export type AnalyzeAnswer = { id: number; facts: ReturnType<typeof analyzeHtml> } | { id: number; error: string };

// The lowest CPU priority for this thread alone (on Linux a nice value belongs to the thread that sets it): on a
// busy machine the server's own thread, answering requests, goes first; the page waits, within its budget.
try {
  setPriority(19);
} catch {
  // Not permitted here (some containers): the budget still bounds the page.
}

parentPort?.on('message', ({ id, page }: AnalyzeRequest) => {
  let answer: AnalyzeAnswer;
  try {
    answer = { id, facts: analyzeHtml(page) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
});
