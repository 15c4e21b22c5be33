import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisResponseSchema } from '@site/contracts/analysis';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { notBuiltMessage } from '../../test-support/built-site';
import { bundleMissing, startChildServer, type ChildServer } from '../../test-support/child-server';
import { readingLoopbackSites, startTestServer } from '../../test-support/test-server';
import { hostilePages, largeOrdinaryPage } from '../../test-support/hostile-pages';
import { analyzeHtml, emailsIn } from '../website/analyze-html';
import { createPageAnalyzer, PageTooComplexError, PAGE_ANALYSIS_BUDGET_MS } from '../website/page-analyzer';
import type { FetchedPage } from '../website/fetch-website';
import { html, startLocalServer, type LocalServer } from './fakes';

/*
 * A fetched page once froze the server through a backtracking pattern. Every such attack page, at the fetcher's 2 MB
 * limit, is analysed over HTTP while another client polls /api/health/live: the analysis ends within a few seconds
 * and health is never kept waiting.
 */

const PAGE_BYTES = 2 * 1024 * 1024 - 4096;
/**
 * What a stall looks like: an analysis on the event loop holds every other request for its whole length. On two
 * shared cores a health answer may take a few hundred milliseconds without any stall, so the bound is a stall's, and
 * the longest wait is printed as the figure.
 */
const HEALTH_MAX_WAIT_MS = 1_000;

const fetched = (body: string): FetchedPage => ({
  requestedUrl: 'https://example.com/',
  finalUrl: 'https://example.com/',
  status: 200,
  headers: {},
  contentType: 'text/html',
  body,
  bytes: body.length,
  responseTimeMs: 5,
  totalTimeMs: 5,
  redirects: [],
});

/** Polls `url` back to back until stopped; resolves with the longest time one answer took. */
function pollHealth(url: string) {
  let stop = false;
  let longest = 0;
  let count = 0;
  const done = (async () => {
    while (!stop) {
      const t = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      longest = Math.max(longest, performance.now() - t);
      count++;
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return async () => {
    stop = true;
    await done;
    return { longest, count };
  };
}

// The built server in its own process, as the review ran it: its event loop is what health measures, not this
// test process's (which also serves the hostile pages).
describe('a hostile page cannot hold the server', () => {
  let site: LocalServer;
  let server: ChildServer;
  let dataDir: string;
  const pages = new Map<string, Buffer>();

  beforeAll(async () => {
    const missing = bundleMissing();
    if (missing) throw new Error(notBuiltMessage(missing));
    for (const [i, page] of hostilePages(PAGE_BYTES).entries()) pages.set(`/hostile/${i}`, Buffer.from(page.html));
    pages.set('/ordinary', Buffer.from(largeOrdinaryPage(PAGE_BYTES)));
    site = await startLocalServer((req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(pages.get((req.url ?? '').split('?')[0]!) ?? '<h1>none</h1>');
    });
    dataDir = await mkdtemp(path.join(tmpdir(), 'hostile-pages-'));
    server = await startChildServer({ DATA_DIR: dataDir, ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: '1', RATE_LIMIT_MULTIPLIER: '100' });
    // The first analysis starts the worker thread (and, from the sources, bundles it once): not what is measured.
    await fetch(`${server.url}/api/analyze-website`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${site.port}/warm-up`, mode: 'website' }),
    });
  });
  afterAll(async () => {
    await server?.stop();
    await site?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const cases = [...hostilePages(1).map((p, i) => ({ name: p.name, path: `/hostile/${i}` })), { name: 'an ordinary 2 MB page', path: '/ordinary' }];
  it.each(cases)('$name (2 MB): the analysis ends in time and health answers meanwhile', async ({ path }) => {
    const stopPolling = pollHealth(`${server.url}/api/health/live`);
    const started = performance.now();
    const res = await fetch(`${server.url}/api/analyze-website`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${site.port}${path}?run=${Date.now()}`, mode: 'website' }),
    });
    const elapsed = performance.now() - started;
    const health = await stopPolling();
    expect(res.status).toBe(200);
    const report = analysisResponseSchema.parse(await res.json());
    // Read, or reported as too complex: never a hang, never a failed request.
    expect(['live', 'error']).toContain(report.dataSources.website);
    expect(elapsed).toBeLessThan(PAGE_ANALYSIS_BUDGET_MS + 3_000);
    console.info(`${path}: analysed in ${Math.round(elapsed)} ms; ${health.count} health answers meanwhile, the longest in ${Math.round(health.longest)} ms`);
    expect(health.count).toBeGreaterThan(0);
    expect(health.longest).toBeLessThan(HEALTH_MAX_WAIT_MS);
  });

  it('the former patterns read their attack pages as ordinary text, well within the budget', async () => {
    const analyzer = createPageAnalyzer();
    try {
      // All but the deep nesting page (the parser's own cost) must be read, not stopped by the deadline.
      for (const page of hostilePages(PAGE_BYTES).filter((p) => !p.name.startsWith('deep nesting'))) {
        await expect(analyzer.analyze(fetched(page.html)), page.name).resolves.toHaveProperty('finalUrl', 'https://example.com/');
      }
    } finally {
      await analyzer.close();
    }
  });
});

describe('the page analysis budget', () => {
  it('a page past the budget is reported as too large or complex, and the next page is read by a new worker', async () => {
    const analyzer = createPageAnalyzer({ budgetMs: 1 });
    try {
      await expect(analyzer.analyze(fetched(largeOrdinaryPage(500_000)))).rejects.toThrow(PageTooComplexError);
    } finally {
      await analyzer.close();
    }
    const roomy = createPageAnalyzer({ budgetMs: 10_000, maxWorkers: 1 });
    try {
      const [a, b] = await Promise.all([
        roomy.analyze(fetched('<title>First</title><h1>One</h1>')),
        roomy.analyze(fetched('<title>Second</title><h1>Two</h1>')),
      ]);
      expect([a.title, b.title]).toEqual(['First', 'Second']);
    } finally {
      await roomy.close();
    }
  });

  it('the visitor is told the page was too large or complex to analyze', async () => {
    const site = await startLocalServer((_req, _body, res) => html(res, largeOrdinaryPage(500_000)));
    const server = await startTestServer({ deps: { analysis: readingLoopbackSites({ pageAnalysis: { budgetMs: 1 } }) } });
    try {
      const res = await fetch(`${server.url}/api/analyze-website`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:${site.port}/`, mode: 'website' }),
      });
      expect(res.status).toBe(200);
      const body = JSON.stringify(await res.json());
      expect(body).toContain('too large or complex to analyze');
    } finally {
      await server.close();
      await site.close();
    }
  });
});

describe('analyzeHtml on hostile structure', () => {
  it('20,000 nested elements are read without overflowing the stack (3,000 did)', () => {
    const facts = analyzeHtml(fetched(`<title>Deep</title><h1>Top</h1>${'<div><span>word '.repeat(20_000)}`));
    expect(facts.title).toBe('Deep');
    expect(facts.wordCount).toBe(20_001);
  });

  it('a malformed %-escape in a tel: or mailto: link does not fail the analysis', () => {
    const facts = analyzeHtml(fetched('<a href="tel:%E0%A4%A">Call</a><a href="mailto:a%ZZ@example.com">Mail</a>'));
    expect(facts.contact.phones).toEqual(['%E0%A4%A']);
    expect(facts.contact.emails).toEqual(['a%ZZ@example.com']);
  });

  it('finds e-mail addresses in text as the old pattern did', () => {
    expect(emailsIn('Write to hello@bluedoor-salon.com, or (jobs@example.co.uk).')).toEqual(['hello@bluedoor-salon.com', 'jobs@example.co.uk']);
    expect(emailsIn('no address @ here, a@b, x@y.z, @example.com, me@.com')).toEqual([]);
    // At most 64 characters before the '@' are read (RFC 5321's limit), and an address starts on a letter or digit.
    const [long] = emailsIn(`${'a.'.repeat(100)}x@example.com`);
    expect(long).toMatch(/^a(?:\.a)+\.x@example\.com$/);
    expect(long!.indexOf('@')).toBeLessThanOrEqual(64);
  });

  it('generator tags are read from the parsed page, whatever the attribute order', () => {
    const techs = (h: string) => analyzeHtml(fetched(h)).technologies.map((t) => t.name);
    expect(techs('<meta content="WordPress 6.5" name="generator">')).toContain('WordPress');
    expect(techs('<META NAME="Generator" CONTENT="Webflow">')).toContain('Webflow');
    expect(techs('<meta name="description" content="generator of wordpress sites">')).not.toContain('WordPress');
  });
});
