import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisResponseSchema } from '@site/contracts/analysis';
import { errorEnvelopeSchema } from '@site/contracts/error';
import { ConfigError, loadConfig } from '../../config';
import { startTestServer, type TestServer } from '../../test-support/test-server';
import { html, startLocalServer, type LocalServer } from '../../services/analysis/__tests__/fakes';

/*
 * ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK lets the production server (as the browser tests run it) analyze a test site
 * on 127.0.0.1. It is off unless set, and cannot be combined with NODE_ENV=production.
 */

const analyzeWebsite = (server: TestServer, url: string) =>
  fetch(`${server.url}/api/analyze-website`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url, mode: 'website' }) });

describe('ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK', () => {
  let site: LocalServer;
  let allowed: TestServer;
  let normal: TestServer;

  beforeAll(async () => {
    site = await startLocalServer((_req, _body, res) => html(res, '<html><head><title>Loopback Bakery</title></head><body><h1>Loopback Bakery</h1></body></html>'));
    allowed = await startTestServer({ env: { ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: '1' } });
    normal = await startTestServer();
  });
  afterAll(async () => {
    await allowed.close();
    await normal.close();
    await site.close();
  });

  it('is off by default and refused together with NODE_ENV=production', () => {
    expect(loadConfig({}).analysisTestOnlyAllowLoopback).toBe(false);
    expect(loadConfig({ ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: 'true' }).analysisTestOnlyAllowLoopback).toBe(true);
    expect(() => loadConfig({ ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: '1', NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ ANALYSIS_TEST_ONLY_ALLOW_LOOPBACK: 'yes' })).toThrow(ConfigError);
  });

  it('when set, a local site on 127.0.0.1 and any port is analyzed', async () => {
    const res = await analyzeWebsite(allowed, `http://127.0.0.1:${site.port}/`);
    expect(res.status).toBe(200);
    const report = analysisResponseSchema.parse(await res.json());
    expect(report.businessInfo.businessName).toBe('Loopback Bakery');
    expect(report.dataSources.website).toBe('live');
  });

  it('when set, private networks and cloud metadata are still refused', async () => {
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://192.168.1.1/']) {
      const res = await analyzeWebsite(allowed, url);
      expect(res.status, url).toBe(400);
      expect(errorEnvelopeSchema.parse(await res.json()).error.code).toBe('website_refused');
    }
  });

  it('when not set, the same local site is refused with 400', async () => {
    const res = await analyzeWebsite(normal, `http://127.0.0.1:${site.port}/`);
    expect(res.status).toBe(400);
    expect(errorEnvelopeSchema.parse(await res.json()).error.code).toBe('website_refused');
  });
});
