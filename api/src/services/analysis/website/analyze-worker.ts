/*
 * The worker thread of page-analyzer.ts: reads one fetched page at a time with analyzeHtml. Its own event loop, so
 * a page that takes long blocks nothing but this thread, and the server can end it at the deadline.
 * Built to dist/analyze-worker.js (build.mjs); from source (tests, dev) page-analyzer bundles it on first use.
 */
import { parentPort } from 'node:worker_threads';
import { analyzeHtml } from './analyze-html';
import type { FetchedPage } from './fetch-website';

export type AnalyzeRequest = { id: number; page: FetchedPage };
export type AnalyzeAnswer = { id: number; facts: ReturnType<typeof analyzeHtml> } | { id: number; error: string };

parentPort?.on('message', ({ id, page }: AnalyzeRequest) => {
  let answer: AnalyzeAnswer;
  try {
    answer = { id, facts: analyzeHtml(page) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
});
