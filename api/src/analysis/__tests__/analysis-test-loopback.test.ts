import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisResponseSchema } from '@site/contracts/analysis';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { ConfigError, loadConfig } from '../../config';
import { describeNeedingBuild } from '../../test-support/built-site';
import { bundleMissing, startChildServer, type ChildServer } from '../../test-support/child-server';
import { startTestServer } from '../../test-support/test-server';
import { html, startLocalServer, type LocalServer } from './fakes';

/*
 * ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK lets the server process (node api/dist/server.js, as the browser tests run it)
 * analyze a test site on 127.0.0.1. It is off unless set, cannot be combined with NODE_ENV=production, and only the
 * process reads it: createApp has no such switch (tests inside one process pass readingLoopbackSites() instead).
 */

const analyzeWebsite = (base: string, url: string) =>
  fetch(`${base}/api/analyze-website`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url, mode: 'website' }) });

const LOOPBACK_BAKERY = '<html><head><title>Loopback Bakery</title></head><body><h1>Loopback Bakery</h1></body></html>';

describe('ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK', () => {
  it('is off by default and refused together with NODE_ENV=production', () => {
    expect(loadConfig({}).analysisTestOnlyAllowLoopback).toBe(false);
    expect(loadConfig({ ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: 'true' }).analysisTestOnlyAllowLoopback).toBe(true);
    expect(() => loadConfig({ ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: '1', NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: 'yes' })).toThrow(ConfigError);
  });

  it('is not read by the app itself: an app built with it set still refuses a local site', async () => {
    const site = await startLocalServer((_req, _body, res) => html(res, LOOPBACK_BAKERY));
    const server = await startTestServer({ env: { ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: '1' } });
    try {
      const res = await analyzeWebsite(server.url, `http://127.0.0.1:${site.port}/`);
      expect(res.status).toBe(400);
      expect(errorEnvelopeSchema.parse(await res.json()).error.code).toBe('website_refused');
    } finally {
      await server.close();
      await site.close();
    }
  });
});

describeNeedingBuild('ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK on the built server process', { missing: bundleMissing() }, () => {
  let site: LocalServer;
  let dataDir: string;
  let allowed: ChildServer;
  let normal: ChildServer;

  beforeAll(async () => {
    site = await startLocalServer((_req, _body, res) => html(res, LOOPBACK_BAKERY));
    dataDir = await mkdtemp(path.join(tmpdir(), 'analysis-loopback-'));
    const env = (name: string) => ({ DATA_DIR: path.join(dataDir, name), SITE_ROOT: dataDir });
    [allowed, normal] = await Promise.all([
      startChildServer({ ...env('allowed'), ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: '1' }),
      startChildServer(env('normal')),
    ]);
  });
  afterAll(async () => {
    await allowed?.stop();
    await normal?.stop();
    await site?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('when set, a local site on 127.0.0.1 and any port is analyzed, and the server warns that it is on', async () => {
    const res = await analyzeWebsite(allowed.url, `http://127.0.0.1:${site.port}/`);
    expect(res.status).toBe(200);
    const report = analysisResponseSchema.parse(await res.json());
    expect(report.businessInfo.businessName).toBe('Loopback Bakery');
    expect(report.dataSources.website).toBe('live');
    expect(allowed.output()).toContain('ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK is on');
  });

  it('when set, private networks and cloud metadata are still refused', async () => {
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://192.168.1.1/']) {
      const res = await analyzeWebsite(allowed.url, url);
      expect(res.status, url).toBe(400);
      expect(errorEnvelopeSchema.parse(await res.json()).error.code).toBe('website_refused');
    }
  });

  it('when not set, the same local site is refused with 400', async () => {
    const res = await analyzeWebsite(normal.url, `http://127.0.0.1:${site.port}/`);
    expect(res.status).toBe(400);
    expect(errorEnvelopeSchema.parse(await res.json()).error.code).toBe('website_refused');
    expect(normal.output()).not.toContain('ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK');
  });
});
